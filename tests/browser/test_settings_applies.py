"""A setting that applies only while another has a value (``Setting.applies_when``) shows
on the start form only then, in a real browser: the flip count once the dummy is flipped,
the bonus tie rule once the bonus is on."""
from __future__ import annotations

from playwright.sync_api import expect


def test_the_flip_count_shows_only_while_the_dummy_is_flipped(page, live_server):
    page.goto(f"{live_server}/matches/new?game=dummy_spades")
    count = page.locator("[name=setting_flip_count]")
    expect(count).to_be_hidden()
    page.select_option("[name=setting_peek]", "flip")
    expect(count).to_be_visible()
    page.select_option("[name=setting_peek]", "three")
    expect(count).to_be_hidden()


def test_the_bonus_tie_rule_shows_only_with_the_bonus(page, live_server):
    page.goto(f"{live_server}/matches/new?game=third_rail")
    tie = page.locator("[name=setting_bonus_tie]")
    expect(tie).to_be_hidden()
    page.get_by_label("Bonus for most other tricks").check()
    expect(tie).to_be_visible()
    page.get_by_label("Bonus for most other tricks").uncheck()
    expect(tie).to_be_hidden()


def test_a_refused_setting_that_does_not_apply_stays_shown_with_its_message(page, live_server):
    # the server checks every setting sent, one that does not apply too (match-format.md):
    # a value refused there must be in sight, not under a hidden setting
    page.goto(f"{live_server}/matches/new?game=third_rail")
    for seat, name in enumerate(["Ann", "Bob", "Cy"]):
        page.fill(f"#player_{seat}", name)
    tie = page.locator("[name=setting_bonus_tie]")
    expect(tie).to_be_hidden()  # the bonus is off
    tie.evaluate("s => { s.add(new Option('x', 'x')); s.value = 'x'; }")  # a page made before the rule
    page.get_by_role("button", name="Start the match").click()
    beside = page.locator("div.setting", has=page.locator("[name=setting_bonus_tie]"))
    expect(beside.get_by_text("Not a valid choice")).to_be_visible()
    expect(tie).to_be_visible()
