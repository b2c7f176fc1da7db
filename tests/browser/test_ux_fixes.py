"""The first-time user's phone findings, checked in real Chromium: the Third Rail
tally survives a reload, the referee's low cards and next trick, the import
page at 360 px, the chart's text size, the share panel and the match log."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from .test_referee import no_horizontal_scroll, start_match, tap_card

NARROW = {"width": 360, "height": 780}


def test_tally_survives_a_reload_and_back(page, live_server, screenshot):
    start_match(page, live_server, "third_rail", 5)  # Ann .. Eve: 16 tricks
    page.get_by_role("link", name="Record trick by trick").click()
    expect(page.locator(".tally-count")).to_contain_text("Trick 1 of 16")
    for number, name in enumerate(["Ann", "Bob", "Cy", "Dee", "Eve"], start=1):
        page.locator("button.tally-tap", has_text=name).click()
        expect(page.locator(".tally-count")).to_contain_text(f"Trick {number + 1} of 16")
    expect(page).to_have_url(re.compile(r"/tally\?w=0,1,2,3,4(&|$)"))
    page.reload()  # a locked screen or a discarded tab: the taps come back
    expect(page.locator(".tally-count")).to_contain_text("Trick 6 of 16")
    expect(page.locator(".tally-history li")).to_have_count(5)
    screenshot("ux-tally-after-reload")
    page.locator("button.tally-tap", has_text="Ann").click()
    expect(page.locator(".tally-count")).to_contain_text("Trick 7 of 16")
    page.go_back()  # back is one tap back
    expect(page.locator(".tally-count")).to_contain_text("Trick 6 of 16")
    expect(page.locator(".topbar")).to_be_visible()  # the whole page, not a bare partial


def test_referee_low_cards_and_leading_the_next_trick(page, live_server, screenshot):
    page.goto(f"{live_server}/referee/third_rail?players=3&trump=spades")
    expect(page.get_by_role("button", name="Undo last card")).to_be_disabled()
    expect(page.get_by_role("button", name="New trick")).to_be_disabled()
    for i, code in enumerate(("AH", "KH", "2S")):
        tap_card(page, code)  # one at a time: the form drops a tap while the last is in flight
        expect(page.locator(".ref-slot:not(.empty)")).to_have_count(i + 1)
    expect(page.locator(".cardface.unknown")).to_have_count(0)
    expect(page.locator(".ref-verdict")).to_contain_text("3rd card wins: 2♠")
    screenshot("ux-referee-low-card")
    # Dummy Spades: the finished trick's cards may lead the next one
    page.goto(f"{live_server}/referee/dummy_spades")
    for i, code in enumerate(("AH", "KH", "2S", "QH")):
        tap_card(page, code)
        expect(page.locator(".ref-slot:not(.empty)")).to_have_count(i + 1)
    expect(page.locator(".ref-result")).to_contain_text("3rd card wins")
    expect(page.locator('#referee button[name="add"][value="AH"]')).to_be_enabled()
    tap_card(page, "AH")
    expect(page.locator(".ref-slot:not(.empty)")).to_have_count(1)
    expect(page.locator(".ref-next")).to_contain_text("Tap the card played 2nd")
    expect(page.locator('#referee button[name="add"][value="AH"]')).to_be_disabled()


def test_import_page_fits_a_360_px_phone(page, live_server, screenshot):
    page.set_viewport_size(NARROW)
    page.goto(f"{live_server}/import")
    no_horizontal_scroll(page)
    box = page.locator("input[type=file]").bounding_box()
    assert box["height"] >= 44 and box["x"] + box["width"] <= NARROW["width"]
    screenshot("ux-import-360")


def test_chart_share_and_log_on_a_360_px_phone(page, live_server, screenshot):
    page.set_viewport_size(NARROW)
    match_url = start_match(page, live_server, "third_wheel")
    # no places before the first hand
    expect(page.locator("#totals .place").first).to_have_text("")
    for name, value in (("bid", "5"), ("tricks_0", "5"), ("tricks_1", "4"), ("tricks_2", "2")):
        page.fill(f'#record input[name="{name}"]', value)
    page.locator('#record input[name="trump"][value="wyrms"]').check()
    page.locator('#record input[name="mode"][value="high"]').check()
    page.wait_for_timeout(400)
    page.wait_for_load_state("networkidle")
    page.get_by_role("button", name=re.compile("^Save hand")).click()
    expect(page.locator("#hands")).to_contain_text("Hand 1")
    expect(page.locator("#totals .place").first).to_have_text("1st")
    # the chart's numbers come out at 12 px or more
    size = page.evaluate("""() => {
        const t = document.querySelector('svg.chart text.tick');
        const svg = t.ownerSVGElement;
        return parseFloat(getComputedStyle(t).fontSize) * svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    }""")
    assert size >= 12, size
    # share: the watcher code open, the scorer code behind its own disclosure, the loopback warning
    page.locator("#share > summary").click()
    expect(page.locator("#share .share-link.watcher svg.qr")).to_be_visible()
    expect(page.locator("#share .share-link.scorer svg.qr")).to_be_hidden()
    expect(page.locator("#share .share-loopback")).to_contain_text("Other phones can't open 127.0.0.1")
    page.locator("details.share-scorer > summary").click()
    expect(page.locator("#share .share-link.scorer svg.qr")).to_be_visible()
    no_horizontal_scroll(page)
    screenshot("ux-share-360")
    # the log's times in the phone's local time (the date kept), not "UTC"
    page.goto(match_url + "/log")
    expect(page.locator(".log-what time").first).to_have_text(re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d$"))
    no_horizontal_scroll(page)
