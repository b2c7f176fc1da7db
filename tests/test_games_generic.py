"""One generic test over every registered game (open_spiel style): metadata,
settings and properties of random valid matches."""
import json
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scorekeeper.engine import Match, MatchError, replay
from scorekeeper.games import GAMES
from scorekeeper.matchfile import dumps, loads
from scorekeeper.samples import NAMES, random_match

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
    replacement = GAMES[key].rules.random_hand(original.context(k + 1), rng)
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
        target = GAMES[key].rules.target(result.settings)
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
