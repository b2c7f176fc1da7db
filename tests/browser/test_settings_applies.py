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
