"""Issue 28, in real Chromium at 390 x 844 against the real server: a scorer's page whose poll
finds a hand saved on another phone gets only the parts that changed (out-of-band swaps),
and then reads as the whole page does, what its scorer was typing kept."""
from __future__ import annotations

from playwright.sync_api import expect

from .conftest import SCREENSHOTS
from .test_layout import axe_check
from .test_table_app import wait_htmx
from .test_two_scorers import fill_wheel, share_links, start_wheel

# the parts of a scorer's page that a new hand changes, as a person reads them
READ = ("#totals", "#needs-panel", "#match-guide", "#hand-table", "#record h2", "#undo-link")


def texts(page) -> dict[str, str]:
    return {part: " ".join(page.locator(part).inner_text().split()) for part in READ}


def test_a_scorers_poll_brings_only_the_new_hand_and_the_page_reads_as_the_whole_one(phones, live_server):
    ann = phones()
    start_wheel(ann, live_server)
    scorer_url, _ = share_links(ann)
    fill_wheel(ann, "wyrms", "high", 5, [5, 4, 2])
    ann.get_by_role("button", name="Save hand 1").click()
    expect(ann.locator("#hand-1")).to_be_visible()

    bob = phones()
    answers: list[tuple[int, str | None, str]] = []
    bob.on("response", lambda r: answers.append((r.status, r.headers.get("hx-reswap"), r.text()))
           if "/live" in r.url and r.status == 200 else None)
    bob.goto(scorer_url)
    expect(bob.locator("#hand-1")).to_be_visible()
    wait_htmx(bob, "#preview")
    # Bob is half-way through the next hand when Ann saves it
    bob.fill('#record input[name="bid"]', "3")
    bob.fill('#record input[name="tricks_0"]', "3")
    bob.locator('#record input[name="tricks_0"]').focus()

    wait_htmx(ann, "#preview")
    fill_wheel(ann, "knots", "low", 5, [6, 3, 2])
    ann.get_by_role("button", name="Save hand 2").click()
    expect(ann.locator("#hand-2")).to_be_visible()
    ann_total = ann.locator('.total[data-seat="0"]').inner_text()

    # Bob's next poll: the new row, the totals, the next hand's form
    expect(bob.locator("#hand-2")).to_be_visible(timeout=10000)
    expect(bob.locator('.total[data-seat="0"]')).to_have_text(ann_total)
    expect(bob.locator("#record h2")).to_contain_text("Hand 3")
    expect(bob.locator("#match-notice .notice")).to_contain_text("Hand 2 was saved on another phone")
    assert [(status, how) for status, how, _ in answers] == [(200, "none")]  # the parts, not the page
    assert 'id="match-live"' not in answers[0][2] and 'id="hand-1"' not in answers[0][2]
    expect(bob.locator("#hand-table tbody.hand")).to_have_count(2)
    # what Bob typed is kept as hand 3's, the caret still in its box
    expect(bob.locator("#hand-form .draft-note.moved")).to_contain_text("kept below as hand 3")
    expect(bob.locator('#record input[name="bid"]')).to_have_value("3")
    expect(bob.locator('#record input[name="tricks_0"]')).to_have_value("3")
    assert bob.evaluate("document.activeElement && document.activeElement.name") == "tricks_0"

    # the page after the swaps reads as the whole page drawn afresh on the same phone
    fresh = bob.context.new_page()
    fresh.goto(bob.url.split("#")[0])
    expect(fresh.locator("#hand-2")).to_be_visible()
    assert texts(bob) == texts(fresh)
    bob.locator("#chart").scroll_into_view_if_needed()  # the chart comes when it is seen
    expect(bob.locator("#chart svg")).to_be_visible()
    assert " ".join(bob.locator("#chart").inner_text().split()) == " ".join(fresh.locator("#chart").inner_text().split())
    assert not [v for v in axe_check(bob) if v.split(":")[0] in ("serious", "critical")], axe_check(bob)
    SCREENSHOTS.mkdir(exist_ok=True)
    bob.locator("#totals").scroll_into_view_if_needed()
    bob.screenshot(path=str(SCREENSHOTS / "changed-poll-parts.png"), full_page=True, caret="initial")
