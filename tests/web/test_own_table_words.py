"""The generic pages say a table's places and roles in the game's own words, by behaviour: a
test-only game registered for these tests alone (Jarball: Oddball whose dealer *pours* and
whose table has a place nobody sits at, *the Jar*) is played through the web, and its pages
show its words and none of the real games' (no "Dummy", no bidding, no "leads")."""
from __future__ import annotations

import re

import pytest

from scorekeeper.games import GAMES
from scorekeeper.games.base import HandContext, Place, Seating
from tests.oddball import Oddball, OddballShown

from .helpers import text
from .test_game_words import OTHER_GAMES, dealer_moved

JAR = "the Jar"
# the real games' roles at the table ("leads" alone is also the standings' "Hal leads Gus by 3")
REAL_ROLES = re.compile(r"\b(dummy|declares?|bids? (first|second|last)|who leads|leads the first trick)\b|· leads\b",
                        re.I)


class JarballShown(OddballShown):
    def table_guide(self, ctx: HandContext, hand: dict | None = None) -> list[str]:
        return [f"{ctx.players[ctx.dealt_by]} pours the marbles into {JAR}."]

    def seating(self, ctx: HandContext, hand: dict | None = None) -> Seating:
        """The jar stands between the last seat and the first; the dealer pours, nobody leads."""
        dealer = ctx.dealt_by
        seats = tuple(Place(name, seat, ("deals", "pours") if seat == dealer else (), deals=seat == dealer)
                      for seat, name in enumerate(ctx.players))
        return Seating(seats + (Place(JAR, None, ("holds the marbles",)),), notes=(f"{JAR} sits by the last seat.",))


class Jarball(Oddball):
    key = "jarball"
    title = "Jarball (test only)"
    shown = JarballShown()


@pytest.fixture
def jarball(monkeypatch) -> str:
    monkeypatch.setitem(GAMES, Jarball.key, Jarball())
    return Jarball.key


def test_a_game_s_own_places_and_roles_are_what_its_pages_say(client, jarball):
    match_id = dealer_moved(client, jarball)
    words = text(client.get(f"/matches/{match_id}"))
    # a correction that moves later dealers says what the new dealer does in this game
    assert "Hand 2 is now dealt by Ed, who pours there; check it." in words
    assert JAR in words and "holds the marbles" in words and "pours" in words
    m = f"/matches/{match_id}"
    for url in (m, f"{m}/hands/1/edit", f"{m}/board", f"{m}/live", f"{m}/screen", f"{m}/print", f"{m}/log",
                f"{m}/tally", f"{m}/undo"):
        response = client.get(url)
        assert response.status_code == 200, url
        found = OTHER_GAMES.search(text(response)) or REAL_ROLES.search(text(response))
        assert not found, (url, found)
