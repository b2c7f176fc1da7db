"""Issue 28 in real Chromium: a hidden page (another tab, a phone asleep) stops polling and
catches up at once when shown; an idle match is polled less often."""
from __future__ import annotations

import os
import re

from playwright.sync_api import expect

from .conftest import start_server
from .test_two_scorers import fill_wheel, share_links, start_wheel

BOARD = re.compile(r"/matches/\d+/board$")
# every poll the page starts, and what started it ("shown": the page was shown again)
LOG_POLLS = """window.polls = [];
document.addEventListener("htmx:beforeRequest", function (e) {
  var why = e.detail.requestConfig && e.detail.requestConfig.triggeringEvent;
  if (/\\/board$/.test(e.detail.pathInfo.requestPath)) window.polls.push(why ? why.type : "timer");
});"""


def set_visible(page, visible: bool) -> None:
    """What the browser does when the tab is hidden or shown again (a phone locked, unlocked)."""
    state = "visible" if visible else "hidden"
    page.evaluate("state => { Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => state});"
                  "document.dispatchEvent(new Event('visibilitychange')); }", state)


def watch(phones, live_server):
    ann = phones()
    start_wheel(ann, live_server)
    _, watcher_url = share_links(ann)
    watcher = phones()
    watcher.goto(watcher_url)
    expect(watcher.locator(".live-checked")).to_contain_text("checked", timeout=8000)  # polling runs
    watcher.evaluate(LOG_POLLS)
    return ann, watcher


def test_a_hidden_page_stops_polling_and_catches_up_when_shown(phones, live_server):
    ann, watcher = watch(phones, live_server)
    sent: list[str] = []
    watcher.on("request", lambda request: sent.append(request.url) if BOARD.search(request.url) else None)
    set_visible(watcher, False)
    sent.clear()
    fill_wheel(ann, "wyrms", "high", 5, [5, 4, 2])
    ann.get_by_role("button", name="Save hand 1").click()
    expect(ann.locator('.total[data-seat="0"]')).to_have_text("9")
    watcher.wait_for_timeout(7000)  # two polls' time and more
    assert sent == []  # hidden: not one poll
    expect(watcher.locator('.total[data-seat="0"]')).to_have_text("0")
    set_visible(watcher, True)
    expect(watcher.locator('.total[data-seat="0"]')).to_have_text("9")
    assert watcher.evaluate("window.polls")[0] == "shown"  # at once, not at the next tick


def test_an_idle_match_is_polled_less_often(phones, tmp_path):
    from tests.oddball import ENV

    # idle after 1 s without a change, then one poll in 9 s (600 s and 15 s as served)
    env = dict(os.environ, **ENV, SCOREKEEPER_DATABASE=str(tmp_path / "idle.sqlite"),
               SCOREKEEPER_POLL_IDLE_AFTER="1", SCOREKEEPER_POLL_IDLE_EVERY="9")
    server, url = start_server(env)
    try:
        ann, watcher = watch(phones, url)
        watcher.wait_for_timeout(8000)  # every 3 s, this would be two or three polls
        assert len(watcher.evaluate("window.polls")) <= 1
        fill_wheel(ann, "wyrms", "high", 5, [5, 4, 2])
        ann.get_by_role("button", name="Save hand 1").click()
        expect(watcher.locator('.total[data-seat="0"]')).to_have_text("9", timeout=12000)  # still followed
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_a_returning_phone_asks_only_for_the_page(page, live_server):
    """Static files are named by their content and kept for good: a phone coming back to a
    match page (a new visit, not a reload) fetches the page and nothing else."""
    from .test_two_scorers import start_wheel

    start_wheel(page, live_server)
    match_url = page.url
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cached: set[str] = set()  # requests the phone answered from its memory cache
    fetched: list[str] = []  # what went to the server: answered by it, not by the phone's cache
    cdp.on("Network.requestServedFromCache", lambda event: cached.add(event["requestId"]))
    cdp.on("Network.responseReceived", lambda event: fetched.append(event["response"]["url"])
           if event["requestId"] not in cached and not event["response"].get("fromDiskCache") else None)
    page.goto(live_server + "/")
    page.goto(match_url)
    expect(page.locator("#hand-form")).to_be_visible()
    page.wait_for_load_state("load")
    assert [url for url in fetched if "/static/" in url] == []
    assert match_url in fetched  # the page itself, as it is now


def test_a_watcher_follows_hand_after_hand_from_the_parts_that_changed(phones, live_server):
    ann, watcher = watch(phones, live_server)
    answers: list[tuple[int, str]] = []
    watcher.on("response", lambda r: answers.append((r.status, r.headers.get("hx-reswap", "")))
               if BOARD.search(r.url) else None)
    for number in (1, 2, 3):
        fill_wheel(ann, "wyrms", "high", 5, [5, 4, 2])
        ann.get_by_role("button", name=f"Save hand {number}").click()
        expect(ann.locator(".notice")).to_contain_text(f"Hand {number} saved: ")
        expect(watcher.locator("#hand-table tbody.hand")).to_have_count(number, timeout=10000)
        for seat in range(3):  # the watcher's totals are the scorer's
            total = ann.locator(f'.total[data-seat="{seat}"]').inner_text()
            expect(watcher.locator(f'.total[data-seat="{seat}"]')).to_have_text(total)
    expect(watcher.locator(f"#hand-{3}")).to_be_visible()
    assert (200, "none") in answers  # hands 2 and 3 came as the parts they changed
    expect(watcher.locator("form")).to_have_count(0)
    expect(watcher.locator("#live-updated")).not_to_have_text("")
    # and the page goes on polling from the version it now shows
    watcher.wait_for_timeout(3500)
    assert answers[-1][0] == 304
