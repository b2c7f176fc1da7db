"""The write services (web/model/writes.py) on a real database file, without HTTP and
without any Flask app: each write says how it went as a typed outcome, and writes
nothing unless it says Saved. The per-request replay (web/model/replays.py) they read
gives the engine's own results, however it resumes."""
from __future__ import annotations

from dataclasses import replace

import pytest

from scorekeeper import engine, store
from scorekeeper.engine import Match, MatchError
from scorekeeper.games import GAMES
from scorekeeper.samples import long_match, longest
from scorekeeper.web.model import writes
from scorekeeper.web.model.replays import MatchReplay, ReplayCache

WHEEL = {"trump": "wyrms", "mode": "high", "wheel": False, "bid": 5, "tricks": [5, 4, 2]}


@pytest.fixture
def db(tmp_path):
    database = store.connect(str(tmp_path / "writes.sqlite"))
    yield database
    database.close()


@pytest.fixture
def cache():
    return ReplayCache()


def stored(db, cache: ReplayCache, match_id: int) -> MatchReplay:
    """The match as a request reads it: its record, replayed."""
    record = store.get_record(db, match_id)
    return MatchReplay(cache, "writes", match_id, record.version, record.match)


def hands_of(db, match_id: int) -> list[dict]:
    return store.get_record(db, match_id).match.hands


def started(db, hands: int = 5) -> int:
    return store.create_match(db, long_match("third_wheel", hands, seed=3))


def test_a_hand_is_saved_and_the_next_request_goes_on_from_it(db, cache):
    match_id = started(db)
    now = stored(db, cache, match_id)
    outcome = writes.record_hand(db, now, WHEEL, based_on=now.version, request_key="k1")
    assert isinstance(outcome, writes.Saved) and outcome.number == 6
    assert hands_of(db, match_id)[-1] == WHEEL
    assert outcome.after is not None and outcome.after.totals == engine.replay(store.get_record(db, match_id).match).totals
    assert outcome.replayed is not None and outcome.replayed.version == now.version + 1
    # the next request at that version finds its result without folding a hand
    before = engine.replay_count()
    assert stored(db, cache, match_id).result().totals == outcome.after.totals
    assert engine.replay_count() - before == engine.ReplayCount(0, 0)


def test_the_same_form_twice_is_saved_once(db, cache):
    match_id = started(db)
    first = writes.record_hand(db, stored(db, cache, match_id), WHEEL, based_on=None, request_key="tap")
    again = writes.record_hand(db, stored(db, cache, match_id), WHEEL, based_on=None, request_key="tap")
    assert isinstance(first, writes.Saved)
    assert again == writes.AlreadySaved(6)
    assert len(hands_of(db, match_id)) == 6


def test_a_form_saved_before_is_said_saved_even_where_the_engine_now_refuses_it(db, cache):
    # the key is looked up before any refusal: a re-sent form is answered as saved, whatever it holds now
    match_id = started(db)
    writes.record_hand(db, stored(db, cache, match_id), WHEEL, based_on=None, request_key="tap")
    again = writes.record_hand(db, stored(db, cache, match_id), dict(WHEEL, tricks=[5, 4, 3]), based_on=None,
                               request_key="tap")
    assert again == writes.AlreadySaved(6)
    assert len(hands_of(db, match_id)) == 6


def test_a_form_opened_before_another_phone_saved_is_stale_even_where_the_engine_refuses_it(db, cache):
    match_id = started(db)
    opened = stored(db, cache, match_id)
    writes.record_hand(db, opened, WHEEL, based_on=opened.version, request_key="phone-1")
    outcome = writes.record_hand(db, stored(db, cache, match_id), dict(WHEEL, tricks=[5, 4, 3]),
                                 based_on=opened.version, request_key="phone-2")
    assert outcome == writes.Stale(expected=opened.version, current=opened.version + 1)
    assert len(hands_of(db, match_id)) == 6


def test_a_form_opened_before_another_phone_saved_is_stale(db, cache):
    match_id = started(db)
    opened = stored(db, cache, match_id)
    writes.record_hand(db, opened, WHEEL, based_on=opened.version, request_key="phone-1")
    outcome = writes.record_hand(db, stored(db, cache, match_id), WHEEL, based_on=opened.version,
                                 request_key="phone-2")
    assert outcome == writes.Stale(expected=opened.version, current=opened.version + 1)
    assert len(hands_of(db, match_id)) == 6


def test_a_hand_the_engine_refuses_is_not_written(db, cache):
    match_id = started(db)
    now = stored(db, cache, match_id)
    outcome = writes.record_hand(db, now, dict(WHEEL, tricks=[5, 4, 3]), based_on=now.version, request_key="x")
    assert isinstance(outcome, writes.Refused) and outcome.error is not None
    assert any("tricks" in line for line in outcome.problems), outcome.problems
    assert 6 in outcome.error.hand_problems  # placed on the hand being typed
    assert len(hands_of(db, match_id)) == 5
    assert store.get_record(db, match_id).version == now.version


def test_a_form_that_could_not_be_read_writes_nothing(db, cache):
    match_id = started(db)
    now = stored(db, cache, match_id)
    assert writes.record_hand(db, now, None, based_on=now.version, request_key="y") == writes.Refused()
    assert len(hands_of(db, match_id)) == 5


def test_a_deleted_match_is_gone(db, cache):
    match_id = started(db)
    now = stored(db, cache, match_id)
    assert writes.delete_match(db, match_id, based_on=now.version, request_key="del") == writes.Saved()
    assert writes.record_hand(db, now, WHEEL, based_on=None, request_key=None) == writes.Gone()
    assert writes.correct_hand(db, now, 9, WHEEL, based_on=None, request_key=None) == writes.Gone()


def test_a_correction_rescores_the_later_hands(db, cache):
    match_id = started(db)
    now = stored(db, cache, match_id)
    outcome = writes.correct_hand(db, now, 2, WHEEL, based_on=now.version, request_key="fix")
    assert isinstance(outcome, writes.Saved) and outcome.before is not None and outcome.after is not None
    assert hands_of(db, match_id)[1] == WHEEL
    assert outcome.after.totals == engine.replay(store.get_record(db, match_id).match).totals


def test_undo_removes_the_last_hand_and_says_which(db, cache):
    match_id = started(db)
    now = stored(db, cache, match_id)
    outcome = writes.undo_last(db, now, based_on=now.version, request_key="undo")
    assert isinstance(outcome, writes.Saved) and outcome.number == 5
    assert len(hands_of(db, match_id)) == 4
    empty = store.create_match(db, long_match("third_wheel", 0))
    assert writes.undo_last(db, stored(db, cache, empty), based_on=None, request_key=None) == \
        writes.Refused(["there is no hand to undo"])


def test_a_setup_the_hands_do_not_fit_is_refused_before_writing(db, cache):
    match_id = started(db)
    now = stored(db, cache, match_id)
    tried = writes.setup_candidate(now, ["Ann", "Ann", "Cy"], {}, 0)
    assert isinstance(tried, writes.Refused) and tried.error is not None and tried.error.header
    renamed = writes.change_setup(db, now, ["Ann", "Bea", "Cy"], now.match.settings, now.match.first_dealer,
                                  based_on=now.version, request_key="names")
    assert isinstance(renamed, writes.Saved) and renamed.after is not None
    assert renamed.after.players == ["Ann", "Bea", "Cy"]


def test_a_renewed_link_says_how_many_phones_lost_the_match(db):
    match_id = started(db)
    outcome = writes.renew_link(db, match_id, "watcher", "me", request_key="renew")
    assert outcome == writes.Saved(ended=0)
    assert writes.renew_link(db, match_id, "watcher", "me", request_key="renew") == writes.AlreadySaved(None)


def test_a_new_match_is_started_or_refused(db):
    outcome = writes.start_match(db, long_match("third_wheel", 0), device=None)
    assert isinstance(outcome, writes.Saved) and outcome.match_id is not None
    refused = writes.start_match(db, Match("third_wheel", ["Ann", "Ann", "Cy"]), device=None)
    assert isinstance(refused, writes.Refused) and refused.problems


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_snapshot_is_the_engines_own_result(cache, game):
    played = longest(game, 12)  # 12 hands, or as many as the game plays
    match = long_match(game, played, seed=5)
    replayed = MatchReplay(cache, "mem", 1, 1, match)
    assert replayed.result().totals == engine.replay(match).totals
    for k in (0, played // 3, played - 1, played):
        assert replayed.upto(k).totals == engine.replay(replace(match, hands=match.hands[:k])).totals
    for number in (1, (played + 1) // 2 + 1, played):
        hands = list(match.hands)
        hands[number - 1] = match.hands[-1 if number == 1 else 0]
        try:
            expected = engine.replay(replace(match, hands=hands)).totals
        except MatchError:
            with pytest.raises(MatchError):
                replayed.with_hand(number, hands[number - 1])
        else:
            assert replayed.with_hand(number, hands[number - 1]).totals == expected
