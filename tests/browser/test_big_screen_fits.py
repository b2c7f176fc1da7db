"""Issue 26 item 4, in real Chromium: the big screen fits its screen. Eight players with
the longest names the rule allows (40 characters without a space, in Latin, Arabic,
Chinese and emoji), a shared win between two of them, on a TV and a tablet (1280 x 720,
1024 x 768, 1920 x 1080): nothing to scroll (a TV cannot), every player's row and the
winners' line on the screen. Also mid-match, with the next dealer and the seat picture
beside the standings. Screenshots go to screenshots/ (git-ignored)."""
from __future__ import annotations

import pytest

from scorekeeper.engine import Match
from scorekeeper.matchfile import dumps

from .conftest import SCREENSHOTS, import_file
from .layout import layout_problems
from .test_layout import LONG

SCREENS = [{"width": 1280, "height": 720}, {"width": 1024, "height": 768}, {"width": 1920, "height": 1080}]
# rules.md section 5: two hands, then the best total wins and a tie for it shares the win:
# LONG[0] and LONG[1] both have 100
SETTINGS = {"name": "Hearts at the club", "target": 0, "low_wins": False, "hand_count": 2}
FIRST = {"points": [60, 60, 10, 20, 30, 40, 50, 0]}
SHARED = Match("score_pad", LONG, SETTINGS, 0, [FIRST, {"points": [40, 40, 5, 9, 2, 1, 0, 7]}])
GOING_ON = Match("score_pad", LONG, SETTINGS, 0, [FIRST])

# What a person at the screen would miss: the page's size beyond the screen's, and each
# row of the standings, the winners' line and the seat picture that ends below or right
# of the screen (or above or left of it).
FITS = r"""() => {
  const page = document.scrollingElement;
  const out = [];
  if (page.scrollHeight > innerHeight) out.push("scrolls down: " + page.scrollHeight + " px tall in " + innerHeight);
  if (page.scrollWidth > innerWidth) out.push("scrolls sideways: " + page.scrollWidth + " px wide in " + innerWidth);
  const seen = [...document.querySelectorAll(".screen-standings li, .screen-winner, .screen-title, .screen-next, svg.seats, .screen-status")];
  for (const el of seen) {
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5)
      out.push("off the screen: <" + el.tagName.toLowerCase() + " class=" + el.className.baseVal + el.className + "> "
               + Math.round(r.left) + "," + Math.round(r.top) + " to " + Math.round(r.right) + "," + Math.round(r.bottom));
  }
  return out;
}"""


@pytest.mark.parametrize("match", [SHARED, GOING_ON], ids=["shared win", "mid-match"])
@pytest.mark.parametrize("size", SCREENS, ids=lambda s: f"{s['width']}x{s['height']}")
def test_eight_of_the_longest_names_and_a_shared_win_fit_the_big_screen(browser, live_server, size, match):
    context = browser.new_context(viewport=size)
    try:
        page = context.new_page()
        match_id = import_file(page, live_server, dumps(match))
        page.goto(f"{live_server}/matches/{match_id}/screen")
        SCREENSHOTS.mkdir(exist_ok=True)
        ended = "shared" if match is SHARED else "going-on"
        page.screenshot(path=str(SCREENSHOTS / f"big-screen-8-longest-{ended}-{size['width']}x{size['height']}.png"))
        assert page.locator(".screen-standings li").count() == 8
        if match is SHARED:
            assert page.locator(".screen-winner").inner_text().endswith("share the win")
        else:
            assert page.locator("svg.seats").count() == 1
        assert page.evaluate(FITS) == []
        assert layout_problems(page) == []  # nothing spilling out of its box, no word broken inside
    finally:
        context.close()
