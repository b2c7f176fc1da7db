"""The score pad named for what the table plays, and "0 for the rest" (issue 26), in
Chromium at 390 x 844: set up as a user would, the name shows on the match page, the big
screen, the history and the chip; one tap gives every player left blank 0, in the boxes
where the scorer sees it, with JavaScript and without."""
from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from .test_layout import axe_check
from .test_table_app import no_horizontal_scroll, wait_htmx


def test_hearts_is_named_everywhere_and_zero_for_the_rest_is_one_tap(page, live_server, screenshot):
    page.goto(live_server + "/")
    page.get_by_role("link", name="Start a match").click()
    page.wait_for_url(re.compile(r"/matches/new$"))
    wait_htmx(page, "fieldset.game-choice")
    page.locator("label.game-card", has=page.locator('input[value="score_pad"]')).click()
    expect(page.locator("#game-fields .settings legend")).to_have_text("Score pad settings")
    page.fill("#setting_name", "  Hearts  ")
    for i, name in enumerate(["Ann", "Bob", "Cy", "Dee"]):
        page.fill(f"#player_{i}", name)
    page.select_option("#first_dealer", "0")
    page.fill("#setting_target", "100")
    page.locator("#setting_low_wins").check()
    screenshot("pad-name-setup")
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/matches/\d+$"))
    match_url = page.url
    expect(page.locator(".match-head h1")).to_have_text("Hearts")
    wait_htmx(page, "#preview")
    page.fill('#hand-form input[name="points_2"]', "26")
    page.get_by_role("button", name="0 for the rest").click()
    # seen typed in, never assumed
    for seat in (0, 1, 3):
        expect(page.locator(f'#hand-form input[name="points_{seat}"]')).to_have_value("0")
    expect(page.locator('#hand-form input[name="points_2"]')).to_have_value("26")
    expect(page.locator("#preview .preview-line")).to_have_text("If saved: Ann 0, Bob 0, Cy +26, Dee 0")
    no_horizontal_scroll(page)
    screenshot("pad-zero-for-the-rest")
    assert not axe_check(page)
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator(".notice")).to_contain_text("Hand 1 saved: ")
    expect(page.locator("#result-text")).to_contain_text("Hearts, ")
    page.goto(match_url + "/screen")
    expect(page.locator("h1.screen-title")).to_contain_text("Hearts")
    page.goto(live_server + "/")
    expect(page.locator(".match-game").first).to_have_text("Hearts (score pad)")
    screenshot("pad-name-history")
    page.goto(live_server + "/matches/new")
    chip = page.locator("a.table-chip").first
    expect(chip).to_contain_text("Hearts (score pad)")
    chip.click()
    page.wait_for_url(re.compile(r"/matches/new\?"))
    # the chip starts the same table: name, target, lowest wins
    expect(page.locator("#setting_name")).to_have_value("Hearts")
    expect(page.locator("#setting_target")).to_have_value("100")
    expect(page.locator("#setting_low_wins")).to_be_checked()


def test_zero_for_the_rest_without_javascript(phones, live_server):
    plain = phones(js=False)
    plain.goto(f"{live_server}/import")
    text = json.dumps({"format": "scorekeeper-match-1", "game": "score_pad", "players": ["Ann", "Bob", "Cy"],
                       "settings": {"name": "Rummy"}, "date": "2026-09-01", "hands": []})
    plain.set_input_files("input[type=file]", files=[{"name": "m.json", "mimeType": "application/json",
                                                       "buffer": text.encode()}])
    plain.get_by_role("button", name="Import").click()
    expect(plain.locator(".match-head h1")).to_have_text("Rummy")
    plain.fill('#hand-form input[name="points_1"]', "7")
    plain.get_by_role("button", name="0 for the rest").click()
    expect(plain.locator('#hand-form input[name="points_0"]')).to_have_value("0")
    expect(plain.locator('#hand-form input[name="points_1"]')).to_have_value("7")
    expect(plain.locator('#hand-form input[name="points_2"]')).to_have_value("0")
    plain.get_by_role("button", name="Save hand 1").click()
    expect(plain.locator(".notice")).to_contain_text("Hand 1 saved: ")
