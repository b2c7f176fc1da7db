"""What a first-time group met playing each game at a real table on a 390 x 844 phone
(the table walk), each checked in real Chromium: every tap target on the match page is
a thumb's size, the "Record hand N" jump at its top names the hand to record, the save that
ends a match leaves one Play again, the running-totals chart keeps its room while it loads
(nothing under it jumps), the printed sheet passes axe-core's table rules, and keeping the app
says to keep the page open while it loads, and a save refused for a blank marks the box to fill."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from .test_layout import axe_check
from .test_score_pad import start_pad, type_points
from .test_table_app import save_hand, start_match, type_numbers

# Every link, button, disclosure and field a thumb taps in the page's main part, with its
# size, where it is under 44 px high or wide (empty: every one is a thumb's size).
SMALL_TARGETS = """() => [...document.querySelectorAll(
    'main a[href], main button, main summary, main label.chip, main select,'
    + ' main input:not([type=hidden]):not([type=radio]):not([type=checkbox])')]
  .filter(e => e.offsetParent !== null && !e.closest('details:not([open]) > :not(summary), .visually-hidden'))
  .map(e => { const r = e.getBoundingClientRect();
              return [(e.textContent.trim() || e.name || '').slice(0, 40), Math.round(r.width), Math.round(r.height)]; })
  .filter(([, w, h]) => w < 44 || h < 44)"""


def third_rail_hand(page) -> None:
    """Hand 1 of a Third Rail match for three: 17 tricks, five of them scoring."""
    type_numbers(page, {"scoring_tricks_0": 2, "scoring_tricks_1": 2, "scoring_tricks_2": 1})
    save_hand(page, 1, "Ann +2, Bob +2, Cy +1")


def test_every_tap_target_on_the_match_page_is_a_thumbs_size(page, live_server, screenshot):
    start_match(page, live_server, "third_rail", ["Ann", "Bob", "Cy"], {"target": "9"})
    third_rail_hand(page)
    link = page.get_by_role("link", name="Big screen for the middle of the table")
    expect(link).to_be_visible()
    assert page.evaluate(SMALL_TARGETS) == []
    link.scroll_into_view_if_needed()
    screenshot("walk-big-screen-link", full_page=False)
    # the watcher's page shows the same link
    page.locator("summary", has_text="Share this match").click()
    watcher = page.locator("#watcher-url").input_value()
    page.goto(re.sub(r"^https?://[^/]+", live_server, watcher))
    expect(page.get_by_role("link", name="Big screen for the middle of the table")).to_be_visible()
    assert page.evaluate(SMALL_TARGETS) == []


def test_the_record_jump_at_the_top_follows_the_first_save_and_an_undo(page, live_server, screenshot):
    start_match(page, live_server, "third_rail", ["Ann", "Bob", "Cy"], {"target": "9"})
    jump = page.locator("#to-record")
    expect(jump).to_have_text("Record hand 1 ↓")
    third_rail_hand(page)  # the first save is answered with the whole live part
    expect(jump).to_have_text("Record hand 2 ↓")
    page.evaluate("window.scrollTo(0, 0)")
    screenshot("walk-record-jump-after-first-save", full_page=False)
    type_numbers(page, {"scoring_tricks_0": 1, "scoring_tricks_1": 1, "scoring_tricks_2": 3})
    save_hand(page, 2, "Ann +1, Bob +1, Cy +3")
    expect(jump).to_have_text("Record hand 3 ↓")
    page.locator("#match-notice").get_by_role("button", name="Undo hand 2").click()
    expect(page.locator("#match-notice")).to_contain_text("Hand 2 undone")
    expect(jump).to_have_text("Record hand 2 ↓")
    jump.get_by_role("link").click()  # one tap to the form of the hand it names
    expect(page.locator("#record h2")).to_contain_text("Hand 2")


def test_the_save_that_ends_the_match_leaves_one_play_again(page, live_server, screenshot):
    start_match(page, live_server, "third_rail", ["Ann", "Bob", "Cy"], {"target": "3"})
    third_rail_hand(page)
    expect(page.get_by_role("button", name="Play again")).to_have_count(1)  # under the board, mid-match
    # hand 2 (answered with only what changed) ends it: Ann 2 + 2 = 4
    type_numbers(page, {"scoring_tricks_0": 2, "scoring_tricks_1": 1, "scoring_tricks_2": 2})
    save_hand(page, 2, "Ann +2, Bob +1, Cy +2", ends=True)
    expect(page.locator("#game-over")).to_contain_text("Ann wins")
    # the big one under the banner; the one under the board with its own first dealer is gone
    expect(page.get_by_role("button", name="Play again")).to_have_count(1)
    expect(page.locator("#again-slot").get_by_role("button", name="Play again")).to_be_visible()
    page.locator("#chart").scroll_into_view_if_needed()
    screenshot("walk-one-play-again", full_page=False)


def test_the_chart_keeps_its_place_while_it_loads_after_a_save(page, live_server, screenshot):
    """A save's answer leaves the chart to load when it is scrolled into view: until then
    its card holds the chart's room, so Print and Play again under it do not jump away
    from a thumb on its way to them."""
    start_match(page, live_server, "third_rail", ["Ann", "Bob", "Cy"], {"target": "20"})
    third_rail_hand(page)
    type_numbers(page, {"scoring_tricks_0": 1, "scoring_tricks_1": 1, "scoring_tricks_2": 3})
    save_hand(page, 2, "Ann +1, Bob +1, Cy +3")  # answered with only what changed
    chart = page.locator("#chart")
    expect(chart.locator("svg")).to_have_count(0)  # not loaded yet: it is screens below
    waiting = chart.bounding_box()["height"]
    chart.scroll_into_view_if_needed()
    expect(chart.locator("svg")).to_be_visible()
    page.wait_for_timeout(300)  # the swap settles
    loaded = chart.bounding_box()["height"]
    screenshot("walk-chart-loaded", full_page=False)
    assert abs(loaded - waiting) <= 24, f"the chart's card was {waiting:.0f} px high while loading, {loaded:.0f} px loaded"


def test_the_printed_sheet_passes_axe_cores_table_rules(page, live_server, screenshot):
    """The sheet's running title (repeated at the top of every printed page) is a row of
    the grid's head: it must not read as a faked caption nor leave a cell without a header
    (axe-core's experimental table rules, which the match pages are held to)."""
    start_match(page, live_server, "third_rail", ["Ann", "Bob", "Cy"], {"target": "20"})
    third_rail_hand(page)
    match = page.url.split("#")[0]
    for address in (f"{match}/print", f"{match}/print/blank"):
        for media in ("screen", "print"):
            page.emulate_media(media=media)
            page.goto(address)
            expect(page.locator("table.grid")).to_be_visible()
            assert axe_check(page) == [], (address, media)
    page.emulate_media(media="print")
    page.goto(f"{match}/print")
    expect(page.locator("table.grid .running-title")).to_contain_text("Third Rail")
    screenshot("walk-print-running-title", full_page=False)


def test_keeping_the_app_says_to_keep_the_page_open_while_it_loads(page, live_server, screenshot):
    """Keeping the app took 50 s on a busy machine behind one bare line: the page says the
    first time takes a while and to keep it open (its script held back, so the words stay)."""
    page.route("**/_phone/boot.js", lambda route: None)  # never answered: the page as it first shows
    page.goto(f"{live_server}/")
    page.get_by_role("link", name="Keep on this phone").click()
    status = page.locator("#status")
    expect(status).to_contain_text("Keeping the app on this phone")
    expect(status).to_contain_text("The first time takes a while on a slow phone: keep this page open.")
    screenshot("walk-keeping-the-app", full_page=False)


def test_every_number_on_a_players_stats_is_a_thumbs_target(page, live_server, screenshot):
    """A stats page's numbers open the matches and hands they count: a one-digit number was
    a link 12 px wide; head-to-head's names open each player's stats."""
    start_match(page, live_server, "third_rail", ["Ann", "Bob", "Cy"], {"target": "3"})
    third_rail_hand(page)
    type_numbers(page, {"scoring_tricks_0": 2, "scoring_tricks_1": 1, "scoring_tricks_2": 2})
    save_hand(page, 2, "Ann +2, Bob +1, Cy +2", ends=True)
    page.locator("#totals").get_by_role("link", name="Ann").click()
    expect(page.locator("h1")).to_have_text("Ann")
    numbers = page.locator(".stats-table td a")
    expect(numbers.first).to_be_visible()
    assert numbers.count() >= 3
    assert page.evaluate(SMALL_TARGETS) == []
    screenshot("walk-stats-numbers", full_page=False)
    # head-to-head: each player's name in the records opens their stats (was 37 x 20 px)
    page.get_by_role("button", name="Compare").click()
    expect(page.locator("h1")).to_have_text("Ann v Bob")
    expect(page.locator(".stats-table.records th a")).to_have_count(2)
    assert page.evaluate(SMALL_TARGETS) == []
    screenshot("walk-versus-names", full_page=False)


def test_a_save_refused_for_a_blank_marks_the_box_to_fill_in(page, live_server, screenshot):
    """Dee's points left blank: the save says "Still to fill in: points (Dee)" and Dee's box
    is the one drawn in the error colour (aria-invalid), so the scorer need not hunt for it;
    typed in, the mark goes. A blank choice (Third Hand's bids, trump) is marked the same way,
    and axe-core finds nothing serious in either."""
    start_pad(page, live_server, ["Ann", "Bob", "Cy", "Dee"])
    type_points(page, [13, 5, 8])
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#hand-form .alert.error")).to_contain_text("Still to fill in: points (Dee).")
    dee = page.locator('#hand-form input[name="points_3"]')
    expect(dee).to_have_attribute("aria-invalid", "true")
    for seat in range(3):
        expect(page.locator(f'#hand-form input[name="points_{seat}"]')).not_to_have_attribute("aria-invalid", "true")
    bad = page.evaluate("getComputedStyle(document.body).getPropertyValue('--bad').trim()")
    border = dee.evaluate("e => getComputedStyle(e).borderTopColor")
    ann = page.locator('#hand-form input[name="points_0"]').evaluate("e => getComputedStyle(e).borderTopColor")
    assert border != ann, (border, ann, bad)
    assert axe_check(page) == []
    dee.scroll_into_view_if_needed()
    screenshot("walk-blank-marked", full_page=False)
    dee.fill("0")
    expect(dee).not_to_have_attribute("aria-invalid", "true")
    # a blank choice: every option of the field carries the mark
    start_match(page, live_server, "third_hand", ["Ann", "Bob"], {})
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#hand-form .alert.error")).to_contain_text("Still to fill in:")
    expect(page.locator('#hand-form input[name="trump"][aria-invalid="true"]').first).to_be_attached()
    assert axe_check(page) == []
