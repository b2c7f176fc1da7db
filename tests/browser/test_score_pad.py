"""The score pad played end to end in Chromium, as a table would: from the start page to
the end of the game, at 390 px (4 players, Hearts style: lowest wins at a target) and at
320 px (8 players with long names, a fixed number of hands). Along the way: the live
preview, Why?, a correction, undo, the needs panel's numbers, the print view and the
export. Expected numbers are worked from rules.md section 5, never read from the app.
Screenshots go to screenshots/ (git-ignored) for a person to look at."""
from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from .layout import NARROW, layout_problems, text_size
from .test_table_app import expect_totals, no_horizontal_scroll, save_hand, tap_targets_ok, wait_htmx

# Long names, none of whose words is too long to fit unbroken at 200% text on a 320 px phone.
LONG = ["Alexandra Whitfield", "Bartholomew Jones", "Christopher", "Dee", "Evangeline Marsh", "Fay", "Gwendolyn",
        "Henrietta Woolf"]


def start_pad(page, live_server: str, players: list[str], target: str = "0", hand_count: str = "0",
              low_wins: bool = False) -> None:
    """From the start page, as a user: Start a match, tap Score pad, type the names and settings."""
    page.goto(live_server + "/")
    page.get_by_role("link", name="Start a match").click()
    page.wait_for_url(re.compile(r"/matches/new$"))
    wait_htmx(page, "fieldset.game-choice")
    page.locator("label.game-card", has=page.locator('input[value="score_pad"]')).click()
    expect(page.locator("#game-fields .settings legend")).to_have_text("Score pad settings")
    for i, name in enumerate(players):
        page.fill(f"#player_{i}", name)
    expect(page.locator(f'#first_dealer option[value="{len(players) - 1}"]')).to_have_text(players[-1])
    page.select_option("#first_dealer", "0")
    page.fill("#setting_target", target)
    page.fill("#setting_hand_count", hand_count)
    if low_wins:
        page.locator("#setting_low_wins").check()
    no_horizontal_scroll(page, page.viewport_size["width"])
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/matches/\d+$"))
    expect(page.locator(".match-head h1")).to_have_text("Score pad")
    wait_htmx(page, "#preview")


def type_points(page, values: list[int]) -> None:
    for seat, value in enumerate(values):
        page.fill(f'#hand-form input[name="points_{seat}"]', str(value))


def needs(page) -> str:
    panel = page.locator("details.needs")
    if panel.get_attribute("open") is None:
        panel.locator("summary").click()
    return " ".join(panel.inner_text().split())


def test_hearts_style_lowest_wins_at_100(page, live_server, screenshot):
    start_pad(page, live_server, ["Ann", "Bob", "Cy", "Dee"], target="100", low_wins=True)
    expect(page.locator("#referee-link")).to_have_count(0)  # a score pad has no tricks to judge
    # Hand 1, Ann deals: a minus is typed like any number.
    type_points(page, [26, -5, 0, 9])
    save_hand(page, 1, "Ann +26, Bob -5, Cy 0, Dee +9")
    expect_totals(page, {"Ann": 26, "Bob": -5, "Cy": 0, "Dee": 9})
    expect(page.locator("#totals .next-dealer")).to_contain_text("Next to deal: Bob")
    # Lowest leads: "ahead" is lower; 100 - 26 = 74 short of the target.
    text = needs(page)
    assert "Playing to 100: a total of 100 or more ends the game; the lowest total then wins" in text
    assert "Ann is 74 short of 100; is 31 above Bob" in text
    assert "Bob is 105 short of 100; leads Cy by 5" in text
    screenshot("score-pad-needs-390")

    why = page.locator("#hand-1 details.why")
    why.locator("summary").click()
    expect(why).to_contain_text("Bob scored -5 points.")
    expect(why).to_contain_text("Bob deals next: the deal passes left.")

    # Correct hand 1: Cy had 13, not 0.
    page.locator("#hand-1").get_by_role("link", name="Edit").click()
    expect(page.locator("h1")).to_contain_text("Correct hand 1")
    wait_htmx(page, "#preview")
    expect(page.locator('#hand-form input[name="points_1"]')).to_have_value("-5")
    type_points(page, [26, -5, 13, 9])
    expect(page.locator("#preview .preview-line")).to_have_text("If saved: Ann +26, Bob -5, Cy +13, Dee +9")
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator(".notice")).to_contain_text("Hand 1 corrected.")
    expect_totals(page, {"Ann": 26, "Bob": -5, "Cy": 13, "Dee": 9})

    # Hand 2 (Bob deals), then undone with its confirmation.
    wait_htmx(page, "#preview")
    type_points(page, [1, 2, 3, 4])
    save_hand(page, 2, "Ann +1, Bob +2, Cy +3, Dee +4")
    page.get_by_role("link", name="Undo hand 2").click()
    expect(page.locator("h1")).to_have_text("Undo hand 2?")
    page.get_by_role("button", name="Undo hand 2").click()
    expect(page.locator(".notice")).to_contain_text("Hand 2 undone")
    expect_totals(page, {"Ann": 26, "Bob": -5, "Cy": 13, "Dee": 9})
    wait_htmx(page, "#preview")

    # Hand 2 again: Ann reaches 100 exactly (at the target ends it); Bob has the lowest total.
    type_points(page, [74, 0, 13, 0])
    expect(page.locator("#preview .preview-end")).to_contain_text("This ends the game: Bob wins")
    save_hand(page, 2, "Ann +74, Bob 0, Cy +13, Dee 0", ends=True)
    expect(page.locator("#game-over .banner-winner")).to_have_text("Bob wins")
    expect(page.locator("#game-over")).to_contain_text("Ann reached 100 with 100; Bob has the lowest total, -5, "
                                                       "and wins")
    no_horizontal_scroll(page, 390)
    tap_targets_ok(page)
    screenshot("score-pad-game-over-390")

    # The print view and the export say the same.
    match_url = page.url
    page.goto(match_url + "/print")
    expect(page.locator(".result")).to_contain_text("Bob wins after 2 hands")
    expect(page.locator("table.grid tbody tr")).to_have_count(2)
    no_horizontal_scroll(page, 390)
    screenshot("score-pad-print-390")
    exported = json.loads(page.request.get(match_url + "/export.json").text())
    assert exported["game"] == "score_pad" and exported["settings"] == {"name": "", "target": 100, "low_wins": True,
                                                                        "hand_count": 0}
    assert exported["hands"] == [{"points": [26, -5, 13, 9]}, {"points": [74, 0, 13, 0]}]


def test_eight_long_names_at_320_px_play_a_fixed_number_of_hands(page, live_server, screenshot):
    page.set_viewport_size(NARROW)
    start_pad(page, live_server, LONG, hand_count="2")
    assert layout_problems(page) == []
    type_points(page, [10, -3, 0, 7, 25, 4, 4, 1])
    screenshot("score-pad-8-players-form-320")
    save_hand(page, 1, "Alexandra Whitfield +10, Bartholomew Jones -3, Christopher 0, Dee +7, "
                       "Evangeline Marsh +25, Fay +4, Gwendolyn +4, Henrietta Woolf +1")
    assert "2 hands in all: 1 hand left; the highest total then wins, and players tied for it share the win." \
        in needs(page)
    assert layout_problems(page) == []
    screenshot("score-pad-8-players-320")
    text_size(page, 200)
    page.reload()
    screenshot("score-pad-8-players-320-200pct")
    found = layout_problems(page)
    assert found == [], "\n".join(found)
    text_size(page, 100)
    page.reload()
    wait_htmx(page, "#preview")
    # Hand 2: Alexandra draws level with Evangeline on 25: after the last hand a tie shares the win.
    type_points(page, [15, 0, 0, 0, 0, 0, 0, 0])
    save_hand(page, 2, "Alexandra Whitfield +15, Bartholomew Jones 0, Christopher 0, Dee 0, "
                       "Evangeline Marsh 0, Fay 0, Gwendolyn 0, Henrietta Woolf 0", ends=True)
    expect(page.locator("#game-over")).to_contain_text("All 2 hands were played; Alexandra Whitfield and "
                                                       "Evangeline Marsh are tied on 25 for the highest total "
                                                       "and share the win")
    expect(page.locator("#totals .standing.winner")).to_have_count(2)
    assert layout_problems(page) == []
    screenshot("score-pad-8-players-over-320")
