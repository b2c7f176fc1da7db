"""The table's story in Chromium at phone size: a regular group plays three matches of
one game (each started with Play again from the last), then starts a fourth from the
roster, then reads a player's stats; axe-core finds nothing serious on the new screens."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import SCREENSHOTS
from .test_print import axe_check
from .test_two_scorers import start_wheel

HAND = {"trump": "wyrms", "mode": "high", "bid": "5", "tricks_0": "5", "tricks_1": "4", "tricks_2": "2"}


def record_hand(phone, tricks: tuple[int, int, int], bid: int) -> None:
    """Save one Third Wheel hand with the page's own form tokens (the hand form itself
    has its own browser tests); the page is then reloaded."""
    hidden = {name: phone.locator(f"#record input[name='{name}']").first.input_value()
              for name in ("csrf_token", "version", "request_key")}
    data = dict(HAND, bid=str(bid), tricks_0=str(tricks[0]), tricks_1=str(tricks[1]), tricks_2=str(tricks[2]),
                **hidden)
    answer = phone.request.post(phone.url + "/hands", form=data, max_redirects=0)
    assert answer.status == 303, answer.text()[:500]
    phone.reload()


def fits(phone) -> bool:
    return phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_regular_group_plays_again_uses_the_roster_and_reads_the_stats(phones, live_server):
    phone = phones()
    SCREENSHOTS.mkdir(exist_ok=True)
    start_wheel(phone, live_server)  # Ann deals first; 2 deals each, target 33
    first = phone.url
    # the needs panel while the match is on
    phone.locator("summary", has_text="What each player needs").click()
    expect(phone.locator(".needs")).to_contain_text("needs 33 more to reach 33")
    record_hand(phone, (11, 0, 0), 11)  # Ann deals and makes 11: 22
    record_hand(phone, (0, 11, 0), 11)  # Bob deals and makes 11: 22
    phone.locator("summary", has_text="What each player needs").click()
    expect(phone.locator(".needs")).to_contain_text("is 22 behind Ann and Bob")
    expect(phone.locator(".needs")).to_contain_text("4 hands left if the deal goes round in turn")
    phone.screenshot(path=str(SCREENSHOTS / "story-needs-390.png"), full_page=True, caret="initial")
    assert fits(phone)
    record_hand(phone, (0, 11, 0), 0)  # Cy deals, bids 0, takes none: Cy 11; Ann... game goes on
    record_hand(phone, (11, 0, 0), 11)  # Ann deals again, makes 11: 44, past 33: game over
    expect(phone.locator("#game-over")).to_contain_text("Ann wins")
    again = phone.locator("#play-again")
    expect(again).to_be_visible()
    expect(again.locator("select")).to_have_value("1")  # Ann dealt first: Bob now
    phone.screenshot(path=str(SCREENSHOTS / "story-play-again-390.png"), full_page=True, caret="initial")
    assert fits(phone)
    assert axe_check(phone) == []

    for number in (2, 3):  # one tap each
        before = phone.url
        phone.locator("#play-again").get_by_role("button", name="Play again").click()
        phone.wait_for_url(lambda url, before=before: url != before and re.search(r"/matches/\d+$", url) is not None)
        expect(phone.locator("a[rel=prev]")).to_be_visible()
        expect(phone.locator("#totals")).to_contain_text("Cy")
        expect(phone.locator("#play-again")).to_have_count(0)  # nothing to play again before a hand
        if number == 2:
            record_hand(phone, (0, 11, 0), 11)  # Bob deals match 2's first hand
    expect(phone.locator("#record")).to_contain_text("Cy")  # the third match: Cy deals first
    before = phone.url
    phone.locator("a[rel=prev]").click()
    phone.wait_for_url(lambda url: url != before)
    expect(phone.locator("a[rel=next]")).to_be_visible()

    # the roster: the last table as a chip, the names offered as you type
    phone.goto(f"{live_server}/matches/new")
    chip = phone.locator(".table-chip", has_text="Ann, Bob, Cy")
    expect(chip).to_have_count(1)
    assert phone.locator("#known-players option").evaluate_all("os => os.map(o => o.value)") == ["Ann", "Bob", "Cy"]
    assert phone.locator("#player_0").get_attribute("list") == "known-players"
    phone.screenshot(path=str(SCREENSHOTS / "story-roster-390.png"), full_page=True, caret="initial")
    assert fits(phone)
    assert axe_check(phone) == []
    chip.click()
    phone.wait_for_url(re.compile(r"player_0=Ann"))
    expect(phone.locator("#player_2")).to_have_value("Cy")

    # the stats, from a name on the scoreboard
    phone.goto(first)
    phone.locator("#totals a", has_text="Ann").click()
    phone.wait_for_url(re.compile(r"/stats\?player=Ann"))
    expect(phone.locator("h1")).to_have_text("Ann")
    expect(phone.locator(".stats").first).to_contain_text("Win rate")
    phone.screenshot(path=str(SCREENSHOTS / "story-stats-390.png"), full_page=True, caret="initial")
    assert fits(phone)
    assert axe_check(phone) == []
    phone.get_by_role("button", name="Compare").click()
    phone.wait_for_url(re.compile(r"/stats/versus"))
    expect(phone.locator("h1")).to_contain_text("Ann v")
    phone.screenshot(path=str(SCREENSHOTS / "story-versus-390.png"), full_page=True, caret="initial")
    assert fits(phone)
    assert axe_check(phone) == []


def test_the_new_screens_fit_320_px_with_text_at_200_percent(phones, live_server):
    phone = phones()
    phone.set_viewport_size({"width": 320, "height": 700})
    start_wheel(phone, live_server)
    phone.evaluate("document.documentElement.style.fontSize = '200%'")
    assert fits(phone), "match page"
    phone.goto(f"{live_server}/matches/new")
    phone.evaluate("document.documentElement.style.fontSize = '200%'")
    phone.screenshot(path=str(SCREENSHOTS / "story-roster-320-200.png"), full_page=True, caret="initial")
    assert fits(phone), "roster"
    phone.goto(f"{live_server}/stats?player=Ann")
    phone.evaluate("document.documentElement.style.fontSize = '200%'")
    phone.screenshot(path=str(SCREENSHOTS / "story-stats-320-200.png"), full_page=True, caret="initial")
    assert fits(phone), "stats"
