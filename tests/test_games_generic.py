"""One generic test over every registered game (open_spiel style): metadata,
settings and properties of random valid matches."""
import json
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scorekeeper.engine import Match, MatchError, replay
from scorekeeper.games import GAMES
from scorekeeper.games.base import Table
from scorekeeper.matchfile import dumps, loads
from scorekeeper.samples import NAMES, random_match
from tests.places import blank_place

GAME_KEYS = sorted(GAMES)
EXAMPLES = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("key", GAME_KEYS)
def test_game_describes_itself(key):
    game = GAMES[key]
    assert game.key == key
    assert game.title and game.summary
    assert 2 <= game.min_players <= game.max_players <= 8
    assert game.hand_fields and set(game.required_fields) <= set(game.hand_fields)
    assert game.sample_settings and all(replay(Match(key, NAMES[:game.sample_players], dict(variant)))
                                        for variant in game.sample_settings)
    for setting in game.settings:
        assert setting.label and setting.help
        assert setting.parse(setting.default)[1] is None, setting.name


@pytest.mark.parametrize("key", GAME_KEYS)
def test_defaults_score_an_empty_match(key):
    game = GAMES[key]
    result = replay(Match(game=key, players=NAMES[: max(game.min_players, 2)]))
    assert result.settings == game.defaults()
    assert result.totals == [0] * max(game.min_players, 2)
    assert not result.finished and result.next_dealer == 0


@pytest.mark.parametrize("key", GAME_KEYS)
@given(seed=st.integers(0, 10**6), hands=st.integers(1, 40), first=st.integers(0, 1))
@EXAMPLES
def test_totals_are_the_running_sum_of_scores(key, seed, hands, first):
    result = replay(random_match(key, hands, seed, first_dealer=first))
    running = [0] * len(result.players)
    for hand in result.hands:
        running = [r + s for r, s in zip(running, hand.scores)]
        assert hand.totals == running
        assert all(isinstance(s, int) for s in hand.scores)
        assert hand.explanation and all(isinstance(line, str) and line for line in hand.explanation)
    assert result.totals == running


@pytest.mark.parametrize("key", GAME_KEYS)
@given(seed=st.integers(0, 10**6), hands=st.integers(1, 30))
@EXAMPLES
def test_rescoring_is_deterministic_and_survives_the_match_file(key, seed, hands):
    match = random_match(key, hands, seed)
    first = replay(match).as_json()
    again = replay(loads(dumps(match))).as_json()
    assert json.dumps(first) == json.dumps(again)


@pytest.mark.parametrize("key", GAME_KEYS)
@given(seed=st.integers(0, 10**6), hands=st.integers(2, 30), data=st.data())
@EXAMPLES
def test_changing_a_hand_never_changes_what_came_before(key, seed, hands, data):
    match = random_match(key, hands, seed, settings=None)
    original = replay(match)
    k = data.draw(st.integers(0, len(match.hands) - 1))
    dealer = original.hands[k].dealer
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    replacement = GAMES[key].rules.random_hand(original.place(k + 1), rng)
    assume(replacement != match.hands[k])
    # Up to and including the changed hand: a later hand may no longer fit (Third Hand's
    # next dealer follows the scores), but nothing before hand k may move.
    changed = replay(Match(key, match.players, match.settings, 0, match.hands[:k] + [replacement]))
    assert [h.as_json() for h in changed.hands[:k]] == [h.as_json() for h in original.hands[:k]]
    assert changed.hands[k].dealer == dealer


@pytest.mark.parametrize("key", GAME_KEYS)
@given(seed=st.integers(0, 10**6), data=st.data())
@EXAMPLES
def test_a_finished_match_names_winners_and_no_dealer(key, seed, data):
    # under each of the game's sample settings: under its defaults a Dummy Spades, Score Pad or
    # Oddball match never ended within 400 hands, so only the unfinished branch was ever met
    variant = data.draw(st.sampled_from(GAMES[key].sample_settings))
    result = replay(random_match(key, 60, seed, settings=dict(variant)))
    if result.finished:
        assert result.winners and result.next_dealer is None
        target = GAMES[key].rules.target(result.next_place())
        best = min(result.totals) if target is not None and target.low_wins else max(result.totals)
        assert all(result.totals[w] == best for w in result.winners)
    else:
        assert result.winners == [] and result.next_dealer is not None


@pytest.mark.parametrize("key", GAME_KEYS)
@given(seed=st.integers(0, 10**6), hands=st.integers(1, 30), data=st.data())
@EXAMPLES
def test_resuming_from_the_first_hands_gives_the_same_result(key, seed, hands, data):
    match = random_match(key, hands, seed)
    k = data.draw(st.integers(0, len(match.hands)))
    prefix = replay(Match(key, match.players, match.settings, 0, match.hands[:k]))
    assert replay(match, resume=prefix).as_json() == replay(match).as_json()


@pytest.mark.parametrize("key", GAME_KEYS)
def test_a_hand_resumed_after_the_end_is_still_refused(key):
    game = GAMES[key]
    # 60 hands: a variant that ends does so within a dozen; one that does not (Dummy Spades'
    # defaults) would play all 400 of five matches before the next variant was tried
    ended = next(match for variant in game.sample_settings for seed in range(5)
                 if replay(match := random_match(key, 60, seed, settings=dict(variant))).finished)
    result = replay(ended)
    extra = Match(key, ended.players, ended.settings, 0, ended.hands + [dict(ended.hands[-1])])
    with pytest.raises(MatchError) as caught:
        replay(extra, resume=result)
    last = len(ended.hands)
    assert caught.value.problems == [f"hand {last + 1}: recorded after the game ended (it ended after hand {last})"]


# --- a trick tally and a card counter, for every game that offers one ---------------------

def _tables(key):
    """Each player count of the game with each of its sample settings."""
    game = GAMES[key]
    for seats in range(game.min_players, game.max_players + 1):
        for variant in ({}, *game.sample_settings):
            yield NAMES[:seats], dict(game.defaults(), **variant)


TALLY_KEYS = sorted(key for key in GAMES if any(GAMES[key].shown.trick_tally(blank_place(GAMES[key], settings, len(names))) is not None
                                                for names, settings in _tables(key)))
COUNTER_KEYS = sorted(key for key, game in GAMES.items() if game.shown.card_counter() is not None)


def test_more_than_one_shape_of_tally_and_counter_is_registered():
    """The generic tests below meet at least two games each (a real one and the tests'
    own), whose tallies differ in tricks, columns and picks and counters in kinds."""
    assert len(TALLY_KEYS) >= 2 and len(COUNTER_KEYS) >= 2
    tallies = [GAMES[k].shown.trick_tally(blank_place(GAMES[k], GAMES[k].defaults(), GAMES[k].min_players)) for k in TALLY_KEYS]
    assert len({(t.tricks, tuple(c.label for c in t.columns)) for t in tallies if t}) == len(TALLY_KEYS)
    assert len({tuple(k.name for k in GAMES[key].shown.card_counter().kinds) for key in COUNTER_KEYS}) \
        == len(COUNTER_KEYS)


@pytest.mark.parametrize("key", TALLY_KEYS)
def test_a_trick_tally_makes_hands_the_game_scores_and_reads_back(key):
    """Every column counts every seat at every trick; the taps with any pick make a hand
    the game accepts, that reads back as the same taps, and whose counts score the same."""
    game, rng = GAMES[key], random.Random(7)
    for names, table_settings in _tables(key):
        tally = game.shown.trick_tally(blank_place(game, table_settings, len(names)))
        if tally is None:
            continue
        assert tally.tricks > 0 and tally.columns and all(c.label for c in tally.columns)
        assert sum(c.settles is not None for c in tally.columns) <= 1
        if tally.mark is not None:
            assert tally.mark.announce and tally.mark.sign and tally.mark.name
        winners = [rng.randrange(len(names)) for _ in range(tally.tricks)]
        for taken in range(tally.tricks + 1):
            counted = tally.count(winners[:taken])
            assert [len(column) for column in counted] == [len(names)] * len(tally.columns)
            assert all(isinstance(n, int) for column in counted for n in column)
        picks = [None] + ([value for value, _, _ in tally.choice.options] if tally.choice else [])
        for pick in picks:
            hand = tally.to_hand(winners, pick)
            assert tally.from_hand(hand) == (winners, pick)
            by_tricks = replay(Match(key, names, table_settings, hands=[hand]))
            as_counts = replay(Match(key, names, table_settings, hands=[tally.as_counts(hand)]))
            assert tally.from_hand(tally.as_counts(hand)) is None
            assert as_counts.hands[0].scores == by_tricks.hands[0].scores


@pytest.mark.parametrize("key", COUNTER_KEYS)
def test_a_card_counter_describes_its_kinds_and_fills_a_seat_count(key):
    """Its kinds are named once, labelled, with limits; it fills a per-seat number of the
    hand form; counts at the limits make whole points and any problems in words."""
    game = GAMES[key]
    counter = game.shown.card_counter()
    kinds = [kind.name for kind in counter.kinds]
    assert len(kinds) == len(set(kinds)) and all(k.label and k.least <= k.most for k in counter.kinds)
    assert counter.heading and counter.counted and counter.typed
    for names, table_settings in _tables(key):
        groups = game.shown.hand_form(game.empty_place(Table(tuple(names), table_settings), 0))
        assert any(g.kind == "counts" for g in groups)
        assert [g.kind for g in groups if g.name == counter.into] == ["seat_int"]
    for limit in ("least", "most"):
        counts = {kind.name: getattr(kind, limit) for kind in counter.kinds}
        assert isinstance(counter.points(counts), int)
        problems = counter.problems({0: counts, 1: None}, tuple(NAMES[:2]))
        assert all(isinstance(p, str) and p for p in problems)


@pytest.mark.parametrize("key", GAME_KEYS)
def test_a_long_match_the_game_offers_lasts_as_long_as_asked(key):
    """``Game.long_match``: settings under which a match goes on for as many hands as asked,
    whatever they score (benchmarks and the generic suites ask each game for one instead of
    assuming it can be endless); valid settings, and no hand before the last ends the match."""
    game = GAMES[key]
    for seats in sorted({game.min_players, game.max_players}):
        for hands in (1, 12, 45):
            settings = game.long_match(hands, seats)
            if settings is None:  # the game plays no match this long: then none longer either
                assert all(game.long_match(more, seats) is None for more in (hands + 1, hands * 10)), key
                continue
            assert set(settings) <= {s.name for s in game.settings}, settings
            assert game.rules.check_settings(blank_place(game, {**game.defaults(), **settings}, seats)) == [], settings
            for seed in range(3):
                match = random_match(key, hands, seed=seed, players=seats, settings=settings)
                assert len(match.hands) == hands, (key, seats, hands, seed)  # nothing ended it sooner
