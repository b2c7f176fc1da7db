"""A long match on a phone: the scoreboard lists the last 50 hands and links to the
earlier ones, a page of 50 at a time; the earlier page reads as the scoreboard does."""
from __future__ import annotations

from scorekeeper.matchfile import dumps
from scorekeeper.samples import long_settings, random_match

from .conftest import import_file
from .layout import layout_problems
from .test_layout import axe_check
from .test_print import axe_check as print_axe_check  # the print pages' own rules (as test_print runs them)


def test_a_long_match_shows_its_last_hands_and_links_to_the_earlier_ones(page, live_server, screenshot):
    match = random_match("score_pad", 120, seed=9, players=4, settings=long_settings("score_pad", 10_000))
    match_id = import_file(page, live_server, dumps(match))
    hands = page.locator("#hand-table tbody.hand")
    assert hands.count() == 50
    assert hands.first.locator(".hand-no").inner_text() == "Hand 71"
    assert hands.last.locator(".hand-no").inner_text() == "Hand 120"
    page.locator(".earlier-hands").scroll_into_view_if_needed()
    screenshot("long-match-board", full_page=False)
    page.get_by_role("link", name="Earlier hands (1 to 70)").click()
    page.wait_for_url(f"{live_server}/matches/{match_id}/hands?page=2")
    assert page.get_by_role("heading", name="Hands 51 to 100").is_visible()
    shown = page.locator("#hand-table tbody.hand .hand-no").all_inner_texts()
    assert shown[0] == "Hand 51" and shown[-1] == "Hand 100" and len(shown) == 50
    screenshot("long-match-earlier-hands")
    assert layout_problems(page) == []
    assert axe_check(page) == []
    page.get_by_role("link", name="Earlier").click()
    page.wait_for_url(f"{live_server}/matches/{match_id}/hands?page=1")
    assert page.locator("#hand-table tbody.hand .hand-no").first.inner_text() == "Hand 1"
    page.get_by_role("link", name="← Back to the scoreboard").click()
    page.wait_for_url(f"{live_server}/matches/{match_id}")
    assert hands.last.locator(".hand-no").inner_text() == "Hand 120"


def test_a_long_evening_prints_part_by_part(page, live_server, screenshot):
    day = "2026-10-03"  # no other browser test uses it
    for seed in (1, 2, 3):
        match = random_match("score_pad", 120, seed=seed, players=4, settings=long_settings("score_pad", 10_000))
        match.date = day
        import_file(page, live_server, dumps(match))
    page.goto(f"{live_server}/print?date={day}&appendix=off")
    assert page.locator("article.sheet").count() == 1  # 120 + 120 hands is more than a part holds
    assert "part 1 of 3, match 1 of 3" in page.locator(".toolbar").inner_text()
    screenshot("long-evening-part-1", full_page=False)
    assert print_axe_check(page) == []
    page.get_by_role("link", name="Part 2 →").click()
    page.wait_for_url(f"{live_server}/print?date={day}&appendix=off&part=2")
    assert "part 2 of 3" in page.locator(".toolbar").inner_text()
    page.get_by_role("link", name="Part 3 →").click()
    assert page.get_by_role("link", name="← Part 2").is_visible()
    assert page.get_by_role("link", name="Part 4 →").count() == 0
