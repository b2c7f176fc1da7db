"""The generic pages say a table's places and roles in the game's own words, by behaviour: a
test-only game registered for these tests alone (Jarball: Oddball whose dealer *pours* and
whose table has a place nobody sits at, *the Jar*) is played through the web, and its pages
show its words and none of the real games' (no "Dummy", no bidding, no "leads"); its hand is
tapped winner by winner in *rounds*, so the tally's pages say rounds, never tricks."""
from __future__ import annotations

import dataclasses
import re

import pytest

from scorekeeper.games import GAMES
from scorekeeper.games.base import FieldGroup, HandContext, Place, Seating, TallyColumn, TrickTally
from tests.oddball import Oddball, OddballShown

from .helpers import page_of, record, start, text
from .test_game_words import EIGHT, OTHER_GAMES, oddball_hand

JAR = "the Jar"
# the real games' roles at the table ("leads" alone is also the standings' "Hal leads Gus by 3")
REAL_ROLES = re.compile(r"\b(dummy|declares?|bids? (first|second|last)|who leads|leads the first trick)\b|· leads\b",
                        re.I)


class JarballShown(OddballShown):
    deal_passes = "the jar passes on"

    def dealt_out_of_turn(self, ctx: HandContext) -> str:
        return f"{ctx.players[ctx.dealt_by]} poured instead"

    def table_guide(self, ctx: HandContext, hand: dict | None = None) -> list[str]:
        return [f"{ctx.players[ctx.dealt_by]} pours the marbles into {JAR}."]

    def seating(self, ctx: HandContext, hand: dict | None = None) -> Seating:
        """The jar stands between the last seat and the first; the dealer pours, nobody leads."""
        dealer = ctx.dealt_by
        seats = tuple(Place(name, seat, ("deals", "pours") if seat == dealer else (), deals=seat == dealer)
                      for seat, name in enumerate(ctx.players))
        return Seating(seats + (Place(JAR, None, ("holds the marbles",)),), notes=(f"{JAR} sits by the last seat.",))


    def hand_form(self, ctx: HandContext) -> list[FieldGroup]:
        return [dataclasses.replace(group, legend="Or the winner of each of the 5 rounds") if group.name == "rounds"
                else group for group in super().hand_form(ctx)]

    def trick_tally(self, place: HandContext) -> TrickTally:
        """Oddball's tally, its things tapped called rounds (and its columns, mark and notes so)."""
        tally = super().trick_tally(place)
        assert tally is not None and tally.mark is not None
        return dataclasses.replace(
            tally, unit="round", columns=(TallyColumn("Marbles", settles="for fog"), TallyColumn("Rounds won")),
            count=lambda winners: tally.count(winners)[:2], notes=("Rounds 2 and 4 win two marbles each.",),
            mark=dataclasses.replace(tally.mark, name="two-marble round"))


class Jarball(Oddball):
    key = "jarball"
    title = "Jarball (test only)"
    shown = JarballShown()


@pytest.fixture
def jarball(monkeypatch) -> str:
    monkeypatch.setitem(GAMES, Jarball.key, Jarball())
    return Jarball.key


def test_a_game_s_own_places_and_roles_are_what_its_pages_say(client, jarball):
    match_id = start(client, jarball, EIGHT)  # Ann deals hand 1, Bob hand 2, Cy hand 3
    for _ in range(3):
        assert record(client, match_id, **oddball_hand()).status_code == 303
    edit = page_of(client.get(f"/matches/{match_id}/hands/1/edit"))
    data = {k: str(v) for k, v in oddball_hand(dealer=3, version=edit.value("version")).items()}
    assert client.post(f"/matches/{match_id}/hands/1/edit", data=data).status_code == 303
    words = text(client.get(f"/matches/{match_id}"))
    # a correction that moves later dealers says what the new dealer does in this game
    assert "Hand 2 is now dealt by Ed, who pours there; check it." in words
    assert JAR in words and "holds the marbles" in words and "pours" in words
    # the rules say who deals next and that Di dealt out of turn; the game's Shown says it
    why = text(client.get(f"/matches/{match_id}/hands/1/why"))
    assert "Di dealt this hand out of turn (it was Ann's deal): Di poured instead." in why, why
    assert "Ed deals next: the jar passes on from Di." in why, why
    assert "Fay deals next: the jar passes on." in text(client.get(f"/matches/{match_id}/hands/2/why"))
    m = f"/matches/{match_id}"
    for url in (m, f"{m}/hands/1/edit", f"{m}/board", f"{m}/live", f"{m}/screen", f"{m}/print", f"{m}/log",
                f"{m}/tally", f"{m}/undo"):
        response = client.get(url)
        assert response.status_code == 200, url
        found = OTHER_GAMES.search(text(response)) or REAL_ROLES.search(text(response))
        assert not found, (url, found)


# the tally's own word, wherever a page says it ("Trick 3 of 5", "Record trick by trick"...)
TRICK = re.compile(r"\btricks?\b", re.I)


def test_a_tally_says_what_the_game_calls_the_things_tapped(client, jarball):
    match_id = start(client, jarball, EIGHT)
    m = f"/matches/{match_id}"
    board = text(client.get(m))
    assert "Record round by round" in board and not TRICK.search(board), TRICK.search(board)
    tally = page_of(client.get(f"{m}/tally"))
    assert tally.find("title").text == "Jarball (test only) round by round · Scorekeeper"
    assert tally.find("h2", cls="tally-count").text == "Round 1 of 5"
    saved = client.post(f"{m}/tally", data={"w": "0 1 2 3 4", "save": "1", "version": tally.value("version")})
    assert saved.status_code == 303, text(saved)
    board = text(client.get(m))
    assert "Hand 1 saved, round by round" in board, board
    edit = text(client.get(f"{m}/hands/1/edit"))
    assert "Hand 1 was recorded round by round: the winner of each of its 5 rounds." in edit
    assert "Correct it round by round" in edit and "Opens the tally with every round filled in" in edit
    assert "Replaces the round-by-round record" in edit
    as_counts = text(client.get(f"{m}/hands/1/edit?as=counts"))
    assert "Correct it round by round instead" in as_counts
    reopened = page_of(client.get(f"{m}/tally?hand=1"))
    assert reopened.find("h2", cls="tally-count").text == "All 5 rounds are in."
    assert "Every round is filled in as recorded. Tap a round below" in reopened.text
    assert "Round 3 was won by:" in reopened.text and "change the winner of round 3" in reopened.text
    for words in (edit, as_counts, reopened.text, text(client.get(f"{m}/tally"))):
        assert not TRICK.search(words), TRICK.search(words)
