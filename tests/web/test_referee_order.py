"""The referee keeps the table's order ("Who won the trick?" in a match) after New trick,
Undo and Led by, in every game of the registry that has a referee (issue 26: Third Hand,
Led by Bob, Ann wins the trick, New trick said "Bob leads")."""
from __future__ import annotations

import random
import re
from dataclasses import replace
from urllib.parse import urlencode

import pytest

from scorekeeper.games import GAMES
from scorekeeper.games.base import Seating

from .helpers import page_of, start, text

HX = {"HX-Request": "true"}
REFEREED = [key for key, game in GAMES.items() if game.referee is not None]


def slot_labels(response) -> list[str]:
    return re.findall(r'<span class="ref-slot-label">([^<]*)</span>', response.get_data(as_text=True))


class Trick:
    """A match of ``key`` and a whole trick in it that the second place leads and someone
    else wins, found with the game's own referee; the query of the referee page for it."""

    def __init__(self, client, key: str):
        game = GAMES[key]
        players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"][:max(game.min_players, min(4, game.max_players))]
        self.match_id = start(client, key, players)
        page = page_of(client.get(f"/referee/{key}?match={self.match_id}"))
        self.key, self.client = key, client
        self.base: dict[str, str] = {"match": str(self.match_id), "table": page.value("table") or "", "lead": "1"}
        # the hand's own choices (trump...) as a browser sends them: the option selected, the
        # first offered where one asks to be picked ("— pick —"), else the select's first option
        select, offered = None, {}
        for e in page.elements:
            if e.tag == "select" and e.attrs.get("id", "").startswith("ref-") and e.attrs["name"] not in (
                    "lead",) and not re.fullmatch(r"c\d+", e.attrs["name"]):
                select = e.attrs["name"]
                offered[select] = []
            elif e.tag == "option" and select:
                offered[select].append((e.attrs.get("value", ""), "selected" in e.attrs))
            elif e.tag != "option":
                select = None
        for name, options in offered.items():
            selected = [value for value, on in options if on]
            if selected and not selected[0]:  # "— pick —": the hand's choice is asked for: the first real one
                value = next(value for value, _ in options if value)
            else:  # the option selected, else the first, as a browser sends it
                value = selected[0] if selected else options[0][0]
            if value:
                self.base[name] = value
        count = len(slot_labels(client.get(self.url())))
        self.order = slot_labels(client.get(self.url()))
        referee = game.referee
        assert referee is not None
        # the trick as the referee reads the page's choices (the match's own player count is not
        # among them: outside a match, as many as the referee's defaults seat)
        ctx = referee.trick({}, game.unplayed_place(), in_match=False)
        referee.read(ctx, self.base)
        cards = [f.code for f in referee.options(referee.decks(ctx))]
        rng = random.Random(26)
        for _ in range(5000):
            trick = rng.sample(cards, count)
            try:
                best, _ = referee.judge(trick, ctx)
            except ValueError:
                continue
            if best != 0:
                break
        else:
            raise AssertionError(f"no trick of {key} that the leader loses")
        self.cards, self.best = trick, best

    def url(self, **extra: str) -> str:
        return f"/referee/{self.key}?" + urlencode({**self.base, **extra})

    def played(self, **extra: str) -> str:
        return self.url(**{f"c{i + 1}": card for i, card in enumerate(self.cards)}, **extra)

    @property
    def leader(self) -> str:
        """Who leads the trick: the place chosen under Led by (the second)."""
        return self.order[0].removesuffix(" leads")

    @property
    def winner(self) -> str:
        return self.order[self.best].removesuffix(" leads")


@pytest.mark.parametrize("key", REFEREED)
def test_new_trick_after_a_whole_trick_is_led_by_its_winner(client, key):
    trick = Trick(client, key)
    judged = text(client.get(trick.played())).lower()
    assert f"{trick.winner} wins the trick".lower() in judged and f"({trick.winner} leads it)".lower() in judged
    fresh = client.get(trick.played(clear="1"), headers=HX)
    assert slot_labels(fresh)[0] == f"{trick.winner} leads"
    assert f"Tap the card {trick.winner} led.".lower() in text(fresh).lower()
    # without JavaScript: the plain address it goes to says the same
    plain = client.get(trick.played(clear="1"))
    assert plain.status_code == 303
    assert slot_labels(client.get(plain.headers["Location"]))[0] == f"{trick.winner} leads"


@pytest.mark.parametrize("key", REFEREED)
def test_undo_keeps_who_led_the_trick(client, key):
    trick = Trick(client, key)
    undone = client.get(trick.played(undo="1"), headers=HX)
    assert slot_labels(undone) == trick.order  # the trick being corrected: same leader
    # a tap starts the next trick, which the winner leads; Undo takes the tap back, not the lead
    nxt = trick.played(add=trick.cards[0])
    moved = client.get(nxt, headers=HX)
    assert slot_labels(moved)[0] == f"{trick.winner} leads"
    lead = re.search(r'<option value="(\d+)" selected>', moved.get_data(as_text=True).split('name="lead"')[1])
    assert lead is not None
    back = client.get(trick.url(lead=lead.group(1), c1=trick.cards[0], undo="1"), headers=HX)
    assert slot_labels(back)[0] == f"{trick.winner} leads"


@pytest.mark.parametrize("key", REFEREED)
def test_led_by_puts_the_chosen_place_first_and_new_trick_keeps_it_before_a_whole_trick(client, key):
    trick = Trick(client, key)
    dealt = [label.removesuffix(" leads") for label in slot_labels(client.get(trick.url(lead="0")))]
    assert [label.removesuffix(" leads") for label in trick.order] == dealt[1:] + dealt[:1]
    assert trick.order[0] == f"{dealt[1]} leads"
    # an unfinished trick thrown away: nobody won it, so the same place leads again
    half = client.get(trick.url(c1=trick.cards[0], clear="1"), headers=HX)
    assert slot_labels(half) == trick.order


def test_a_place_that_sits_the_hand_out_plays_no_card_and_the_others_are_named(client, monkeypatch):
    # a game where a player may sit a hand out (a lone player's partner), played for the test by
    # Third Rail with Cy sitting out and three cards to a trick
    game = GAMES["third_rail"]
    shared = type(game.shown).seating

    def seating(self, ctx, hand=None):
        found = shared(self, ctx, hand)
        return Seating(tuple(replace(p, sits_out=p.seat == 2) for p in found.places), found.notes)

    monkeypatch.setattr(type(game.shown), "seating", seating)
    monkeypatch.setattr(type(game.referee), "slots", lambda self, context: 3)
    match_id = start(client, "third_rail", ["Ann", "Bob", "Cy", "Dee"])  # Ann deals: Bob leads
    page = client.get(f"/referee/third_rail?match={match_id}&c1=5C&c2=KC&c3=AC", headers=HX)
    assert slot_labels(page) == ["Bob leads", "Dee", "Ann"]  # Cy plays no card
    assert "Dee wins the trick" in text(page)  # King high
