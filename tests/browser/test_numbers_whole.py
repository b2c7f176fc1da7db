"""Numbers read whole at 390 and 320 px: in a save's notice with a long name every number is
read whole on one line ("+26", never "+" at a line's end and "26" on the next), and a short
name stays with its number; a points box shows the widest number the score pad takes."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .test_table_app import wait_htmx

LONG = "Wolfeschlegelsteinhausenberger"

# every number of the notice's text, with the rects its characters are drawn in: one line each
NUMBERS_SPLIT = """() => {
  const notice = document.querySelector('.notice');
  const text = notice.firstChild;  // the sentence, before the "Next" link
  const split = [];
  for (const found of text.data.matchAll(/[+-]?\\d+/g)) {
    const range = document.createRange();
    range.setStart(text, found.index);
    range.setEnd(text, found.index + found[0].length);
    const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
    if (tops.size > 1) split.push(found[0]);
  }
  return split;
}"""


def score_pad_with_a_long_name(page, live_server: str, width: int) -> None:
    """A score pad match of the long name, Ann and Bob started as a user would, at ``width`` px."""
    page.set_viewport_size({"width": width, "height": 700})
    page.goto(live_server + "/matches/new")
    wait_htmx(page, "fieldset.game-choice")
    page.locator("label.game-card", has=page.locator('input[value="score_pad"]')).click()
    expect(page.locator("#game-fields .settings legend")).to_have_text("Score pad settings")
    for i, name in enumerate([LONG, "Ann", "Bob"]):
        page.fill(f"#player_{i}", name)
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/matches/\d+$"))
    wait_htmx(page, "#preview")


@pytest.mark.parametrize("width", [390, 320])
def test_the_notice_never_breaks_a_number_across_lines(page, live_server, screenshot, width):
    # at 390 px the long name fits on a line and its number does not fit beside it
    score_pad_with_a_long_name(page, live_server, width)
    for seat, points in enumerate(("26", "12", "-3")):
        page.fill(f'#hand-form input[name="points_{seat}"]', points)
    page.get_by_role("button", name="Save hand 1").click()
    notice = page.locator(".notice")
    expect(notice).to_contain_text("Hand 1 saved: ")
    screenshot(f"notice-long-name-{width}")
    assert page.evaluate(NUMBERS_SPLIT) == []
    # a short name and its number are one unit; the long one may wrap before its number
    text = notice.inner_text()
    assert "Ann\u00a0+12" in text and "Bob\u00a0-3" in text, text
    assert f"{LONG} +26" in text, text


# the widest number a box takes whole, read by the box's own width against its text's
BOX_SHOWS_ALL = "box => box.scrollWidth <= box.clientWidth"


@pytest.mark.parametrize("width", [390, 320])
def test_a_points_box_shows_the_widest_number_the_score_pad_takes(page, live_server, width):
    """-100000 and 100000 (the score pad's bounds, rules.md section 5) are seen whole in the
    box, so a refused 200000 is seen as typed beside its message."""
    score_pad_with_a_long_name(page, live_server, width)
    for seat, points in enumerate(("-100000", "100000", "200000")):
        box = page.locator(f'#hand-form input[name="points_{seat}"]')
        box.fill(points)
        assert box.evaluate(BOX_SHOWS_ALL), (points, box.evaluate("b => [b.scrollWidth, b.clientWidth]"))
