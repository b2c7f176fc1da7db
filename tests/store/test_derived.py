"""The derived rows (match summary, players' stats rows) a save, edit or undo leaves
are exactly those a replay of the whole match by today's engine gives, and a save
folds in its new hand only."""
from __future__ import annotations

import random
from typing import Any

import pytest

from scorekeeper import store
from scorekeeper.engine import Match, MatchError, replay
from scorekeeper.games import GAMES
from scorekeeper.samples import long_match, long_settings, longest
from scorekeeper.store import derived

Rows = tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[tuple[Any, ...]]]


def derived_rows(db: store.Database, match_id: int) -> Rows:
    summary = db.execute("select * from summaries where match_id = ?", [match_id]).fetchall()
    players = db.execute("select * from match_players where match_id = ? order by seat", [match_id]).fetchall()
    facts = db.execute("select * from hand_facts where match_id = ? order by number, seat, fact",
                       [match_id]).fetchall()
    return summary, players, facts


def rebuilt_rows(db: store.Database, match_id: int) -> Rows:
    """The rows a whole replay writes, read inside a transaction that is then rolled back."""
    db.execute("BEGIN IMMEDIATE")
    try:
        derived.rebuild(db, match_id)
        return derived_rows(db, match_id)
    finally:
        db.execute("ROLLBACK")


@pytest.fixture
def db(tmp_path):
    db = store.connect(str(tmp_path / "matches.sqlite"))
    yield db
    db.close()


@pytest.mark.parametrize("key", sorted(GAMES))
def test_saves_edits_and_undos_leave_the_rows_a_whole_replay_gives(db, key):
    rng = random.Random(7)
    sample = long_match(key, longest(key, 14), seed=5)  # the game says how many it plays (up to 14)
    match_id = store.create_match(db, sample.__class__(game=key, players=sample.players, settings=sample.settings,
                                                       first_dealer=sample.first_dealer, hands=sample.hands[:3]))
    changes = 0
    for step in range(40):
        record = store.get_record(db, match_id)
        hands = record.match.hands
        result = replay(record.match)
        move = rng.choice(["save", "save", "save", "edit", "undo"]) if hands else "save"
        try:
            if move == "save":
                hand = GAMES[key].rules.random_hand(result.next_place(), rng)
                store.add_hand(db, match_id, hand, expected_version=record.version,
                               known=result if step % 2 else None)
            elif move == "edit":
                number = rng.randrange(1, len(hands) + 1)
                hand = GAMES[key].rules.random_hand(result.place(number), rng)
                store.edit_hand(db, match_id, number, hand, expected_version=record.version,
                                keep_dealers=rng.random() < 0.5)
            else:
                store.undo_last(db, match_id, expected_version=record.version, known=result)
        except MatchError:
            continue  # a random correction the rules refuse changes nothing
        changes += 1
        assert derived_rows(db, match_id) == rebuilt_rows(db, match_id), (move, step)
    assert changes >= 20
    summary, players, _ = derived_rows(db, match_id)
    assert summary[0][1] == len(store.get_record(db, match_id).match.hands)
    assert len(players) == len(sample.players)


def test_a_save_looks_at_its_own_hand_only(db, monkeypatch):
    """A save at hand 60 asks the game for one hand's facts, as at hand 2."""
    key = "third_wheel"
    sample = long_match(key, 61, seed=3)
    early = store.create_match(db, sample.__class__(game=key, players=sample.players, settings=long_settings(key, 1000),
                                                    hands=sample.hands[:1]))
    late = store.create_match(db, sample.__class__(game=key, players=sample.players, settings=long_settings(key, 1000),
                                                   hands=sample.hands[:60]))
    game = GAMES[key]
    asked: list[dict] = []
    real = game.stats.hand_facts

    def counted(hand: dict, *args: Any) -> Any:
        asked.append(hand)
        return real(hand, *args)

    monkeypatch.setattr(game.stats, "hand_facts", counted)
    for match_id, next_hand in ((early, sample.hands[1]), (late, sample.hands[60])):
        record = store.get_record(db, match_id)
        asked.clear()
        store.add_hand(db, match_id, next_hand, expected_version=record.version, known=replay(record.match))
        assert asked == [next_hand]
    monkeypatch.undo()
    assert derived_rows(db, late) == rebuilt_rows(db, late)


def test_an_undo_takes_out_the_stored_facts_of_the_last_hand_without_asking_the_game(db, monkeypatch):
    key = "third_wheel"
    sample = long_match(key, 30, seed=4)
    match_id = store.create_match(db, sample)
    game = GAMES[key]
    asked: list[dict] = []
    real = game.stats.hand_facts
    monkeypatch.setattr(game.stats, "hand_facts", lambda hand, *args: asked.append(hand) or real(hand, *args))
    record = store.get_record(db, match_id)
    store.undo_last(db, match_id, expected_version=record.version, known=replay(record.match))
    assert asked == []  # the undone hand's stored facts are taken out as they were stored
    monkeypatch.undo()
    assert derived_rows(db, match_id) == rebuilt_rows(db, match_id)
    assert not [row for row in derived_rows(db, match_id)[2] if row[1] == len(sample.hands)]


def test_a_save_over_rows_older_code_wrote_rewrites_them_whole(db):
    key = "dummy_spades"
    sample = long_match(key, 12, seed=2)
    match_id = store.create_match(db, sample.__class__(game=key, players=sample.players, settings=sample.settings,
                                                       hands=sample.hands[:11]))
    db.execute("update match_players set figures = '{}'")
    db.execute("delete from hand_facts")
    db.execute("update summaries set derived_version = 0, totals = '[0, 0, 0]'")
    db.conn.commit()
    record = store.get_record(db, match_id)
    store.add_hand(db, match_id, sample.hands[11], expected_version=record.version, known=replay(record.match))
    assert derived_rows(db, match_id) == rebuilt_rows(db, match_id)
    assert derived_rows(db, match_id)[1][0][-1] != "{}" and derived_rows(db, match_id)[2]


def test_rows_older_code_wrote_name_the_lowest_total_as_leader_where_the_lowest_wins(db):
    """Version 2 rows had no leaders and placed the highest total first even where the
    lowest wins: a start-up rebuilds them so the history and the stats rank as the rules do."""
    from scorekeeper.engine import Match
    match = Match(game="score_pad", players=["Ann", "Bob", "Cy"],
                  settings={"target": 100, "low_wins": True, "hand_count": 0},
                  hands=[{"points": [90, 10, 26]}])
    match_id = store.create_match(db, match)
    db.execute("update summaries set derived_version = 2, leaders = null")
    db.execute("update match_players set place = 4 - place")
    db.conn.commit()
    assert store.refresh_stale(db) == 1
    leaders, = db.execute("select leaders from summaries where match_id = ?", [match_id]).fetchone()
    assert leaders == "[1]"
    places = db.execute("select name, place from match_players where match_id = ? order by place",
                        [match_id]).fetchall()
    assert places == [("Bob", 1), ("Cy", 2), ("Ann", 3)]


def test_a_team_is_placed_once_in_the_players_rows(db, monkeypatch):
    # the tests' own game, given fixed partnerships for the test (``Game.sides``): the team
    # behind the leaders is placed 2nd in the stats rows (the players' average final place)
    sides = ((0, 4), (1, 5), (2, 6), (3, 7))
    monkeypatch.setattr(type(GAMES["oddball"]), "sides", lambda self, table: sides)
    players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
    hand = {"weather": "clear", "marbles": [s % 4 for s in range(8)]}  # partners hold the same marbles
    match_id = store.create_match(db, Match(game="oddball", players=players, settings={}, first_dealer=0, hands=[hand]))
    places = [row[0] for row in db.execute("select place from match_players where match_id = ? order by place",
                                          [match_id]).fetchall()]
    assert places == [1, 1, 2, 2, 3, 3, 4, 4]
