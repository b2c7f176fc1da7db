"""The referee tools in real Chromium at phone size (390 x 844): open the trick
referee from a match in two taps and get a winner in each game, count Third Hand
points from cards, record a Third Rail hand trick by trick."""
from __future__ import annotations

import contextlib
import re

import pytest
from playwright.sync_api import expect

from scorekeeper.games import GAMES
from scorekeeper.samples import NAMES

from .conftest import ALLOWED
from .test_table_app import wait_htmx


def start_match(page, live_server, game: str, seats: int | None = None) -> str:
    """Start a match through the real form, Ann dealing (the game's fewest players unless
    ``seats`` says more); returns the match page's URL."""
    page.goto(f"{live_server}/matches/new?game={game}")
    for i, name in enumerate(NAMES[:seats or GAMES[game].min_players]):
        page.fill(f"#player_{i}", name)
    page.select_option("#first_dealer", "0")
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/matches/\d+$"))
    return page.url


def no_horizontal_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def settle(page, action) -> None:
    """Do ``action`` and let the live preview's request finish (typing faster
    than the preview answers aborts the earlier request, which htmx logs)."""
    action()
    page.wait_for_timeout(400)
    page.wait_for_load_state("networkidle")


def tap_card(page, code: str) -> None:
    page.locator(f'#referee button[name="add"][value="{code}"]').click()


@pytest.mark.parametrize("game, seats, trump, cards, winner, reason", [
    # in a match the referee names who played each card, from who leads (Ann deals each time);
    # the trump is picked where the hand has not said it yet
    ("third_hand", 2, "spades", ["KS", "AS"], "Ann wins the trick", "An Ace played second is highest in Third Hand"),
    ("third_wheel", 3, "moons", ["The Author", "The Journey", "The Sea"], "wins the trick", "in a high hand"),
    ("dummy_spades", 3, "spades", ["AH", "KH", "2S", "QH"], "Dummy wins the trick", "Spades are trump"),
    ("third_rail", 5, "", ["QD", "QD", "5D", "KS", "9D"], "Bob wins the trick",
     "of two identical cards the one played first wins"),
])
def test_referee_from_a_match_in_two_taps(page, live_server, screenshot, game, seats, trump, cards, winner, reason):
    match_url = start_match(page, live_server, game, seats)
    expect(page.locator("#table-guide")).to_contain_text("Ann deals")
    screenshot(f"referee-match-{game}")
    page.get_by_role("link", name="Who won the trick?").click()  # tap 1: from the match page
    page.wait_for_url(re.compile(rf"/referee/{game}\?match=\d+"))
    # the hand being played has its own trump (and high rank or mode): nothing is typed in
    # its form yet, so the referee asks for them rather than guessing from an earlier hand
    for select in page.locator("#referee .ref-context select").all():
        if select.evaluate("s => s.value") == "":
            expect(page.locator(".ref-source")).to_contain_text("not recorded yet: pick")
            value = {"ref-trump": trump, "ref-high": "K", "ref-mode": "high"}[select.get_attribute("id")]
            # the pick is sent and the form drawn again: tap the cards on the new form (a tap
            # sent meanwhile replaces the pick's request, which the console then reports)
            with page.expect_response(re.compile(r"/referee/")):
                select.select_option(value)
            page.wait_for_function("() => !document.querySelector('#referee.htmx-request')")
            expect(select).to_have_value(value)
    for i, code in enumerate(cards):
        tap_card(page, code)
        if i < len(cards) - 1:
            expect(page.locator(".ref-slot:not(.empty)")).to_have_count(i + 1)
    result = page.locator(".ref-result")
    expect(result).to_contain_text(winner)
    expect(result).to_contain_text(reason)
    no_horizontal_scroll(page)
    tap_targets = page.locator('#referee button[name="add"]')
    box = tap_targets.first.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44
    screenshot(f"referee-{game}")
    page.get_by_role("button", name="Undo last card").click()
    expect(page.locator(".ref-result")).to_have_count(0)
    assert page.url.startswith(live_server)
    page.goto(match_url)


def test_referee_shows_a_duplicate_card_as_a_message(page, live_server, screenshot):
    page.goto(f"{live_server}/referee/dummy_spades?c1=AS&c2=AS&c3=2H&c4=3H")
    expect(page.locator(".alert.error")).to_contain_text("A♠ is in the trick twice")
    screenshot("referee-error")


def test_referee_standalone_from_the_top_bar(page, live_server, screenshot):
    page.goto(live_server + "/")
    page.get_by_role("link", name="Referee").click()
    # The top bar's link is boosted: wait for the referee's list of games, so the click below
    # cannot land on a "Third Rail" match still listed on the home page.
    game = page.locator("a.ref-game", has=page.locator(".game-title", has_text=re.compile("^Third Rail$")))
    expect(game).to_be_visible()
    game.click()
    # The link is boosted: wait until htmx has wired the new form before changing it.
    page.wait_for_function("() => { const f = document.querySelector('#referee');"
                           " return f && f['htmx-internal-data'] && f['htmx-internal-data'].initHash; }")
    page.select_option("#ref-players", "3")
    expect(page.locator(".ref-slot")).to_have_count(3)
    for i, code in enumerate(("5C", "KC", "AC")):
        tap_card(page, code)
        expect(page.locator(".ref-slot:not(.empty)")).to_have_count(i + 1)
    expect(page.locator(".ref-result")).to_contain_text("K♣ (played 2nd) is the highest club")
    no_horizontal_scroll(page)
    screenshot("referee-standalone-third-rail")


def test_count_third_hand_points_from_cards(page, live_server, screenshot):
    start_match(page, live_server, "third_hand")
    page.locator("#record label.chip", has_text="pass").first.click()
    page.locator("#record label.chip", has_text="pass").nth(1).click()
    page.locator("#record label.chip", has_text="hearts").click()
    page.locator("summary", has_text="Count cards instead of points").click()
    for name, value in (("count_0_aces", 3), ("count_0_nines", 1), ("count_0_tens", 2), ("count_0_pictures", 3),
                        ("count_1_aces", 2), ("count_1_nines", 1), ("count_1_tens", 1), ("count_1_pictures", 1)):
        settle(page, lambda name=name, value=value: page.fill(f'input[name="{name}"]', str(value)))
    expect(page.locator("#group-count_cards .field-messages")).to_contain_text("aces add up to 5")
    screenshot("point-counter-impossible")
    settle(page, lambda: page.fill('input[name="count_0_aces"]', "2"))
    settle(page, lambda: page.fill('input[name="count_1_pictures"]', "2"))
    # Ann: 2 + 9 + 50 = 61 (8 cards); Bob: 2 + 9 + 30 = 41 (6 cards)
    expect(page.locator("#preview")).to_contain_text("Ann +61")
    expect(page.locator("#preview")).to_contain_text("Bob +41")
    no_horizontal_scroll(page)
    screenshot("point-counter")
    page.get_by_role("button", name=re.compile("^Save hand")).click()
    expect(page.locator("#totals")).to_contain_text("61")
    expect(page.locator("#hands")).to_contain_text("Hand 1")


def test_record_a_third_rail_hand_trick_by_trick(page, live_server, screenshot):
    start_match(page, live_server, "third_rail", 5)  # 5 players: 16 tricks
    page.get_by_role("link", name="Record trick by trick").click()
    expect(page.locator(".tally-count")).to_contain_text("Trick 1 of 16")
    names = NAMES[:5]
    winners = [n % 5 for n in range(16)]
    for number, seat in enumerate(winners, start=1):
        if number == 3:
            expect(page.locator(".tally-count")).to_contain_text("Trick 3 of 16, a scoring trick")
            screenshot("tally-trick-3")
        page.locator("button.tally-tap", has_text=names[seat]).click()
        if number == 4:
            page.get_by_role("button", name="Undo last tap").click()
            expect(page.locator(".tally-count")).to_contain_text("Trick 4 of 16")
            page.locator("button.tally-tap", has_text=names[seat]).click()
        expect(page.locator(".tally-count")).to_contain_text(
            "All 16 tricks are in" if number == 16 else f"Trick {number + 1} of 16")
    no_horizontal_scroll(page)
    screenshot("tally-done")
    # scoring tricks 3, 6, 9, 12, 15 went to seats 2, 0, 3, 1, 4: one point each
    expect(page.locator(".preview-line")).to_contain_text("Ann +1, Bob +1, Cy +1, Dee +1, Eve +1")
    page.get_by_role("button", name="Save this hand").click()
    page.wait_for_url(re.compile(r"/matches/\d+(#match-notice)?$"))
    expect(page.locator(".notice")).to_contain_text("Hand 1 saved, trick by trick: ")
    expect(page.locator("#hands")).to_contain_text("16 tricks by winner")
    screenshot("tally-saved")


def test_rules_page_from_the_match(page, live_server, screenshot):
    start_match(page, live_server, "dummy_spades")
    page.locator("#table-guide").get_by_role("link", name="Rules").click()
    expect(page.locator(".rules")).to_contain_text("This match's settings")
    expect(page.locator(".ruling").first).to_be_visible()
    no_horizontal_scroll(page)
    screenshot("rules-dummy-spades")


def test_new_trick_is_led_by_the_winner_of_the_last_one(page, live_server, screenshot):
    """Issue 26: Third Hand, Led by Bob, 9♠ then A♠: Ann wins; New trick: Ann leads (it said Bob)."""
    start_match(page, live_server, "third_hand")
    page.get_by_role("link", name="Who won the trick?").click()
    page.wait_for_url(re.compile(r"/referee/third_hand\?match=\d+"))
    for select in page.locator("#referee .ref-context select").all():
        if select.evaluate("s => s.value") == "":
            value = {"ref-trump": "hearts", "ref-high": "K"}[select.get_attribute("id")]
            settle(page, lambda select=select, value=value: select.select_option(value))
    settle(page, lambda: page.select_option("#ref-lead", label="Bob"))
    expect(page.locator(".ref-slot-label").first).to_have_text("Bob leads")
    tap_card(page, "9S")
    expect(page.locator(".ref-slot:not(.empty)")).to_have_count(1)
    tap_card(page, "AS")
    expect(page.locator(".ref-result")).to_contain_text("Ann wins the trick")
    expect(page.locator(".ref-result")).to_contain_text("(Ann leads it)")
    page.get_by_role("button", name="New trick").click()
    expect(page.locator(".ref-slot:not(.empty)")).to_have_count(0)
    expect(page.locator(".ref-slot-label").first).to_have_text("Ann leads")
    expect(page.locator(".ref-next")).to_have_text("Tap the card Ann led.")
    expect(page.locator("#ref-lead")).to_have_value(page.locator("#ref-lead option", has_text="Ann").get_attribute("value"))
    screenshot("referee-new-trick-winner-leads")


def test_a_card_tapped_while_the_trump_is_still_on_its_way_counts(page, live_server):
    """Picking the trump sends the referee form; a card tapped before that answer came (a
    slow Wi-Fi) was dropped without a word (hx-sync drop), and the trick came up a card short.
    Now the tap replaces the request on its way: it carries the form as it stands, trump
    included."""
    page.goto(f"{live_server}/referee/third_hand")
    wait_htmx(page, "#referee")
    held = []

    def hold_the_first(route):
        if not held:
            held.append(route)  # the trump's answer is still on its way when the card is tapped
        else:
            route.continue_()

    page.route(re.compile(r"/referee/third_hand\?"), hold_the_first)
    ALLOWED.extend(["htmx:sendAbort", "htmx:afterRequest"])  # the pick's request, given up for the tap
    page.locator("#ref-trump").select_option("hearts")
    while not held:
        page.wait_for_timeout(50)
    tap_card(page, "AS")
    expect(page.locator(".ref-slot:not(.empty)")).to_have_count(1)
    expect(page.locator("#ref-trump")).to_have_value("hearts")
    with contextlib.suppress(Exception):  # already aborted by the page, as it should be
        held[0].continue_()  # let it go: the tap replaced it, so nothing waits for it now
