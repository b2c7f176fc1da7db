"""The referee is told where the match stands, as every game hook is: a ``Trick`` carrying the
engine's place. In a match, the place of the hand about to be played (its replay's); outside one,
the place of a match of the game's defaults before its first hand (``Game.unplayed_place``)."""
from __future__ import annotations

from scorekeeper.engine import replay
from scorekeeper.games import GAMES
from scorekeeper.samples import random_match

from .helpers import stored, text


def told_places(monkeypatch) -> list:
    """Third Rail's referee, recording each place it is told (then answering as it does)."""
    referee = type(GAMES["third_rail"].referee)
    told: list = []
    original = referee.context

    def context(self, hand, place, in_match):  # type: ignore[no-untyped-def]
        told.append((place, in_match))
        return original(self, hand, place, in_match)

    monkeypatch.setattr(referee, "context", context)
    return told


def test_outside_a_match_the_referee_is_told_a_match_of_the_defaults_before_its_first_hand(client, monkeypatch):
    told = told_places(monkeypatch)
    page = text(client.get("/referee/third_rail"))
    place, in_match = told[-1]
    assert not in_match
    assert (place.number, place.dealer, place.settings) == (1, None, GAMES["third_rail"].defaults())
    assert set(place.totals) == {0}
    assert "4 players: one 52-card deck." in page  # outside a match the table says how many play


def test_in_a_match_the_referee_is_told_the_place_of_the_hand_being_played(app, client, monkeypatch):
    match = random_match("third_rail", 3, seed=4, players=5)
    match_id = stored(app, client, match)
    told = told_places(monkeypatch)
    page = text(client.get(f"/referee/third_rail?match={match_id}"))
    place, in_match = told[-1]
    now = replay(match).next_place()
    assert in_match
    assert (place.number, place.dealer, place.totals, place.players) == (now.number, now.dealer, now.totals,
                                                                        now.players)
    assert "5 players: two decks without 2s, 3s and 4s" in page  # the match's seats, from its place
