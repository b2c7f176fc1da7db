"""A hand dealt out of turn, without a browser: once the form names who dealt, the form drawn
again for them, and its preview's seat picture and referee link, are those of a hand that
player dealt in turn. For every game of the registry; the app is its own oracle (as in
tests/browser/test_form_follows_dealer.py): the same table in a match whose first dealer is
that player shows the hand dealt by them in turn."""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest

from scorekeeper.engine import Match
from scorekeeper.games import GAMES

from .helpers import page_of, stored, version

HTMX = {"HX-Request": "true"}


def players_of(key: str) -> list[str]:
    game = GAMES[key]
    return ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"][:max(game.min_players, min(4, game.max_players))]


def two_tables(app, client, key: str, dealer: int) -> tuple[int, int]:
    """The same table twice: first dealer Ann (seat 0), and first dealer ``dealer``."""
    return tuple(stored(app, client, Match(game=key, players=players_of(key), settings={}, first_dealer=first))
                 for first in (0, dealer))  # type: ignore[return-value]


def record_section(html: str) -> str:
    found = re.search(r'<section class="card record" id="record">.*?</section>', html, re.S)
    assert found, html[:2000]
    return found.group()


def form_words(html: str) -> list[str]:
    """What a scorer reads and fills in on the hand form, in order: the heading ("Hand 1 ·
    Bob deals"), each group's legend, each input's label, and the inputs' names."""
    page = page_of(record_section(html))
    return ([e.text for e in page.find_all("h2")] + [e.text for e in page.find_all("legend")]
            + [e.text for e in page.find_all("label")]
            + [e.attrs.get("name", "") for e in page.elements if e.tag in ("input", "select")
               and e.attrs.get("name") not in ("version", "request_key", "csrf_token")])


@pytest.mark.parametrize("key", list(GAMES))
def test_the_form_drawn_for_a_dealer_chosen_is_the_form_of_their_deal(app, client, key):
    dealer = len(players_of(key)) - 1  # the last seat: right of the first dealer, never in turn for hand 1
    out_of_turn, in_turn = two_tables(app, client, key, dealer)
    drawn = client.post(f"/matches/{out_of_turn}/hands/form", headers=HTMX,
                        data={"dealer": str(dealer), "version": version(client, out_of_turn)})
    assert drawn.status_code == 200
    dealt = form_words(drawn.get_data(as_text=True))
    assert f"{players_of(key)[dealer]} deals" in dealt[0]
    assert dealt == form_words(client.get(f"/matches/{in_turn}").get_data(as_text=True))


def seat_picture(html: str) -> str:
    found = re.search(r'<figure class="seat-picture".*?</figure>', html, re.S)
    return found.group() if found else ""


def referee_table(html: str) -> list[str]:
    """The referee link's places round the table (``table=``), from who leads."""
    found = re.search(r'data-referee-url="([^"]*)"', html)
    if found is None:
        return []
    return parse_qs(urlparse(found.group(1).replace("&amp;", "&")).query).get("table", [])


@pytest.mark.parametrize("key", list(GAMES))
def test_the_preview_of_a_hand_dealt_out_of_turn_draws_their_deal(app, client, key):
    dealer = len(players_of(key)) - 1
    out_of_turn, in_turn = two_tables(app, client, key, dealer)
    typed = client.post(f"/matches/{out_of_turn}/hands/preview", headers={**HTMX, "HX-Target": "preview"},
                        data={"dealer": str(dealer), "version": version(client, out_of_turn)}).get_data(as_text=True)
    in_turn_typed = client.post(f"/matches/{in_turn}/hands/preview", headers={**HTMX, "HX-Target": "preview"},
                                data={"version": version(client, in_turn)}).get_data(as_text=True)
    picture = seat_picture(typed)
    assert picture == seat_picture(in_turn_typed)
    # every game draws its table (base.Shown.seating): who deals is drawn where they sit (the
    # picture's words for a screen reader say so)
    assert picture, typed
    assert f"{players_of(key)[dealer]}: deals" in picture, picture
    assert referee_table(typed) == referee_table(in_turn_typed)
    if GAMES[key].referee is not None:
        assert referee_table(typed), typed
