"""rules.md "Every line is true", where the table reads it: a Dummy Hand Spades hand
with nil tricks not counting, played through the real forms in Chromium at phone
size; its "Why?" says every trick the declarer's team took and which of them count."""
from __future__ import annotations

from playwright.sync_api import expect

from .test_table_app import save_hand, type_numbers, wait_htmx


def test_why_says_all_the_tricks_and_which_count(page, live_server, screenshot):
    page.goto(live_server + "/matches/new")
    wait_htmx(page, "fieldset.game-choice")
    page.locator("label.game-card", has=page.locator('input[value="dummy_spades"]')).click()
    expect(page.locator("#game-fields .settings legend")).to_have_text("Dummy Hand Spades settings")
    for i, name in enumerate(["Ann", "Bob", "Cy"]):
        page.fill(f"#player_{i}", name)
    page.select_option("#first_dealer", "0")
    page.locator("#setting_nil_tricks_count").uncheck()  # nil hands' tricks do not count
    page.get_by_role("button", name="Start the match").click()
    expect(page.locator("#record h2")).to_contain_text("Hand 1")
    wait_htmx(page, "#preview")
    # Ann deals: Bob bids 3, Cy 2, Ann 5 and declares, and bids nil on the dummy, which takes 3.
    type_numbers(page, {"bids_1": 3, "bids_2": 2, "bids_0": 5, "tricks_1": 3, "tricks_2": 3, "tricks_0": 4})
    page.locator("#hand-form details:has(input[value='dummy'])").first.evaluate("d => d.open = true")
    page.locator("#hand-form input[name='nils_0'][value='dummy']").check()
    expect(page.locator('#hand-form input[name="dummy_tricks"]')).to_have_value("3")
    save_hand(page, 1, "Ann -150, Bob +33, Cy +24")
    row = page.locator("#hand-1")
    row.locator("summary", has_text="Why?").click()
    why = row.locator("ul.explanation, details.why ul").first
    expect(why).to_contain_text("Ann and the dummy took 7; 4 count toward Ann's bid of 5, the 3 of the dummy's "
                                "nil hand do not, so the contract failed: -50")
    expect(why).to_contain_text("Bob bid 3 and the defenders took 6")
    why.scroll_into_view_if_needed()
    screenshot("why-dummy-nil-tricks-off", full_page=False)
