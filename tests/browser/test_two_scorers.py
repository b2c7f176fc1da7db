"""Two phones scoring one match and a third watching, in separate browser
contexts (separate cookies, as separate phones) against the real server."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import SCREENSHOTS


def settle(page) -> None:
    page.wait_for_timeout(400)
    page.wait_for_load_state("networkidle")


def fill_wheel(page, trump: str, mode: str, bid: int, tricks: list[int]) -> None:
    page.locator("#record label.chip", has_text=trump).click()
    page.locator("#record label.chip", has_text=re.compile(f"^{mode}$")).click()
    page.fill('#record input[name="bid"]', str(bid))
    for seat, count in enumerate(tricks):
        page.fill(f'#record input[name="tricks_{seat}"]', str(count))
    settle(page)


def start_wheel(page, live_server) -> None:
    page.goto(f"{live_server}/matches/new?game=third_wheel")
    for i, name in enumerate(["Ann", "Bob", "Cy"]):
        page.fill(f"#player_{i}", name)
    page.select_option("#first_dealer", "0")
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/matches/\d+$"))


def share_links(page) -> tuple[str, str]:
    page.locator("summary", has_text="Share this match").click()
    return page.locator("#scorer-url").input_value(), page.locator("#watcher-url").input_value()


def test_two_scorers_and_a_watcher(phones, live_server):
    ann = phones()
    start_wheel(ann, live_server)
    scorer_url, watcher_url = share_links(ann)
    assert re.fullmatch(re.escape(live_server) + r"/s/[A-Za-z0-9_-]{22}", scorer_url)
    assert re.fullmatch(re.escape(live_server) + r"/w/[A-Za-z0-9_-]{22}", watcher_url)
    SCREENSHOTS.mkdir(exist_ok=True)
    ann.screenshot(path=str(SCREENSHOTS / "share-scorer.png"), full_page=True, caret="initial")

    bob = phones()
    bob.goto(scorer_url)
    expect(bob.locator(".notice")).to_contain_text("This phone can now record and correct hands")
    expect(bob.locator("#hand-form")).to_be_visible()

    watcher = phones()
    watcher.goto(watcher_url)
    expect(watcher.locator(".live-status")).to_contain_text("Watching: the score updates by itself.")
    expect(watcher.locator("form")).to_have_count(0)
    expect(watcher.locator("#scorer-url")).to_have_count(0)
    expect(watcher.locator(".live-checked")).to_contain_text("checked", timeout=8000)  # polling runs
    watcher.wait_for_timeout(3500)  # another unchanged poll: a 304 must leave the scoreboard in place
    expect(watcher.locator("#totals")).to_be_visible()
    expect(watcher.locator("#match-live[hx-get]")).to_have_count(1)

    # both phones type hand 1; Ann saves first, and Bob saves before his page has heard of it
    # (its poll held back: tests/browser/test_live.py has the page following Ann's save)
    polls = re.compile(r"/matches/\d+/live")
    bob.route(polls, lambda route: route.fulfill(status=304))
    fill_wheel(ann, "wyrms", "high", 5, [5, 4, 2])
    fill_wheel(bob, "moons", "low", 3, [3, 2, 6])
    ann.get_by_role("button", name="Save hand 1").click()
    expect(ann.locator('.total[data-seat="0"]')).to_have_text("9")
    bob.get_by_role("button", name="Save hand 1").click()
    alert = bob.locator("#record .alert")
    expect(alert).to_contain_text("Hand 1 was saved on another phone while you were typing: Ann +9, Bob 0, Cy +2.")
    expect(alert).to_contain_text("Your entry is still below")
    expect(bob.locator('#record input[name="bid"]')).to_have_value("3")
    expect(bob.locator('#record input[name="tricks_2"]')).to_have_value("6")
    expect(bob.locator("#record h2")).to_contain_text("Hand 2")
    expect(bob.locator('.total[data-seat="0"]')).to_have_text("9")  # the scoreboard shows Ann's save
    bob.screenshot(path=str(SCREENSHOTS / "two-scorers-conflict.png"), full_page=True, caret="initial")
    bob.unroute(polls)

    # the watcher sees Ann's hand without reloading
    expect(watcher.locator('.total[data-seat="0"]')).to_have_text("9", timeout=10000)

    # Bob checks his entry and saves again: it becomes hand 2
    settle(bob)
    bob.get_by_role("button", name="Save hand 2").click()
    expect(bob.locator(".notice")).to_contain_text("Hand 2 saved: ")
    expect(bob.locator("tbody.hand")).to_have_count(2)
    expect(watcher.locator("tbody.hand")).to_have_count(2, timeout=10000)
    watcher.screenshot(path=str(SCREENSHOTS / "watcher-live.png"), full_page=True, caret="initial")

    # the watcher cannot open the write pages
    phones.allow("status of 403 (FORBIDDEN)")
    watcher.goto(re.sub(r"/w/.*", "", watcher_url) + ann.url.split(live_server)[1] + "/undo")
    expect(watcher.locator("h1")).to_have_text("Not allowed")
    expect(watcher.locator(".error-page")).to_contain_text("This is a watcher link")


def test_a_double_tap_without_javascript_saves_one_hand(phones, live_server):
    ann = phones()
    start_wheel(ann, live_server)
    scorer_url, _ = share_links(ann)
    plain = phones(js=False)  # no htmx to disable the button: both taps reach the server
    plain.goto(scorer_url)
    plain.locator("#record label.chip", has_text="wyrms").click()
    plain.locator("#record label.chip", has_text=re.compile("^high$")).click()
    plain.fill('#record input[name="bid"]', "5")
    for seat, count in enumerate([5, 4, 2]):
        plain.fill(f'#record input[name="tricks_{seat}"]', str(count))
    plain.get_by_role("button", name="Save hand 1").dblclick()
    plain.wait_for_load_state("load")
    expect(plain.locator(".notice")).to_contain_text("Hand 1 saved: ")
    ann.reload()
    expect(ann.locator("tbody.hand")).to_have_count(1)
    expect(ann.locator('.total[data-seat="0"]')).to_have_text("9")
    log = ann.url + "/log"
    ann.goto(log)
    expect(ann.locator(".log-entry.action-save")).to_have_count(1)
