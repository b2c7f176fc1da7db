"""The hand form follows the dealer (issue 26): choosing who dealt comes before anything it
changes, and once someone is picked as having dealt out of turn, every label, order and role
on the form, the seat picture and the referee link are those of a hand that dealer dealt in
turn, with JavaScript (htmx draws the form again) and without it ("Use this dealer").

For every game of the registry at 390 x 844. The oracle is the app itself, never a list per
game: the same table in a match whose first dealer is that player shows the form for a hand
dealt by them in turn."""
from __future__ import annotations

import datetime
import itertools
import json
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from scorekeeper.games import GAMES

from .conftest import import_file
from .test_layout import axe_check
from .test_table_app import wait_htmx

KEYS = list(GAMES)


def players_of(key: str) -> list[str]:
    game = GAMES[key]
    return ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"][:max(game.min_players, min(4, game.max_players))]


DAYS = itertools.count(1)


def match_file(key: str, first_dealer: int) -> str:
    # a day of its own: the same table imported again would be the same match
    day = datetime.date(2026, 1, 1) + datetime.timedelta(days=next(DAYS))
    return json.dumps({"format": "scorekeeper-match-1", "game": key, "players": players_of(key),
                       "first_dealer": first_dealer, "date": day.isoformat(), "hands": []})


def form_words(page) -> list[str]:
    """Every label, legend and heading of the hand's form as shown, in order (and who deals it)."""
    return page.eval_on_selector_all(
        "#record h2, #hand-form legend, #hand-form label, #hand-form summary, #hand-form .hint",
        "els => els.filter(e => e.offsetParent !== null || e.tagName === 'SUMMARY')"
        ".map(e => e.innerText.replace(/\\s+/g, ' ').trim())")


def seat_words(page) -> str:
    seats = page.locator("#table-guide svg")
    return " ".join((seats.first.text_content() or "").split()) if seats.count() else ""


def table_of(page) -> list[str]:
    """The places the referee link gives, in order (none for a game without a referee)."""
    link = page.locator("#referee-link")
    if not link.count():
        return []
    return parse_qs(urlparse(link.get_attribute("href")).query).get("table", [])


def choose_dealer(page, seat: int) -> None:
    details = page.locator("#hand-form details.dealer-choice")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    wait_htmx(page, "#group-dealer")
    name = page.locator(f'#hand-form select[name=dealer] option[value="{seat}"]').inner_text()
    page.evaluate("() => document.getElementById('hand-form').setAttribute('data-old', '')")
    with page.expect_response(lambda r: r.url.endswith("/hands/form")):
        page.select_option("#hand-form select[name=dealer]", str(seat))
    # the form drawn again by the server for that dealer
    expect(page.locator("#hand-form[data-old]")).to_have_count(0)
    expect(page.locator("#record h2")).to_contain_text(f"{name} deals")
    wait_htmx(page, "#preview")
    expect(page.locator("#hand-form select[name=dealer]")).to_have_value(str(seat))


def shown_after_choosing(page, live_server: str, key: str, first_dealer: int, dealer: int) -> dict:
    import_file(page, live_server, match_file(key, first_dealer))
    wait_htmx(page, "#preview")
    before = form_words(page)
    choose_dealer(page, dealer)
    if page.locator("#referee-link").count():  # set from the preview, which follows the choice
        page.wait_for_function("() => (document.getElementById('referee-link').href || '').includes('table=')")
    guide = " ".join((page.locator("#table-guide details").text_content() or "").split())
    return {"before": before, "form": form_words(page), "seats": seat_words(page), "table": table_of(page),
            "guide": guide}


@pytest.mark.parametrize("key", KEYS)
def test_an_out_of_turn_dealer_relabels_the_whole_form(page, live_server, screenshot, key):
    players = players_of(key)
    # Ann deals hand 1 in turn; the table says Bob dealt it
    picked = shown_after_choosing(page, live_server, key, first_dealer=0, dealer=1)
    screenshot(f"dealer-out-of-turn-{key}")
    # the choice comes before every field it changes
    order = page.eval_on_selector_all("#hand-form fieldset, #hand-form details",
                                      "els => els.map(e => e.id || e.className)")
    assert order[0] == "more dealer-choice", order
    # the oracle: Bob dealing hand 1 in turn (picked as the dealer too, so the preview runs)
    oracle = shown_after_choosing(page, live_server, key, first_dealer=1, dealer=1)
    assert picked["form"] == oracle["form"]
    assert picked["seats"] == oracle["seats"]
    assert picked["table"] == oracle["table"]
    assert picked["guide"] == oracle["guide"] and f"{players[1]} deals" in picked["guide"]  # the table guide too
    assert f"Hand 1 · {players[1]} deals" in picked["form"][0]
    if GAMES[key].referee is not None:  # a game whose form names the players by role changed its words
        assert picked["form"] != picked["before"]


def test_third_wheel_example_of_the_issue(page, live_server):
    """Ann first dealer, hand 4 (Ann deals again), Bob picked: Bob took the Wheel, Bob's bid,
    trump called by Cy, high or low by Ann."""
    hand = {"trump": "suns", "mode": "high", "wheel": False, "bid": 5, "tricks": [5, 3, 3]}
    text = json.dumps({"format": "scorekeeper-match-1", "game": "third_wheel", "players": ["Ann", "Bob", "Cy"],
                       "first_dealer": 0, "hands": [hand, hand, hand]})
    import_file(page, live_server, text)
    wait_htmx(page, "#preview")
    expect(page.locator("#hand-form")).to_contain_text("Ann took the Wheel")
    page.fill('#hand-form input[name="tricks_2"]', "4")  # typed before the dealer was picked
    choose_dealer(page, 1)
    # what was typed stays, under the same player (app.js puts the draft back)
    expect(page.locator('#hand-form input[name="tricks_2"]')).to_have_value("4")
    expect(page.locator("#hand-form .draft-note")).to_contain_text("Draft kept on this phone")
    legends = " | ".join(form_words(page))
    for words in ("Bob took the Wheel", "Bob's bid", "Trump (called by Cy)", "High or low (called by Ann)"):
        assert words in legends, legends
    assert "Ann took the Wheel" not in legends
    assert not axe_check(page)


def plain_words(plain, live_server: str, key: str, first_dealer: int, dealer: int) -> list[str]:
    """The form's words on a phone without JavaScript, after importing a match and picking
    ``dealer`` with "Use this dealer"."""
    plain.goto(f"{live_server}/import")
    plain.set_input_files("input[type=file]", files=[{"name": "m.json", "mimeType": "application/json",
                                                       "buffer": match_file(key, first_dealer).encode()}])
    plain.get_by_role("button", name="Import").click()
    plain.locator("#hand-form details.dealer-choice summary").click()
    plain.select_option("#hand-form select[name=dealer]", str(dealer))
    plain.get_by_role("button", name="Use this dealer").click()
    expect(plain.locator("#hand-form select[name=dealer]")).to_have_value(str(dealer))
    return [w for w in form_words(plain) if w]


@pytest.mark.parametrize("key", KEYS)
def test_without_javascript_use_this_dealer_draws_the_form_for_that_dealer(phones, live_server, key):
    scripted = phones()
    oracle = shown_after_choosing(scripted, live_server, key, first_dealer=1, dealer=1)
    plain = phones(js=False)
    words = plain_words(plain, live_server, key, first_dealer=0, dealer=1)
    # the table guide above the form follows the dealer picked too (the page model's, drawn for them)
    expect(plain.locator("#table-guide summary")).to_contain_text(f"hand 1, {players_of(key)[1]} deals")
    # every label as on a phone without JavaScript where Bob deals this hand in turn
    assert words == plain_words(plain, live_server, key, first_dealer=1, dealer=1)
    # the same words as with JavaScript, less what only JavaScript adds
    assert words == [w for w in oracle["form"] if w in words and w]
    assert words[0].endswith(f"{players_of(key)[1]} deals")
