"""Issue "At the table" in real Chromium at 390 x 844: every save lands in view and is
read out, corrections are never silently lost (trick-by-trick hands, the card
counter, a later hand's dealer), and no page is drawn inside another."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from scorekeeper.games import GAMES

from .conftest import ALLOWED, PHONE, SCREENSHOTS
from .test_referee import start_match as quick_match
from .test_table_app import choose, save_hand, start_match, type_numbers, wait_htmx

WINNERS = [0, 1, 2] * 5 + [0, 1]  # Third Rail, 3 players: 17 tricks; 3, 6, 9, 12, 15 all Cy's


IN_VIEW = """(s) => { const e = document.querySelector(s); if (!e) return false;
    const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; }"""


def in_view(page, selector: str) -> bool:
    """Whether ``selector`` is on the screen, waiting a moment for a scroll under way."""
    try:
        page.wait_for_function(IN_VIEW, arg=selector, timeout=3000)
    except PlaywrightTimeout:
        return False
    return True


# --- 2: after Save ---------------------------------------------------------------------

def test_after_save_the_points_and_totals_are_in_view_and_read_out(page, live_server, screenshot):
    start_match(page, live_server, "third_wheel", ["Ann", "Bob", "Cy"], {})
    for name, value in (("trump", "wyrms"), ("mode", "high")):
        choose(page, name, value)
    type_numbers(page, {"bid": 5, "tricks_0": 5, "tricks_1": 4, "tricks_2": 2})
    page.locator("#hand-form button[type=submit]").scroll_into_view_if_needed()
    assert not page.evaluate(IN_VIEW, "#match-notice")  # the Save button is far below the scoreboard
    save_hand(page, 1, "Ann +9, Bob 0, Cy +2")
    notice = page.locator("#match-notice .notice")
    # rules.md worked example: bid 5, D5/S1 4/S2 2 -> D 9, S1 0, S2 2
    expect(notice).to_contain_text("Hand 1 saved: Ann +9, Bob 0, Cy +2. Totals: Ann 9, Bob 0, Cy 2.")
    page.wait_for_function("() => document.activeElement && document.activeElement.classList.contains('notice')")
    assert in_view(page, "#match-notice .notice") and in_view(page, "#totals .standings")
    expect(page.locator("#match-notice")).to_have_attribute("role", "status")
    expect(page.get_by_role("link", name="Next: hand 2")).to_be_visible()
    assert in_view(page, "#match-notice .notice-next")
    screenshot("table-saved-in-view", full_page=False)
    # the second save (an answer with only what changed) lands the same way
    wait_htmx(page, "#preview")
    for name, value in (("trump", "knots"), ("mode", "low")):
        choose(page, name, value)
    # rules.md: bid 5, D3/S1 2/S2 6 -> D 0, S1 7, S2 5 (Bob deals: Cy is S1, Ann S2)
    type_numbers(page, {"bid": 5, "tricks_0": 6, "tricks_1": 3, "tricks_2": 2})
    page.locator("#hand-form button[type=submit]").scroll_into_view_if_needed()
    save_hand(page, 2, "Ann +5, Bob 0, Cy +7")
    expect(notice).to_contain_text("Hand 2 saved: Ann +5, Bob 0, Cy +7. Totals: Ann 14, Bob 0, Cy 9.")
    page.wait_for_function("() => document.activeElement && document.activeElement.classList.contains('notice')")
    assert in_view(page, "#match-notice .notice")
    expect(page.locator("#totals .last").first).to_contain_text("in hand 2")
    page.get_by_role("link", name="Next: hand 3").click()  # one tap to the next hand's form
    page.wait_for_function("() => document.querySelector('#record').getBoundingClientRect().top < 100")


# --- 3: no page inside a page --------------------------------------------------------------

@pytest.mark.parametrize("game", [key for key, game in GAMES.items() if game.referee is not None])
def test_rules_from_the_referee_is_a_page_of_its_own(page, live_server, game):
    quick_match(page, live_server, game)
    page.get_by_role("link", name="Who won the trick?").click()
    page.wait_for_url(re.compile(rf"/referee/{game}\?match=\d+"))
    wait_htmx(page, "#referee")
    page.get_by_role("link", name="Rules of this match").click()
    page.wait_for_url(re.compile(r"/matches/\d+/rules$"))
    expect(page.locator(".rules")).to_contain_text("This match's settings")
    expect(page.locator(".topbar")).to_have_count(1)
    expect(page.locator("#referee")).to_have_count(0)
    expect(page.locator("main")).to_have_count(1)


# --- 1: corrections never silently lost ---------------------------------------------------

def test_a_trick_by_trick_hand_is_corrected_in_the_tally(page, live_server, screenshot):
    start_match(page, live_server, "third_rail", ["Ann", "Bob", "Cy"], {})
    page.locator("summary", has_text="Or every trick's winner").click()
    page.fill('#hand-form input[name="winners"]', " ".join(str(w + 1) for w in WINNERS))
    save_hand(page, 1, "Ann 0, Bob 0, Cy +5")
    page.locator("#hand-1 .hand-actions a", has_text="Edit").click()
    page.wait_for_url(re.compile(r"/hands/1/edit$"))
    expect(page.locator("#tally-choice")).to_contain_text("was recorded trick by trick")
    expect(page.locator('input[name="winners"]')).to_have_count(0)
    screenshot("table-edit-tally-choice")
    page.get_by_role("link", name="Correct it trick by trick").click()
    expect(page.locator(".tally-count")).to_contain_text("All 17 tricks are in")
    trick = page.locator(".tally-history details").nth(2)  # trick 3, a scoring trick: Bob's, not Cy's
    trick.locator("summary").click()
    trick.get_by_role("button", name="Bob").click()
    expect(page.locator(".preview-line")).to_contain_text("If saved: Ann 0, Bob +1, Cy +4")
    screenshot("table-tally-correction")
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator(".notice")).to_contain_text(
        "Hand 1 corrected trick by trick. Totals changed from hand 1 on. Totals now: Ann 0, Bob 1, Cy 4.")
    expect(page.locator(".topbar")).to_have_count(1)


def test_the_card_counter_fills_the_points_and_a_clash_is_said(page, live_server, screenshot):
    start_match(page, live_server, "third_hand", ["Ann", "Bob"], {})
    choose(page, "bids_1", "K")
    choose(page, "bids_0", "pass")
    choose(page, "trump", "hearts")
    page.locator("summary", has_text="Count cards instead of points").click()
    # Ann: 2 aces, 2 nines, 1 ten, 3 pictures = 2 + 18 + 10 + 30 = 60
    for kind, count in (("aces", 2), ("nines", 2), ("tens", 1), ("pictures", 3)):
        page.fill(f'#hand-form input[name="count_0_{kind}"]', str(count))
    expect(page.locator(".preview-counted")).to_contain_text("Counted cards make Ann 60 card points.")
    expect(page.locator('#hand-form input[name="points_0"]')).to_have_value("60")
    type_numbers(page, {"points_1": 80})
    expect(page.locator("#preview .preview-line")).to_contain_text("If saved: Ann +60, Bob +100")
    # a number typed over the filled one that disagrees with the counted cards is said, not dropped
    page.fill('#hand-form input[name="points_0"]', "70")
    expect(page.locator("#err-count_cards")).to_contain_text(
        "Card points and counted cards disagree (Ann: 70 typed, but the counted cards make 60)")
    screenshot("table-counter-clash")
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#hands")).to_have_count(0)  # nothing saved


def test_a_correction_that_moves_a_later_deal_keeps_that_hand_in_one_tap(page, live_server, screenshot):
    start_match(page, live_server, "third_hand", ["Ann", "Bob"], {"target": "300"})
    choose(page, "bids_1", "K")
    choose(page, "bids_0", "pass")
    choose(page, "trump", "hearts")
    type_numbers(page, {"points_0": 60, "points_1": 80})
    save_hand(page, 1, "Ann +60, Bob +100")
    # hand 2: Bob deals; Ann bids 9, Bob tops it with Q
    choose(page, "bids_0", "9")
    choose(page, "bids_1", "Q")
    choose(page, "trump", "spades")
    type_numbers(page, {"points_0": 60, "points_1": 80})
    save_hand(page, 2, "Ann +60, Bob +120")
    page.locator("#hand-1 .hand-actions a", has_text="Edit").click()
    page.wait_for_url(re.compile(r"/hands/1/edit$"))
    wait_htmx(page, "#preview")
    type_numbers(page, {"points_0": 80, "points_1": 60})  # Bob failed: Ann now deals hand 2
    offer = page.locator("#preview .dealer-offer")
    expect(offer).to_contain_text("hand 2 would come round to Ann, but it was recorded with Bob dealing")
    expect(offer).to_contain_text("As it is, the correction cannot be saved")
    # the Save that cannot work goes; the offer's button is the big blue one
    expect(page.get_by_role("button", name="Save the correction")).to_be_hidden()
    expect(offer.get_by_role("button", name="Save, and mark hand 2 dealt by Bob")).to_have_class(re.compile(r"\bprimary\b"))
    offer.scroll_into_view_if_needed()
    screenshot("table-dealer-offer", full_page=False)
    offer.get_by_role("button", name="Save, and mark hand 2 dealt by Bob").click()
    expect(page.locator(".notice")).to_contain_text("Hand 1 corrected. Totals changed from hand 1 on.")
    expect(page.locator("#hand-2")).to_contain_text("dealt out of turn")


# --- 7: why the game goes on, how it ended ----------------------------------------------------

def test_the_board_says_why_the_game_goes_on_and_how_it_ended(page, live_server, screenshot):
    start_match(page, live_server, "third_rail", ["Ann", "Bob", "Cy"], {"target": "5"})
    type_numbers(page, {"scoring_tricks_0": 3, "scoring_tricks_1": 2, "scoring_tricks_2": 0})
    save_hand(page, 1, "Ann +3, Bob +2, Cy 0")
    wait_htmx(page, "#preview")
    type_numbers(page, {"scoring_tricks_0": 2, "scoring_tricks_1": 3, "scoring_tricks_2": 0})
    save_hand(page, 2, "Ann +2, Bob +3, Cy 0")
    banner = page.locator("#playing-on")
    expect(banner).to_contain_text("Ann and Bob are tied on 5 at the top: another hand is dealt.")
    assert in_view(page, "#playing-on")  # under the notice, with the totals
    screenshot("table-playing-on", full_page=False)
    wait_htmx(page, "#preview")
    type_numbers(page, {"scoring_tricks_0": 1, "scoring_tricks_1": 0, "scoring_tricks_2": 4})
    save_hand(page, 3, "Ann +1, Bob 0, Cy +4", ends=True)
    expect(page.locator("#game-over")).to_contain_text("Ann reached 5 with 6 and wins.")
    expect(page.locator("#playing-on")).to_have_count(0)


# --- 8: names, settings, first dealer; deleting with undo ------------------------------------

def test_rename_change_a_setting_and_delete_with_undo(page, live_server, screenshot):
    start_match(page, live_server, "third_wheel", ["Ann", "Tom", "Cy"], {})
    for name, value in (("trump", "wyrms"), ("mode", "high")):
        choose(page, name, value)
    # rules.md: bid 4, D7/S1 1/S2 3 -> D 4, S1 6, S2 0
    type_numbers(page, {"bid": 4, "tricks_0": 7, "tricks_1": 1, "tricks_2": 3})
    save_hand(page, 1, "Ann +4, Tom +6, Cy 0")
    page.get_by_role("link", name="Players & settings").click()
    page.wait_for_url(re.compile(r"/setup$"))
    page.fill("#player_1", "Thomas")
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".notice")).to_contain_text("Saved: Tom is now Thomas. No totals changed.")
    expect(page.locator("#totals")).to_contain_text("Thomas")
    page.get_by_role("link", name="Players & settings").click()
    page.wait_for_url(re.compile(r"/setup$"))
    page.select_option("#setting_overtrick_dealer", "penalty")
    page.get_by_role("button", name="Save").click()
    confirm = page.locator("#setup-confirm")
    expect(confirm).to_contain_text("Ann: 4 → 1")  # 4 minus 3 overtricks
    assert in_view(page, "#setup-confirm h2")
    screenshot("table-setup-confirm", full_page=False)
    confirm.get_by_role("button", name="Save, and change the scores").click()
    expect(page.locator(".notice")).to_contain_text("Scored again from the first hand: Ann: 4 → 1.")
    page.get_by_role("link", name="Delete match").click()
    page.get_by_role("button", name="Delete the match").click()
    page.wait_for_url(re.compile(r"/(#deleted)?$"))
    expect(page.locator(".notice")).to_contain_text("Deleted Third Wheel with Ann, Thomas, Cy.")
    screenshot("table-deleted", full_page=False)
    page.locator("#deleted li", has_text="Ann, Thomas, Cy").get_by_role("button", name="Restore").click()
    expect(page.locator(".notice")).to_contain_text("Match restored, exactly as it was.")
    expect(page.locator("#totals")).to_contain_text("Thomas")


# --- 9: landscape and tablets use the width ---------------------------------------------------

def test_landscape_puts_the_form_beside_the_scoreboard_and_every_tally_tap_in_view(page, live_server, screenshot):
    start_match(page, live_server, "third_rail", ["Ann", "Bob", "Christopher", "Dee", "Evangeline", "Fay"], {})
    page.set_viewport_size({"width": 844, "height": 390})
    page.reload()
    totals, record = page.locator("#totals").bounding_box(), page.locator("#record").bounding_box()
    assert record["x"] > totals["x"] + totals["width"] - 1  # side by side, not one under the other
    assert record["y"] < 390  # the next hand's form starts on the first screen
    screenshot("table-landscape-match", full_page=False)
    page.get_by_role("link", name="Record trick by trick").click()
    page.wait_for_url(re.compile(r"/tally$"))
    for button in page.locator("button.tally-tap").all():
        box = button.bounding_box()
        assert box["y"] + box["height"] <= 390, "a tally button is below the fold"
        assert button.evaluate("b => b.scrollWidth <= b.clientWidth")  # its name fits inside
    screenshot("table-landscape-tally", full_page=False)


def test_a_link_followed_from_far_down_opens_its_page_at_the_top(page, live_server):
    start_match(page, live_server, "third_wheel", ["Ann", "Bob", "Cy"], {})
    for name, value in (("trump", "wyrms"), ("mode", "high")):
        choose(page, name, value)
    type_numbers(page, {"bid": 5, "tricks_0": 5, "tricks_1": 4, "tricks_2": 2})
    save_hand(page, 1, "Ann +9, Bob 0, Cy +2")
    page.locator("#hand-1").scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, 300)")
    assert page.evaluate("scrollY") > 300
    page.locator("#hand-1 .hand-actions a", has_text="Edit").click()
    page.wait_for_url(re.compile(r"/hands/1/edit$"))
    page.wait_for_function("() => window.scrollY === 0")
    assert in_view(page, ".edit h1")


# --- 10: the referee starts from the hand in progress ------------------------------------------

def test_the_referee_starts_from_the_hand_being_typed(page, live_server, screenshot):
    start_match(page, live_server, "third_hand", ["Ann", "Bob"], {})
    choose(page, "bids_1", "9")  # Bob bids first (Ann deals), Ann tops it with Q
    choose(page, "bids_0", "Q")
    choose(page, "trump", "clubs")
    expect(page.locator("#referee-link")).to_have_attribute("href", re.compile(r"trump=clubs&high=Q&from=form"))
    page.locator("#referee-link").click()
    # Ann holds the contract, so Ann leads: the places round the table start from her
    page.wait_for_url(re.compile(r"/referee/third_hand\?match=\d+&table=0,1&trump=clubs&high=Q&from=form$"))
    expect(page.locator("#ref-trump")).to_have_value("clubs")
    expect(page.locator("#ref-high")).to_have_value("Q")
    expect(page.locator(".ref-source")).to_contain_text("hand 1, Ann deals. Set from hand 1's form as typed so far")
    screenshot("table-referee-from-form", full_page=False)


# --- Wi-Fi drops ----------------------------------------------------------------------------

@pytest.fixture
def flaky_page(browser):
    """A phone tab whose network fails on purpose: the browser and htmx log each failed
    request to the console, which is expected here; a script error still fails the test."""
    # the failed requests' console lines are allowed (no_console_errors); a page error is not
    ALLOWED.extend(["Failed to load resource: net::", "htmx:sendError", "htmx:afterRequest"])
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    yield tab
    context.close()
    assert not errors, errors


def test_a_save_that_cannot_reach_the_server_keeps_the_entry_and_is_never_saved_twice(flaky_page, live_server):
    page = flaky_page
    start_match(page, live_server, "third_wheel", ["Ann", "Bob", "Cy"], {})
    for name, value in (("trump", "wyrms"), ("mode", "high")):
        choose(page, name, value)
    type_numbers(page, {"bid": 5, "tricks_0": 5, "tricks_1": 4, "tricks_2": 2})
    expect(page.locator("#preview .preview-line")).to_have_text("If saved: Ann +9, Bob 0, Cy +2")
    # 1. no connection at all: nothing is sent
    page.context.set_offline(True)
    page.get_by_role("button", name="Save hand 1").click()
    offline = page.locator("#hand-form .offline")
    expect(offline).to_contain_text("Not sent: this phone could not reach the scorekeeper")
    expect(page.locator('#hand-form input[name="tricks_1"]')).to_have_value("4")  # what was typed stays
    page.screenshot(path=str(SCREENSHOTS / "table-offline.png"), caret="initial")
    page.context.set_offline(False)
    # 2. the save reaches the server but its answer is lost on the way back
    lost = {"count": 0}

    def answer_lost(route):
        if route.request.method == "POST" and lost["count"] == 0:
            lost["count"] += 1
            route.fetch()  # the server saves it...
            route.abort("internetdisconnected")  # ...and the phone never hears back
        else:
            route.continue_()
    page.route(re.compile(r"/matches/\d+/hands$"), answer_lost)
    polls = re.compile(r"/matches/\d+/live")
    page.route(polls, lambda route: route.abort("internetdisconnected"))  # the page's poll cannot tell it yet
    offline.get_by_role("button", name="Try again").click()
    expect(offline).to_contain_text("Not sent")
    assert lost["count"] == 1
    offline.get_by_role("button", name="Try again").click()  # the connection is back
    expect(page.locator(".notice")).to_contain_text("Hand 1 saved: Ann +9, Bob 0, Cy +2.")
    expect(page.locator("#hand-form .offline")).to_have_count(0)
    page.reload()
    expect(page.locator("#hands tbody.hand")).to_have_count(1)  # saved once, not twice
    expect(page.locator("#record h2")).to_contain_text("Hand 2")
    # 3. an answer lost, and no Try again: the page's own poll learns that the save happened
    wait_htmx(page, "#preview")
    lost["count"] = 0
    for name, value in (("trump", "knots"), ("mode", "low")):
        choose(page, name, value)
    type_numbers(page, {"bid": 5, "tricks_0": 6, "tricks_1": 3, "tricks_2": 2})
    expect(page.locator("#preview .preview-line")).to_have_text("If saved: Ann +5, Bob 0, Cy +7")
    page.get_by_role("button", name="Save hand 2").click()
    expect(offline).to_contain_text("Not sent")
    assert lost["count"] == 1
    page.unroute(polls)
    expect(page.locator(".notice")).to_contain_text("Hand 2 saved: Ann +5, Bob 0, Cy +7.", timeout=10000)
    expect(page.locator("#hand-form .offline")).to_have_count(0)
    expect(page.locator("#record h2")).to_contain_text("Hand 3")
    expect(page.locator("#hand-form .draft-note")).to_have_count(0)  # not "saved on another phone"
    page.reload()
    expect(page.locator("#hands tbody.hand")).to_have_count(2)
    expect(page.locator('#hand-form input[name="bid"]')).to_have_value("")  # its draft is done with


def test_chromium_reads_the_manifest_without_errors(page, live_server):
    page.goto(live_server + "/")
    session = page.context.new_cdp_session(page)
    manifest = session.send("Page.getAppManifest")
    assert re.search(r"/static/manifest\.[0-9a-f]{12}\.json$", manifest["url"])  # by its content's digest
    assert manifest["errors"] == [], manifest["errors"]
    assert '"display": "standalone"' in manifest["data"]


# --- fewer taps: the last number follows from the others ---------------------------------------

def test_the_last_trick_count_follows_from_the_others_and_can_be_changed(page, live_server):
    start_match(page, live_server, "third_wheel", ["Ann", "Bob", "Cy"], {})
    for name, value in (("trump", "wyrms"), ("mode", "high")):
        choose(page, name, value)
    type_numbers(page, {"bid": 5, "tricks_0": 5, "tricks_1": 4})
    last = page.locator('#hand-form input[name="tricks_2"]')
    expect(last).to_have_value("2")  # 11 tricks in all
    expect(page.locator("#preview .preview-line")).to_have_text("If saved: Ann +9, Bob 0, Cy +2")
    type_numbers(page, {"tricks_1": 3})
    expect(last).to_have_value("3")  # still filled in: it follows
    last.fill("2")  # the scorer's own number now: kept, and the sum is said to be wrong
    expect(page.locator("#err-tricks")).to_contain_text("tricks add up to 10, not 11")
    type_numbers(page, {"tricks_0": 6})  # it no longer follows: the scorer's 2 stays
    expect(last).to_have_value("2")
    expect(page.locator("#err-tricks")).to_have_text("")
    expect(page.locator("#preview .preview-line")).to_contain_text("If saved:")


def test_spades_fills_the_dummys_tricks(page, live_server):
    start_match(page, live_server, "dummy_spades", ["Ann", "Bob", "Cy"], {})
    type_numbers(page, {"bids_1": 7, "bids_2": 5, "bids_0": 6, "tricks_1": 3, "tricks_2": 5, "tricks_0": 2})
    expect(page.locator('#hand-form input[name="dummy_tricks"]')).to_have_value("3")
    expect(page.locator("#preview .preview-line")).to_contain_text("If saved:")
