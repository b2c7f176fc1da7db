"""How long a test's match can be is the game's to say (``Game.long_match``): the samples
ask it (``samples.longest``, ``lasting_settings``, ``long_match``) instead of assuming any
game can go on for hundreds of hands. A test-only game whose matches are exactly 40 hands
(a fixed schedule, like a game whose cards per hand follow a set plan) is registered here
for the test alone; before the samples asked, ``long_match`` on it raised ValueError."""
from __future__ import annotations

import pytest

from scorekeeper import samples
from scorekeeper.engine import replay
from scorekeeper.games import GAMES
from tests.oddball import Oddball

SCHEDULE = 40  # hands in every match of the fixed-schedule game


class FixedOddball(Oddball):
    """Oddball, always ending after its 40th hand."""

    key = "fixed_oddball"
    title = "Fixed Oddball (test only)"

    def long_match(self, hands: int, seats: int) -> dict | None:
        return {"last_hand": SCHEDULE} if hands <= SCHEDULE else None


@pytest.fixture
def fixed(monkeypatch) -> str:
    monkeypatch.setitem(GAMES, FixedOddball.key, FixedOddball())
    monkeypatch.setitem(samples.PLAYERS, FixedOddball.key, FixedOddball.sample_players)
    return FixedOddball.key


def test_the_longest_match_is_what_the_game_says(fixed):
    assert samples.longest(fixed, 1000) == SCHEDULE
    assert samples.longest(fixed, 12) == 12
    assert samples.longest("oddball", 1000) == 1000  # a game that can go on goes on
    assert samples.lasting_settings(fixed, 1000) == {"last_hand": SCHEDULE}


def test_a_long_sample_plays_on_as_far_as_the_game_goes(fixed):
    match = samples.long_match(fixed, 30, seed=2)  # room for 100 more asked: the game gives 10
    assert len(match.hands) == 30
    result = replay(match)
    assert not result.finished
    rest = samples.random_match(fixed, 100, seed=3, settings=match.settings)
    assert len(rest.hands) == SCHEDULE and replay(rest).finished


def test_more_hands_than_the_game_plays_is_refused_by_name(fixed):
    with pytest.raises(ValueError, match=f"fixed_oddball: no match of 8 players lasts {SCHEDULE + 1} hands"):
        samples.long_match(fixed, SCHEDULE + 1)
