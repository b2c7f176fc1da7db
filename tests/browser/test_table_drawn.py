"""Issue 20, "the table, drawn": the seat picture of every game, the big-screen view,
the result shared as text, Undo from the save notice and what a hand did named on its
row, in real Chromium (390 x 844 unless said)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.engine import Match, replay
from scorekeeper.games import GAMES
from scorekeeper.matchfile import dumps
from scorekeeper.samples import lasting_settings, random_match

from .conftest import PHONE, SCREENSHOTS, import_file
from .layout import layout_problems
from .test_table_app import choose, save_hand, start_match, type_numbers

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]  # a game may seat 8
BIG = {"width": 1280, "height": 720}


def import_match(page, live_server, match) -> int:
    """Import ``match`` through the app's form: this phone then scores it."""
    return import_file(page, live_server, dumps(match))


def sample(game: str, seats: int, hands: int, seed: int = 4, settings: dict | None = None):
    match = random_match(game, hands, seed=seed, players=seats,
                         settings=lasting_settings(game, hands + 10, seats) if settings is None else settings)
    match.players = NAMES[:seats]
    return match


SEATINGS = sorted({(key, n) for key, game in GAMES.items() for n in (game.min_players, game.max_players)})


@pytest.mark.parametrize(("game", "seats"), SEATINGS)
def test_the_seat_picture_shows_each_games_table_to_scorer_and_watcher(page, browser, live_server,
                                                                        screenshot, game, seats):
    match = sample(game, seats, hands=3)
    result = replay(match)
    assert result.next_dealer is not None
    seating = GAMES[game].shown.seating(result.next_place())
    import_match(page, live_server, match)
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


# --- the big screen ---------------------------------------------------------------

FONT_PX = "(s) => Math.min(...[...document.querySelectorAll(s)].map(e => parseFloat(getComputedStyle(e).fontSize)))"


@pytest.mark.parametrize("size", [BIG, {"width": 1024, "height": 768}])
def test_the_big_screen_is_read_across_a_table_and_follows_the_scorer(page, browser, live_server,
                                                                      screenshot, size):
    match = sample("third_rail", 6, hands=5)
    result = replay(match)
    match_id = import_match(page, live_server, match)
    watcher_url = page.locator("#watcher-url").input_value()
    tv = browser.new_context(viewport=size)
    try:
        screen = tv.new_page()
        errors: list[str] = []
        screen.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        screen.goto(watcher_url)  # the watcher link, then its Big screen link: a watcher's access is enough
        screen.get_by_role("link", name="Big screen for the middle of the table").click()
        screen.wait_for_url(re.compile(rf"/matches/{match_id}/screen$"))
        standings = screen.locator(".screen-standings li")
        expect(standings).to_have_count(6)
        best = max(range(6), key=lambda s: (result.totals[s], -s))
        expect(standings.first.locator(".name")).to_have_text(match.players[best])
        expect(standings.first.locator(".total")).to_have_text(str(result.totals[best]))
        expect(standings.first.locator(".place")).to_have_text("1st")
        last = result.hands[-1].scores[best]
        expect(standings.first.locator(".last")).to_contain_text(f"{last:+d}" if last else "0")
        expect(screen.locator(".screen-next")).to_have_text(f"Hand 6: {match.players[result.next_dealer]} deals")
        expect(screen.locator(".screen-table svg.seats[role=img]")).to_be_visible()
        SCREENSHOTS.mkdir(exist_ok=True)
        screen.screenshot(path=str(SCREENSHOTS / f"big-screen-{size['width']}.png"))
        # readable across a table: names at least 32 px, totals at least 60 px, all on one screen
        assert screen.evaluate(FONT_PX, ".screen-standings .name") >= 32
        assert screen.evaluate(FONT_PX, ".screen-standings .total") >= 60
        assert screen.evaluate(FONT_PX, ".screen-next") >= 32
        assert screen.evaluate("document.documentElement.scrollHeight") <= size["height"] + 1
        for selector in (".screen-standings", ".screen-table svg"):
            box = screen.locator(selector).bounding_box()
            assert box and box["y"] + box["height"] <= size["height"], selector
        # the scorer undoes the last hand on the phone: the screen follows by itself
        page.goto(f"{live_server}/matches/{match_id}/undo")
        page.get_by_role("button", name="Undo hand 5").click()
        expect(page.locator("#match-notice")).to_contain_text("Hand 5 undone")
        before = replay(type(match)(game=match.game, players=match.players, settings=match.settings,
                                    first_dealer=match.first_dealer, hands=match.hands[:4]))
        expect(screen.locator(".screen-next")).to_have_text(f"Hand 5: {match.players[before.next_dealer]} deals",
                                                            timeout=10000)
        expect(screen.locator(".screen-title small")).to_have_text("after hand 4")
        assert screen.url.endswith("/screen") and not errors, errors
    finally:
        tv.close()


# --- share the result -------------------------------------------------------------

# rules.md's Third Wheel examples, then Cy's made 0 bid: Cy 20, Ann 19, Bob 0 after every player dealt once
SHARED = Match("third_wheel", ["Ann", "Bob", "Cy"], {"deals_each": 1, "target": 0}, 0, [
    {"trump": "wyrms", "mode": "high", "wheel": False, "bid": 5, "tricks": [5, 4, 2]},
    {"trump": "knots", "mode": "low", "wheel": False, "bid": 5, "tricks": [6, 3, 2]},
    {"trump": "moons", "mode": "high", "wheel": False, "bid": 0, "tricks": [5, 6, 0]}], date="2025-11-23")
SHARED_TEXT = "Third Wheel, 23 Nov: Cy 20 (won), Ann 19, Bob 0, 3 hands"


def test_the_result_goes_to_the_share_sheet_or_is_copied(page, phones, live_server, screenshot):
    # a phone with a share sheet (navigator.share, recorded here instead of opening one)
    page.add_init_script("window.shared = []; navigator.share = (data) => { window.shared.push(data); "
                         "return Promise.resolve(); };")
    match_id = import_match(page, live_server, SHARED)
    expect(page.locator("#game-over")).to_be_visible()
    text = page.locator("#result-text")
    expect(text).to_be_visible()  # open at game over, there to select without any button
    expect(text).to_have_text(SHARED_TEXT)
    share = page.locator("#totals").get_by_role("button", name="Share…")
    share.click()
    assert page.evaluate("window.shared") == [{"text": SHARED_TEXT}]
    text.scroll_into_view_if_needed()
    screenshot("share-result", full_page=False)
    # a browser without one: Copy puts the same words on the clipboard
    tab = phones()
    tab.add_init_script("delete Navigator.prototype.share;")
    tab.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    tab.goto(page.locator("#watcher-url").input_value())  # a watcher may share it too
    tab.goto(f"{live_server}/matches/{match_id}")
    copy = tab.locator("#totals button[data-share-text]")
    expect(copy).to_have_text("Copy")
    copy.click()
    expect(copy).to_have_text("Copied")
    assert tab.evaluate("navigator.clipboard.readText()") == SHARED_TEXT


# --- undo from the notice; what a hand did, named ------------------------------------

def test_undo_from_the_save_notice(page, live_server):
    start_match(page, live_server, "third_wheel", ["Ann", "Bob", "Cy"], {})
    for number, (trump, mode, values, points) in enumerate((
            ("wyrms", "high", {"bid": 5, "tricks_0": 5, "tricks_1": 4, "tricks_2": 2}, "Ann +9, Bob 0, Cy +2"),
            ("knots", "low", {"bid": 5, "tricks_0": 6, "tricks_1": 3, "tricks_2": 2}, "Ann +5, Bob 0, Cy +7")),
            start=1):
        choose(page, "trump", trump)
        choose(page, "mode", mode)
        type_numbers(page, values)
        save_hand(page, number, points)
        expect(page.locator("#match-notice").get_by_role("button", name=f"Undo hand {number}")).to_be_visible()
    # hand 2 failed its bid: the notice and the row say so, not only Why?
    expect(page.locator("#match-notice")).to_contain_text("Bob's bid of 5 failed (took 3).")
    expect(page.locator("#hand-2 .hand-events")).to_have_text("Bob's bid of 5 failed (took 3)")
    page.locator("#match-notice").get_by_role("button", name="Undo hand 2").click()
    expect(page.locator("#match-notice")).to_contain_text("Hand 2 undone")
    expect(page.locator("#hand-2")).to_have_count(0)
    expect(page.locator("#totals .total")).to_have_text(["9", "2", "0"])
    expect(page.locator("#record h2")).to_contain_text("Hand 2")
    # an undo's own notice offers no second undo
    expect(page.locator("#match-notice").get_by_role("button")).to_have_count(0)


def test_a_nil_and_bag_penalties_are_named_on_the_row_the_notice_and_the_sheet(page, live_server, screenshot):
    start_match(page, live_server, "dummy_spades", ["Ann", "Bob", "Cy"], {"bag_limit": "2"})
    type_numbers(page, {"bids_1": 4, "bids_2": 2, "bids_0": 3})
    page.locator("#hand-form summary", has_text="Nil bids").click()
    page.locator('#hand-form input[name="nils_0"][value="0"]').check()  # Ann bids nil on her own hand
    type_numbers(page, {"tricks_1": 6, "tricks_2": 4, "tricks_0": 0})
    expect(page.locator('#hand-form input[name="dummy_tricks"]')).to_have_value("3")
    save_hand(page, 1, "Ann +131, Bob -155, Cy -78")
    said = ["Ann's nil (own hand) made +100", "Bob's bags reached 5: bag penalty -200",
            "Cy's bags reached 2: bag penalty -100"]
    notice = page.locator("#match-notice .notice")
    for line in said:
        expect(notice).to_contain_text(line)
    expect(page.locator("#hand-1 .hand-events li")).to_have_text(said)
    expect(page.locator("#totals .counter")).to_have_text(["1 bag", "0 bags", "1 bag"])  # Ann 131, Cy -78, Bob -155
    page.locator("#hand-1").scroll_into_view_if_needed()
    screenshot("hand-events-row", full_page=False)
    page.goto(page.url.split("#")[0] + "/print")
    expect(page.locator("ul.events li")).to_have_text("Hand 1: " + "; ".join(said) + ".")


def test_the_seat_picture_follows_the_bidding_as_it_is_typed(page, live_server, screenshot):
    picture = page.locator("#table-guide svg.seats")
    start_match(page, live_server, "third_hand", ["Ann", "Bob"], {})  # Ann deals: Bob bids first
    expect(picture).to_have_attribute("aria-label", re.compile("Bob: bids first, leads if nobody bids"))
    choose(page, "bids_1", "Q")
    choose(page, "bids_0", "pass")
    expect(picture).to_have_attribute("aria-label", re.compile("Ann: deals, passed; Bob: holds the Q contract, leads"))
    expect(picture.locator("g.leads text.name")).to_have_text("Bob")
    expect(page.locator("#table-guide figcaption")).to_contain_text("Bob holds the contract and leads.")

    start_match(page, live_server, "dummy_spades", ["Ann", "Bob", "Cy"], {})
    expect(picture).to_have_attribute("aria-label", re.compile(r"clockwise from the bottom: Ann, Bob, Cy, Dummy\."))
    names = picture.locator("text.name")
    expect(names).to_have_text(["Ann", "Bob", "Cy", "Dummy"])
    page.locator("#table-guide").scroll_into_view_if_needed()
    screenshot("seats-spades-before-bids", full_page=False)
    type_numbers(page, {"bids_1": 4, "bids_2": 6, "bids_0": 5})
    page.locator('#hand-form input[name="tricks_1"]').focus()  # the last bid's change sends the preview
    # Cy bid highest: nobody moves (issue 26); the dummy is laid opposite Cy, between the defenders
    expect(picture).to_have_attribute("aria-label", re.compile(
        r"clockwise from the bottom: Ann, Bob, Cy, Dummy\. .*Cy: bid 6, declarer; "
        r"Dummy: face up, played by Cy, laid between Ann and Bob\."))
    expect(names).to_have_text(["Ann", "Bob", "Cy", "Dummy"])
    assert layout_problems(page) == []  # the dummy's longer words fit, nothing overlaps
    # while the referee's play order, from Bob who leads, goes round the laid dummy: Bob, Cy, Ann, dummy
    expect(page.locator("a[href*='/referee/dummy_spades']").first).to_have_attribute(
        "href", re.compile(r"table=1(%2C|,)2(%2C|,)0(%2C|,)d"))
    page.locator("#table-guide").scroll_into_view_if_needed()  # the picture itself is redrawn by each preview
    screenshot("seats-spades-declarer", full_page=False)
