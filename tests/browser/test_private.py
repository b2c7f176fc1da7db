"""Private by default, in Chromium at phone size: a phone sees a match only after
opening one of its links; its history lists it, pages and searches; a scorer ends a
link from the Share section and the phone that came in through it loses the match."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import SCREENSHOTS
from .test_two_scorers import settle, share_links, start_wheel


def test_a_match_is_private_until_its_link_is_opened_and_a_new_link_ends_the_old(phones, live_server):
    phones.allow("status of 404")  # the guest is shown "Not found" on purpose, four times
    scorer, guest = phones(), phones()
    start_wheel(scorer, live_server)
    match_url = scorer.url
    _, watcher_url = share_links(scorer)

    guest.goto(match_url)
    expect(guest.locator("h1")).to_have_text("Not found")
    guest.goto(watcher_url)
    expect(guest.locator(".totals, #match-live").first).to_be_visible()
    guest.goto(f"{live_server}/")
    item = guest.locator(".match-item", has_text="Ann, Bob, Cy")
    expect(item).to_contain_text("watching")
    guest.goto(match_url)  # from now on the match's own address opens too
    expect(guest.locator("h1")).not_to_have_text("Not found")

    scorer.locator("summary", has_text="Lost a phone, or a link went to the wrong people?").click()
    scorer.get_by_role("button", name="New watcher link").click()
    scorer.wait_for_url(re.compile(r"/matches/\d+$"))
    expect(scorer.locator("#match-notice, .notice").first).to_contain_text(
        "New watcher link made: the old one no longer opens this match. "
        "1 other phone that came in through it can no longer see this match.")
    SCREENSHOTS.mkdir(exist_ok=True)
    scorer.screenshot(path=str(SCREENSHOTS / "private-new-link-390.png"), full_page=False, caret="initial")

    guest.reload()
    expect(guest.locator("h1")).to_have_text("Not found")
    guest.goto(watcher_url)
    expect(guest.locator("h1")).to_have_text("Not found")
    guest.goto(f"{live_server}/")
    expect(guest.locator(".match-item", has_text="Ann, Bob, Cy")).to_have_count(0)
    _, new_watcher_url = share_links(scorer)
    assert new_watcher_url != watcher_url


def test_the_history_searches_and_prints_ticked_matches(phones, live_server):
    phone = phones()
    start_wheel(phone, live_server)
    phone.goto(f"{live_server}/")
    phone.fill("#q", "ANN")
    phone.get_by_role("button", name="Search").click()
    settle(phone)
    expect(phone.locator(".search-count")).to_contain_text("with a player called “ANN”")
    expect(phone.locator(".match-item").first).to_contain_text("Ann, Bob, Cy")
    phone.screenshot(path=str(SCREENSHOTS / "history-search-390.png"), full_page=True, caret="initial")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    phone.locator(".match-item .tick input").first.check()
    phone.get_by_role("button", name="Print ticked matches").click()
    phone.wait_for_url(re.compile(r"/print\?match=\d+"))
    expect(phone.locator("body")).to_contain_text("Ann")
