"""Issue 26 item 7, in real Chromium at 390 x 844: a page lands where the table looks
(a new match at its top, a save at its notice) and no save or undo makes the
Content-Security-Policy refuse anything (the autouse no_console_errors fixture fails a
test on any console error)."""
from __future__ import annotations

from playwright.sync_api import expect

from .test_table_app import start_match, type_numbers, wait_htmx


def test_start_the_match_lands_at_the_new_matchs_top(page, live_server, screenshot):
    start_match(page, live_server, "third_wheel", ["Ann", "Bob", "Cy"], {})
    page.wait_for_timeout(300)  # anything that would scroll after the swap has done so
    assert page.evaluate("scrollY") == 0  # the title, the board and the dealer in view
    expect(page.locator(".match-head h1")).to_be_in_viewport()
    screenshot("lands-new-match", full_page=False)


def test_a_save_and_an_undo_land_at_their_notice_with_no_style_refused(page, live_server, screenshot):
    start_match(page, live_server, "third_wheel", ["Ann", "Bob", "Cy"], {})
    # Playwright's screenshot hides the caret by writing to each input's style and leaves
    # style="" behind (so might a browser extension): htmx used to copy that attribute onto
    # the swapped-in inputs, and the CSP refused each copy with a console error
    page.screenshot(caret="hide")
    assert page.locator("#hand-form input[style]").count() > 0
    page.locator('#hand-form label.chip:has(input[name="trump"][value="wyrms"])').click()
    page.locator('#hand-form label.chip:has(input[name="mode"][value="high"])').click()
    type_numbers(page, {"bid": "5", "tricks_0": "5", "tricks_1": "4", "tricks_2": "2"})
    page.get_by_role("button", name="Save hand 1").click()
    notice = page.locator(".notice")
    expect(notice).to_contain_text("Hand 1 saved: ")
    page.wait_for_timeout(300)
    top = notice.evaluate("e => e.getBoundingClientRect().top")
    assert 0 <= top < 120, f"the notice is {top} px down the screen"
    screenshot("lands-saved", full_page=False)
    wait_htmx(page, "#preview")
    page.screenshot(caret="hide")
    page.get_by_role("link", name="Undo").first.click()
    page.get_by_role("button", name="Undo hand 1").click()
    expect(page.locator(".notice")).to_contain_text("undone")
    page.wait_for_timeout(300)
