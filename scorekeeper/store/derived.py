"""Rows derived from the scores, kept beside each match so that no list or stats
page replays a match: its summary (``summaries``: hands, finished, winners, totals,
folded names), each hand's stats facts (``hand_facts``: seat, fact, value) and one
stats row per player (``match_players``: place, won, and each fact's count and sum).

A save folds in its new hand only: a hand's facts depend on that hand and the hand
before it (``Game.hand_facts``), so a save adds its hand's rows and figures, and an
edit or undo takes out the stored rows from the changed hand on and adds those of
the hands as they now score. Rows written by older code (``derived_version`` below
``DERIVED_VERSION``, or missing, as after the schema migrations) are rebuilt with
today's engine by ``refresh_stale``; bump ``DERIVED_VERSION`` whenever what a row holds
changes meaning (a rule, a fact, how names are folded)."""
from __future__ import annotations

import json
from typing import Any

from sqlite_utils import Database

from ..engine import HandResult, MatchError, MatchResult, replay
from ..games.base import NO_OUTPUT, places
from ..names import same_name
from .core import match_row, stored_hands, to_match, writing

DERIVED_VERSION = 4  # 2: the facts of each hand in rows of their own (m009); 3: leaders, low-wins places;
# 4: names folded with the spaces their invisible characters leave at either end trimmed

Figures = list[dict[str, list[Any]]]  # per seat: fact key -> [hands it counts, values added]


def _places(result: MatchResult) -> list[int]:
    """Each seat's place, ranked as the game's rules rank totals (``games.base.places``)."""
    return places(result.totals, result.lowest_wins)


def _team_places(result: MatchResult) -> list[int]:
    """Each seat's place, a team in fixed partnerships placed once (the team behind is 2nd)."""
    return places(result.totals, result.lowest_wins, result.played.sides(result.standing()))


def summary_values(result: MatchResult) -> dict[str, Any]:
    """What the history list shows of a match: hands, finished, winners, totals and the
    seats that lead (the engine's, as of the last write), and the players' names folded
    as the rules compare them (search)."""
    places = _places(result)
    return {
        "leaders": json.dumps([seat for seat, place in enumerate(places) if place == 1]),
        "hands": len(result.hands),
        "finished": int(bool(result.finished)),
        "winners": json.dumps(list(result.winners or [])) if result.finished else None,
        "totals": json.dumps(list(result.totals)),
        "names": "\x1f".join(same_name(name) for name in result.players),
        "derived_version": DERIVED_VERSION,
    }


def _facts_of(result: MatchResult, hands: list[dict[str, Any]], start: int) -> list[list[tuple[int, str, Any]]]:
    """Per seat, the facts of hands ``start``+1 on (1-based numbers): (hand number, key, value)."""
    game = result.played
    found: list[list[tuple[int, str, Any]]] = [[] for _ in result.players]
    before = result.hands[start - 1].extra if start > 0 else NO_OUTPUT
    scored: HandResult
    for hand, scored in zip(hands[start:], result.hands[start:]):
        for seat, facts in enumerate(game.stats.hand_facts(hand, result.place(scored.number), scored.scores,
                                                     scored.extra, before)):
            found[seat].extend((scored.number, key, value) for key, value in facts.items())
        before = scored.extra
    return found


def _player_rows(match_id: int, result: MatchResult, figures: Figures) -> list[list[Any]]:
    rows = []
    # a player's final place: a team in fixed partnerships is placed once (the team behind is 2nd)
    places = _team_places(result)
    for seat, name in enumerate(result.players):
        place = places[seat]
        rows.append([match_id, seat, name, same_name(name), result.game, int(bool(result.finished)),
                     int(bool(result.finished) and seat in result.winners), place, len(result.hands), None,
                     json.dumps(figures[seat], separators=(",", ":"))])
    return rows


PLAYER_COLUMNS = ("match_id", "seat", "name", "name_key", "game", "finished", "won", "place", "hands", "facts",
                  "figures")


def write_all(db: Database, match_id: int, result: MatchResult, hands: list[dict[str, Any]],
              imported: bool | None = None) -> None:
    """Inside a write transaction: every derived row of the match, from its whole replay
    (a new match, a changed header, or a row written by older code). ``imported``: the
    summary's flag (None keeps the stored one)."""
    db.execute("delete from hand_facts where match_id = ?", [match_id])
    figures: Figures = [{} for _ in result.players]
    _add(db, match_id, figures, _facts_of(result, hands, 0))
    _write(db, match_id, result, figures, imported)


def write_change(db: Database, match_id: int, after: MatchResult, new_hands: list[dict[str, Any]],
                 start: int, added_only: bool = False) -> bool:
    """Inside a write transaction: the derived rows after the hands from ``start`` on
    changed (added, corrected or undone; same header), ``after`` being the new result.
    The stored facts of those hands are taken out and the new ones added: a save costs
    its own hand only. ``added_only``: hands were only added after the ``start`` stored
    ones (a save), so no stored fact is taken out. False, writing nothing, when the
    stored rows are not ones to resume from (missing, or written by older code): the
    caller then ``write_all``s."""
    stored = db.execute("select seat, figures from match_players where match_id = ? order by seat",
                        [match_id]).fetchall()
    written = db.execute("select derived_version from summaries where match_id = ?", [match_id]).fetchone()
    if (written is None or written[0] != DERIVED_VERSION
            or [seat for seat, _ in stored] != list(range(len(after.players)))):
        return False
    figures: Figures = [json.loads(text) for _, text in stored]
    if not added_only:
        _take_out(db, match_id, figures, start)
    _add(db, match_id, figures, _facts_of(after, new_hands, start))
    _write(db, match_id, after, figures, None)
    return True


def _take_out(db: Database, match_id: int, figures: Figures, start: int) -> None:
    """Remove the stored facts of the hands after hand ``start`` from the rows and the figures."""
    for seat, fact, count, total in db.execute(
            "select seat, fact, count(*), sum(value) from hand_facts where match_id = ? and number > ? "
            "group by seat, fact", [match_id, start]).fetchall():
        figure = figures[seat][fact]
        figure[0] -= count
        figure[1] -= total
        if figure[0] == 0:
            del figures[seat][fact]
    db.execute("delete from hand_facts where match_id = ? and number > ?", [match_id, start])


def _add(db: Database, match_id: int, figures: Figures, found: list[list[tuple[int, str, Any]]]) -> None:
    """Store the facts ``found`` (per seat) and add them to the seats' figures."""
    rows = []
    for seat, items in enumerate(found):
        for number, fact, value in items:
            figure = figures[seat].setdefault(fact, [0, 0])
            figure[0] += 1
            figure[1] += value
            rows.append((match_id, number, seat, fact, value))
    db.conn.executemany("insert into hand_facts (match_id, number, seat, fact, value) values (?, ?, ?, ?, ?)", rows)


def _write(db: Database, match_id: int, result: MatchResult, figures: Figures, imported: bool | None) -> None:
    summary = summary_values(result)
    if imported is not None:
        summary["imported"] = int(imported)
    _upsert_summary(db, {"match_id": match_id, **summary})
    db.execute("delete from match_players where match_id = ?", [match_id])
    # plain SQL on the hot path: sqlite-utils' insert reads the schema first, every time
    db.conn.executemany(f"insert into match_players ({', '.join(PLAYER_COLUMNS)}) "
                        f"values ({', '.join('?' for _ in PLAYER_COLUMNS)})", _player_rows(match_id, result, figures))


def _upsert_summary(db: Database, summary: dict[str, Any]) -> None:
    columns = list(summary)
    db.execute(f"insert into summaries ({', '.join(columns)}) values ({', '.join('?' for _ in columns)}) "
               f"on conflict(match_id) do update set "
               + ", ".join(f"{c} = excluded.{c}" for c in columns if c != "match_id"),
               [summary[c] for c in columns])


def rebuild(db: Database, match_id: int) -> None:
    """Inside a write transaction: the match's derived rows from its stored hands,
    replayed by today's engine. A stored match the engine no longer scores (a rule
    changed under it) is still listed, with no totals and no stats rows: never fatal."""
    row = match_row(db, match_id, deleted=True)
    match = to_match(row, stored_hands(db, match_id))
    imported = db.execute("select 1 from audit where match_id = ? and action = 'import' limit 1",
                          [match_id]).fetchone() is not None
    try:
        result = replay(match)
    except MatchError:
        _upsert_summary(db, {
            "match_id": match_id, "hands": len(match.hands), "finished": 0, "winners": None, "totals": None, "leaders": None,
            "names": "\x1f".join(same_name(n) for n in match.players), "imported": int(imported),
            "derived_version": DERIVED_VERSION})
        db.execute("delete from match_players where match_id = ?", [match_id])
        db.execute("delete from hand_facts where match_id = ?", [match_id])
        return
    write_all(db, match_id, result, match.hands, imported)


def stale_matches(db: Database) -> list[int]:
    """The matches whose derived rows are missing or were written by older code."""
    return [r[0] for r in db.execute(
        "select m.id from matches m left join summaries s on s.match_id = m.id "
        "where s.match_id is null or coalesce(s.derived_version, 0) < ? order by m.id",
        [DERIVED_VERSION]).fetchall()]


def refresh_stale(db: Database) -> int:
    """Rebuild every stale match's derived rows (one transaction each, so a server
    that starts meanwhile waits for one match, not all). Idempotent: a second call
    finds nothing to do. Returns how many matches were rebuilt."""
    stale = stale_matches(db)
    for match_id in stale:
        with writing(db):
            rebuild(db, match_id)
    return len(stale)
