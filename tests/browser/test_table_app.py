"""The table app in real Chromium at phone size (390 x 844): for each of the four
games, start a match through the form, record hands until the engine ends the
game, and check the totals and the winner on screen. Along the way: the live
preview, a field error next to its field, editing an earlier hand (totals change
and are highlighted), undo with its confirmation, "Why?", the print view, and no
horizontal scroll at 390 and 360 px.

Expected numbers are worked by hand from rules.md (its worked examples where it
has them), never read from the app."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from scorekeeper.games import GAMES

# --- helpers -------------------------------------------------------------------------

def wait_htmx(page, selector: str) -> None:
    """Wait until htmx has processed ``selector`` (after a boosted navigation or a
    swap), so its triggers are live before the test types into it."""
    page.wait_for_function(
        "(s) => { const e = document.querySelector(s);"
        " return e && e['htmx-internal-data'] && e['htmx-internal-data'].initHash; }", arg=selector)


def no_horizontal_scroll(page, width: int = 390) -> None:
    if page.viewport_size["width"] != width:
        page.set_viewport_size({"width": width, "height": 844})
    sizes = page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
    assert sizes[0] <= sizes[1], f"horizontal scroll at {width} px: scrollWidth {sizes[0]} > {sizes[1]}"


SMALL_TAP_TARGETS = """(scope) => [...document.querySelectorAll(scope)].flatMap(root => [...root.querySelectorAll(
    'a, button, summary, label.chip, label.check, select, input:not([type=hidden]):not([type=radio]):not([type=checkbox])')])
  .filter(e => e.offsetParent !== null)
  .map(e => { const r = e.getBoundingClientRect();
              return [e.tagName + ' ' + (e.textContent.trim() || e.name || '').slice(0, 24), Math.round(r.width), Math.round(r.height)]; })
  .filter(([, w, h]) => w < 44 || h < 44)"""


def tap_targets_ok(page, scope: str = ".match-head, #match-live") -> None:
    """Every link, button, chip, summary and field on the match page is at least 44 x 44 px."""
    small = page.evaluate(SMALL_TAP_TARGETS, scope)
    assert not small, f"tap targets under 44 px: {small}"


def start_match(page, live_server, game: str, players: list[str], settings: dict[str, str],
                screenshot=None) -> None:
    """From the history page, as a user: Start a match, tap the game, type the
    names, pick the first dealer (seat 0) and the settings, start."""
    page.goto(live_server + "/")
    page.get_by_role("link", name="Start a match").click()
    page.wait_for_url(re.compile(r"/matches/new$"))
    wait_htmx(page, "fieldset.game-choice")
    card = page.locator("label.game-card", has=page.locator(f'input[value="{game}"]'))
    expect(card).to_contain_text(GAMES[game].title)
    card.click()
    expect(page.locator("#game-fields .settings legend")).to_have_text(f"{GAMES[game].title} settings")
    for i, name in enumerate(players):
        page.fill(f"#player_{i}", name)
    # The first-dealer choices follow the names typed above.
    expect(page.locator('#first_dealer option[value="0"]')).to_have_text(players[0])
    page.select_option("#first_dealer", "0")
    for name, value in settings.items():
        field = page.locator(f"#setting_{name}")
        expect(field).to_be_visible()  # the setting is shown with its default pre-filled
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    no_horizontal_scroll(page)
    tap_targets_ok(page, ".new-match")
    if screenshot:
        screenshot(f"new-match-{game}")
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/matches/\d+$"))
    expect(page.locator(".match-head h1")).to_have_text(GAMES[game].title)
    expect(page.locator("#record h2")).to_contain_text("Hand 1")
    wait_htmx(page, "#preview")


def choose(page, name: str, value: str) -> None:
    """Tap the chip of a radio choice (trump, high/low, a Third Hand bid)."""
    page.locator(f'#hand-form label.chip:has(input[name="{name}"][value="{value}"])').click()
    expect(page.locator(f'#hand-form input[name="{name}"][value="{value}"]')).to_be_checked()


def type_numbers(page, values: dict[str, int]) -> None:
    for name, value in values.items():
        page.fill(f'#hand-form input[name="{name}"]', str(value))


def save_hand(page, number: int, preview: str, ends: bool = False) -> None:
    """Check the live preview, save, and wait for the scoreboard to update in place."""
    expect(page.locator("#preview .preview-line")).to_have_text(f"If saved: {preview}")
    if ends:
        expect(page.locator("#preview .preview-end")).to_contain_text("This ends the game")
    page.get_by_role("button", name=f"Save hand {number}").click()
    expect(page.locator(".notice")).to_contain_text(f"Hand {number} saved: ")
    expect(page.locator(f"#hand-{number}")).to_be_visible()
    if not ends:
        expect(page.locator("#record h2")).to_contain_text(f"Hand {number + 1}")
        wait_htmx(page, "#preview")


def expect_totals(page, totals: dict[str, int]) -> None:
    for name, total in totals.items():
        row = page.locator("#totals .standing", has=page.locator(".name", has_text=re.compile(f"^{name}$")))
        expect(row.locator(".total")).to_have_text(str(total))


def expect_game_over(page, banner: str) -> None:
    expect(page.locator("#game-over .banner-winner")).to_have_text(banner)
    expect(page.locator("#record")).to_have_count(0)  # no further hands
    expect(page.locator("#totals .standing.winner")).to_have_count(1)


def scoreboard_checks(page, screenshot, game: str) -> None:
    """No horizontal scroll at 390 and 360 px; a screenshot of the final board."""
    page.locator("#totals").scroll_into_view_if_needed()
    no_horizontal_scroll(page, 390)
    tap_targets_ok(page)
    screenshot(f"scoreboard-{game}")
    no_horizontal_scroll(page, 360)
    screenshot(f"scoreboard-{game}-360")
    page.set_viewport_size({"width": 390, "height": 844})


# --- the four games ----------------------------------------------------------------------

def test_third_wheel_match_with_a_field_error_and_an_edit(page, live_server, screenshot):
    start_match(page, live_server, "third_wheel", ["Ann", "Bob", "Cy"], {"deals_each": "1"},
                screenshot=screenshot)
    expect(page.locator("#totals .progress-line")).to_contain_text("hand 1 of 3 if the deal goes round in turn")

    # Hand 1, Ann deals: rules.md's example, bid 5, tricks 5/4/2 -> Ann 9, Bob 0, Cy 2.
    choose(page, "trump", "moons")
    choose(page, "mode", "high")
    type_numbers(page, {"bid": 5, "tricks_0": 5, "tricks_1": 4, "tricks_2": 1})
    expect(page.locator("#err-tricks")).to_contain_text("tricks add up to 10, not 11")
    expect(page.locator("#preview .preview-line")).to_have_count(0)
    screenshot("field-error-third_wheel")
    type_numbers(page, {"tricks_2": 2})
    expect(page.locator("#err-tricks")).to_have_text("")
    save_hand(page, 1, "Ann +9, Bob 0, Cy +2")
    expect_totals(page, {"Ann": 9, "Bob": 0, "Cy": 2})
    expect(page.locator("#totals .next-dealer")).to_contain_text("Next to deal: Bob")

    # Hand 2, Bob deals, bid 5, takes 3 (Cy 2, Ann 6): missed -> Bob 0, each setter 5, Cy +2.
    choose(page, "trump", "suns")
    choose(page, "mode", "low")
    type_numbers(page, {"bid": 5, "tricks_1": 3, "tricks_2": 2, "tricks_0": 6})
    save_hand(page, 2, "Ann +5, Bob 0, Cy +7")
    expect_totals(page, {"Ann": 14, "Bob": 0, "Cy": 9})

    # Hand 3, Cy deals, bid 4, takes 7 (Ann 1, Bob 3): over -> Cy 4, Ann 3 + 3 = 6, Bob 0.
    choose(page, "trump", "waves")
    choose(page, "mode", "high")
    type_numbers(page, {"bid": 4, "tricks_2": 7, "tricks_0": 1, "tricks_1": 3})
    save_hand(page, 3, "Ann +6, Bob 0, Cy +4", ends=True)
    expect_totals(page, {"Ann": 20, "Bob": 0, "Cy": 13})
    expect_game_over(page, "Ann wins")  # everyone has dealt once
    expect(page.locator("#totals .standing").first).to_contain_text("Ann")
    scoreboard_checks(page, screenshot, "third_wheel")

    # Correct hand 1: Bob took 2 and Cy 4 -> Ann still 9, Bob 2, Cy 0; totals after it change.
    page.locator("#hand-1").get_by_role("link", name="Edit").click()
    expect(page.locator("h1")).to_contain_text("Correct hand 1")
    wait_htmx(page, "#preview")
    expect(page.locator('#hand-form input[name="tricks_1"]')).to_have_value("4")  # the hand as recorded
    type_numbers(page, {"tricks_1": 2, "tricks_2": 4})
    expect(page.locator("#preview .preview-line")).to_have_text("If saved: Ann +9, Bob +2, Cy 0")
    expect(page.locator("#preview .preview-totals")).to_have_text("Totals then: Ann 20, Bob 2, Cy 11")  # after every hand is re-scored
    no_horizontal_scroll(page)
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator(".notice")).to_contain_text("Hand 1 corrected. Totals changed from hand 1 on. Totals now: ")
    expect(page.locator(".changed-note")).to_contain_text("Totals changed from hand 1 on")
    expect(page.locator("tbody.hand.changed")).to_have_count(3)
    expect_totals(page, {"Ann": 20, "Bob": 2, "Cy": 11})
    expect_game_over(page, "Ann wins")
    screenshot("edited-third_wheel")


def test_dummy_spades_match_with_undo(page, live_server, screenshot):
    start_match(page, live_server, "dummy_spades", ["Ann", "Bob", "Cy"], {"target": "100"})
    # Bids are asked from the dealer's left: Bob, Cy, then Ann (the dealer).
    bid_labels = page.locator("#group-bids .seat-row label")
    expect(bid_labels).to_have_text(["Bob", "Cy", "Ann"])

    def hand_one():
        # rules.md: declarer (Ann) bid 7 with the dummy, defenders 5 and 6 take 5 -> +71/+50/-60.
        type_numbers(page, {"bids_1": 5, "bids_2": 6, "bids_0": 7,
                            "tricks_0": 4, "tricks_1": 3, "tricks_2": 2, "dummy_tricks": 4})
        save_hand(page, 1, "Ann +71, Bob +50, Cy -60")
        expect_totals(page, {"Ann": 71, "Bob": 50, "Cy": -60})
        expect(page.locator("#totals .standing").nth(0)).to_contain_text("1 bag")

    def hand_two():
        # Bob deals; Ann bids 4 and with the dummy takes 5 (+41, 2 bags in all); the
        # defenders bid 3 and 2 and take 8: Bob 30 + 5 = 35, Cy 20 + 6 = 26.
        type_numbers(page, {"bids_2": 2, "bids_0": 4, "bids_1": 3,
                            "tricks_0": 2, "tricks_1": 4, "tricks_2": 4, "dummy_tricks": 3})
        save_hand(page, 2, "Ann +41, Bob +35, Cy +26", ends=True)
        expect_totals(page, {"Ann": 112, "Bob": 85, "Cy": -34})
        expect_game_over(page, "Ann wins")

    hand_one()
    # The four hands' tricks must make 13: a field error next to the tricks.
    type_numbers(page, {"bids_2": 2, "bids_0": 4, "bids_1": 3,
                        "tricks_0": 2, "tricks_1": 4, "tricks_2": 4, "dummy_tricks": 4})
    expect(page.locator("#err-tricks")).to_contain_text("tricks add up to 14 with the dummy's 4, not 13")
    page.fill('#hand-form input[name="dummy_tricks"]', "")
    hand_two()
    bags = page.locator("#totals .counter")  # the game's count beside each total
    expect(bags).to_have_text(["2 bags", "5 bags", "6 bags"])

    # Undo hand 2, with its confirmation: the game is open again.
    page.get_by_role("link", name="Undo hand 2").click()
    expect(page.locator("h1")).to_have_text("Undo hand 2?")
    expect(page.locator(".confirm")).to_contain_text("Ann +41, Bob +35, Cy +26")
    no_horizontal_scroll(page)
    screenshot("undo-confirm-dummy_spades")
    page.get_by_role("button", name="Undo hand 2").click()
    expect(page.locator(".notice")).to_contain_text("Hand 2 undone")
    expect(page.locator("#game-over")).to_have_count(0)
    expect_totals(page, {"Ann": 71, "Bob": 50, "Cy": -60})
    expect(page.locator("#record h2")).to_contain_text("Hand 2 · Bob deals")
    expect(page.locator("#hand-2")).to_have_count(0)
    wait_htmx(page, "#preview")
    hand_two()
    scoreboard_checks(page, screenshot, "dummy_spades")


def test_third_rail_match_with_why(page, live_server, screenshot):
    start_match(page, live_server, "third_rail", ["Ann", "Bob", "Cy"], {"target": "5"})
    # 3 players: 17 tricks, of which 3, 6, 9, 12 and 15 score.
    # without the bonus only the scoring tricks are asked for
    expect(page.locator('#hand-form input[name="other_tricks_0"]')).to_have_count(0)
    type_numbers(page, {"scoring_tricks_0": 3, "scoring_tricks_1": 1, "scoring_tricks_2": 2})
    expect(page.locator("#err-scoring_tricks")).to_contain_text("scoring tricks add up to 6, not 5")
    type_numbers(page, {"scoring_tricks_2": 1})
    expect(page.locator("#err-scoring_tricks")).to_have_text("")
    save_hand(page, 1, "Ann +3, Bob +1, Cy +1")
    expect_totals(page, {"Ann": 3, "Bob": 1, "Cy": 1})
    expect(page.locator("#totals .next-dealer")).to_contain_text("Next to deal: Bob")

    tap_targets_ok(page)  # the hand form's fields and steppers too
    type_numbers(page, {"scoring_tricks_0": 2, "scoring_tricks_1": 3, "scoring_tricks_2": 0})
    save_hand(page, 2, "Ann +2, Bob +3, Cy 0", ends=True)
    expect_totals(page, {"Ann": 5, "Bob": 4, "Cy": 1})
    expect_game_over(page, "Ann wins")

    why = page.locator("#hand-2 details.why")
    why.locator("summary").click()
    expect(why.locator("li").first).to_be_visible()
    expect(why).to_contain_text("Tricks 3, 6, 9, 12 and 15 score one point each.")
    expect(why).to_contain_text("Bob won 3 scoring tricks: 3 points")
    scoreboard_checks(page, screenshot, "third_rail")


def test_third_hand_match_with_print_view(page, live_server, screenshot):
    start_match(page, live_server, "third_hand", ["Ann", "Bob"], {"target": "100"}, screenshot=screenshot)
    # Hand 1, Ann deals, so Bob bids first: Bob bids K (80), Ann passes. Bob takes 80, Ann
    # 60 (140 in 14 cards): made, Bob 80 + 20 = 100, Ann 60. 100 is not past 100.
    expect(page.locator("#group-bids .seat-name").first).to_contain_text("Bob")
    choose(page, "bids_1", "K")
    choose(page, "bids_0", "pass")
    choose(page, "trump", "hearts")
    type_numbers(page, {"points_0": 65, "points_1": 80})
    expect(page.locator("#err-points")).to_contain_text("points add up to 145")
    type_numbers(page, {"points_0": 60})
    save_hand(page, 1, "Ann +60, Bob +100")
    expect_totals(page, {"Ann": 60, "Bob": 100})
    expect(page.locator("#game-over")).to_have_count(0)
    expect(page.locator("#totals .next-dealer")).to_contain_text("Next to deal: Bob")  # higher hand score

    # Hand 2, Bob deals: Ann bids 9, Bob tops with Q (75), doubled. Bob 80, Ann 60: made,
    # Bob 80 + 2 x 20 = 120, Ann 60. Bob 220 is past 100: Bob wins.
    expect(page.locator("#group-bids .seat-name").first).to_contain_text("Ann")
    choose(page, "bids_0", "9")
    choose(page, "bids_1", "Q")
    choose(page, "trump", "spades")
    type_numbers(page, {"points_0": 60, "points_1": 80})
    save_hand(page, 2, "Ann +60, Bob +120", ends=True)
    expect_totals(page, {"Ann": 120, "Bob": 220})
    expect_game_over(page, "Bob wins")
    expect(page.locator("#hand-2 .hand-meta")).to_contain_text("Bob made (doubled)")
    scoreboard_checks(page, screenshot, "third_hand")

    page.add_init_script("window.print = function () { window.__printed = (window.__printed || 0) + 1; };")
    page.get_by_role("link", name="Print", exact=True).click()
    page.wait_for_url(re.compile(r"/matches/\d+/print$"))
    page.wait_for_function("window.__printed === 1")  # the print dialog opened on the sheet
    expect(page.locator("h1")).to_contain_text("Third Hand")
    expect(page.locator(".result")).to_contain_text("Bob wins")
    expect(page.locator("table.grid tbody tr")).to_have_count(2)
    expect(page.locator(".why-table tbody tr")).to_have_count(2)
    expect(page.locator(".why-table tbody tr").nth(1)).to_contain_text("Bob scores 80 + 2 × 20")
    expect(page.locator(".settings")).to_contain_text("100")
    expect(page.locator("button")).to_have_count(0)
    no_horizontal_scroll(page)
    page.emulate_media(media="print")
    expect(page.locator("nav.no-print")).to_be_hidden()
    screenshot("print-third_hand")


# --- errors answered 4xx are shown (htmx swaps them), near the top of the screen ---------------

def test_a_refused_new_match_shows_its_message(page, live_server):
    """The server answers 422; htmx must swap it in (no console error) and bring
    the first message into view."""
    page.goto(live_server + "/matches/new")
    wait_htmx(page, "fieldset.game-choice")
    page.locator("label.game-card", has=page.locator('input[value="third_wheel"]')).click()
    expect(page.locator("#game-fields .settings legend")).to_have_text("Third Wheel settings")
    page.fill("#player_0", "Ann")
    page.fill("#player_2", "Cy")  # Bob's name left empty
    page.get_by_role("button", name="Start the match").click()
    message = page.locator(".field-messages").first
    expect(message).to_contain_text("a name cannot be empty")
    expect(message).to_be_in_viewport()
    expect(page).to_have_url(re.compile(r"/matches/new$"))
    expect(page.locator("#player_0")).to_have_value("Ann")  # what was typed is kept


def test_a_refused_correction_shows_its_message(page, live_server):
    start_match(page, live_server, "third_wheel", ["Ann", "Bob", "Cy"], {"deals_each": "2"})
    choose(page, "trump", "moons")
    choose(page, "mode", "high")
    type_numbers(page, {"bid": 5, "tricks_0": 5, "tricks_1": 4, "tricks_2": 2})
    save_hand(page, 1, "Ann +9, Bob 0, Cy +2")
    page.locator("#hand-1").get_by_role("link", name="Edit").click()
    expect(page.locator("h1")).to_contain_text("Correct hand 1")
    wait_htmx(page, "#preview")
    page.fill('#hand-form input[name="bid"]', "")
    # as the scorer would: the preview has said what is missing before the tap on save
    # (a tap while the preview's answer lands can move the button from under the pointer)
    expect(page.locator("#preview")).to_contain_text("Still to fill in: dealer's bid")
    page.get_by_role("button", name="Save the correction").click()  # answered 422
    alert = page.locator("#hand-form .alert.error")
    expect(alert).to_contain_text("Still to fill in: dealer's bid.")
    expect(alert).to_be_in_viewport()
    expect(page.locator("h1")).to_contain_text("Correct hand 1")
