"""The screens issue 26's friction list changed, as a phone shows them at 390 x 844 and at
200% text: the needs panel of a Hearts pad, the match log with each player's numbers, the
stats with the win-rate chart, an import that brings nothing new. Nothing scrolls sideways
or breaks a word, axe-core finds nothing serious, and a screenshot of each is kept."""
from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from .conftest import import_file
from .layout import layout_problems, text_size
from .test_layout import axe_check

HEARTS = json.dumps({"format": "scorekeeper-match-1", "game": "score_pad", "players": ["Ann", "Bob", "Cy", "Dee"],
                     "settings": {"name": "Hearts", "target": 100, "low_wins": True}, "date": "2026-11-20",
                     "hands": [{"points": [10, 13, 50, 13]}, {"points": [50, 30, 50, 30]}]})
SPADES = json.dumps({"format": "scorekeeper-match-1", "game": "dummy_spades", "players": ["Ann", "Bob", "Cy"],
                     "date": "2026-11-21", "hands": [{"bids": [7, 5, 6], "tricks": [4, 3, 2], "dummy_tricks": 4}]})


@pytest.mark.parametrize("percent", [100, 200])
def test_the_changed_screens_read_well_on_a_phone(page, live_server, screenshot, percent):
    hearts = import_file(page, live_server, HEARTS)
    spades = import_file(page, live_server, SPADES)
    if percent != 100:
        text_size(page, percent)
    found = {}

    def look(name: str) -> None:
        problems = layout_problems(page) + axe_check(page)
        if problems:
            found[name] = problems[:5]
        screenshot(f"friction-{name}-{percent}")

    page.goto(f"{live_server}/matches/{hearts}")
    page.locator("details.needs summary").click()
    expect(page.locator("details.needs")).to_contain_text("Cy is on 100; is 57 above Bob and Dee.")
    look("needs")
    for match_id in (hearts, spades):
        page.goto(f"{live_server}/matches/{match_id}/undo")
        page.locator("form button[type=submit]", has_text="Undo").first.click()
        expect(page.locator(".notice").first).to_contain_text("undone")
        page.goto(f"{live_server}/matches/{match_id}/log")
        expect(page.locator(".log-numbers").first).to_contain_text("Ann")
        look(f"log-{match_id}")
    page.goto(f"{live_server}/stats?player=Ann")
    expect(page.locator("svg.win-rate")).to_contain_text("Dummy Hand Spades")
    look("stats")
    import_file(page, live_server, SPADES)  # the hand undone above made that match another: new again
    page.goto(f"{live_server}/import")
    page.set_input_files("input[type=file]", files=[{"name": "m.json", "mimeType": "application/json",
                                                      "buffer": SPADES.encode()}])
    page.get_by_role("button", name="Import").click()
    expect(page.locator("h1")).to_have_text("Nothing new to import")
    look("import")
    assert not found, found


def test_at_200_percent_text_the_hand_form_is_one_tap_from_the_top(page, live_server, screenshot):
    match_id = import_file(page, live_server, HEARTS)
    text_size(page, 200)
    page.goto(f"{live_server}/matches/{match_id}")
    record = page.locator("#record")
    assert record.bounding_box()["y"] > 844  # screens down at this size, as the evening found
    jump = page.get_by_role("link", name="Record hand 3")
    box = jump.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844  # on the first screen
    jump.tap()
    expect(page.locator("#record h2")).to_be_in_viewport()
    assert -1 <= record.bounding_box()["y"] < 844 / 2
    screenshot("friction-jump-to-form-200", full_page=False)
    assert not axe_check(page)
