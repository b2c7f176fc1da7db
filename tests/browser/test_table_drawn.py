"""Issue 20, "the table, drawn": the seat picture of every game, the big-screen view,
the result shared as text, Undo from the save notice and what a hand did named on its
row, in real Chromium (390 x 844 unless said)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.engine import replay
from scorekeeper.games import GAMES
from scorekeeper.games.base import Table
from scorekeeper.matchfile import dumps
from scorekeeper.samples import random_match

from .conftest import PHONE

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
BIG = {"width": 1280, "height": 720}


def import_match(page, live_server, tmp_path, match) -> int:
    """Import ``match`` through the app's form: this phone then scores it."""
    path = tmp_path / "match.json"
    path.write_text(dumps(match), encoding="utf-8")
    page.goto(f"{live_server}/import")
    page.set_input_files("input[type=file]", str(path))
    page.get_by_role("button", name="Import").click()
    page.wait_for_url(re.compile(r"/matches/\d+$"))
    return int(page.url.rsplit("/", 1)[1])


def sample(game: str, seats: int, hands: int, seed: int = 4, settings: dict | None = None):
    match = random_match(game, hands, seed=seed, players=seats,
                         settings=GAMES[game].endless_settings if settings is None else settings)
    match.players = NAMES[:seats]
    return match


SEATINGS = sorted({(key, n) for key, game in GAMES.items() for n in (game.min_players, game.max_players)})


@pytest.mark.parametrize(("game", "seats"), SEATINGS)
def test_the_seat_picture_shows_each_games_table_to_scorer_and_watcher(page, browser, live_server, tmp_path,
                                                                        screenshot, game, seats):
    match = sample(game, seats, hands=3)
    result = replay(match)
    assert result.next_dealer is not None
    seating = GAMES[game].seating(Table(tuple(match.players), result.settings), result.next_dealer)
    import_match(page, live_server, tmp_path, match)
    picture = page.locator("#table-guide figure.seat-picture svg[role=img]")
    expect(picture).to_be_visible()
    label = picture.get_attribute("aria-label") or ""
    # every player, clockwise in seat order, and what each does this hand, in the game's words
    assert re.search(".*".join(re.escape(n) for n in match.players), label), label
    for place in seating.places:
        if place.roles:
            assert f"{place.name}: {', '.join(place.roles)}" in label
        expect(picture.locator("text.name", has_text=place.name)).to_have_count(1)
    drawn_roles = " ".join(picture.locator("text.role").all_text_contents())
    for place in seating.places:
        for role in place.roles:
            assert role.split()[0] in drawn_roles
    dealer = match.players[result.next_dealer]
    expect(picture.locator("g.dealer text.name")).to_have_text(dealer)
    assert f"{dealer}: deals" in label
    leaders = [p.name for p in seating.places if p.leads]
    expect(picture.locator("g.leads text.name")).to_have_text(leaders)
    expect(picture.locator("rect.lead-card")).to_have_count(len(leaders))
    expect(page.locator("#table-guide figcaption")).to_contain_text("Clockwise from the bottom")
    box = picture.bounding_box()
    assert box and box["width"] <= PHONE["width"] and box["height"] < 0.6 * PHONE["height"]
    picture.scroll_into_view_if_needed()
    screenshot(f"seats-{game}-{seats}", full_page=False)
    watcher_url = page.locator("#watcher-url").input_value()
    watching = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        tab = watching.new_page()
        tab.goto(watcher_url)
        expect(tab.locator(".live-status")).to_be_visible()
        expect(tab.locator("#table-guide figure.seat-picture svg[role=img]")).to_have_attribute("aria-label", label)
    finally:
        watching.close()
