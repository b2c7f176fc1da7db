"""Issue 25, finding 9, in real Chromium at 390 x 844: a right-to-left name never reorders
the sentence or the score beside it (rules.md, "Player names": every shown name is
isolated). Checked where the eye reads it: each score is drawn to the right of its own
name, as the left-to-right sentence says it, in the save notice and the share line."""
from __future__ import annotations

from playwright.sync_api import expect

from .test_layout import axe_check
from .test_table_app import choose, save_hand, start_match, type_numbers

DANA = "\u05d3\u05e0\u05d4"  # Hebrew
ALI = "\u0639\u0644\u064a"  # Arabic

# Where on screen a name and the number after it are drawn: a Range over each in the
# element's text (the text holds the isolates around a right-to-left name).
DRAWN = """([selector, name]) => {
  const element = document.querySelector(selector);
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  let text = "", nodes = [];
  while (walker.nextNode()) { nodes.push([walker.currentNode, text.length]); text += walker.currentNode.data; }
  const at = text.indexOf(name);
  const tail = text.slice(at + name.length).match(/^[\\u2069\\s\\u00a0]*([+\\-]?\\d+)/);
  if (at < 0 || !tail) return null;
  const numberAt = at + name.length + tail[0].length - tail[1].length;
  const rect = (start, end) => {
    const range = document.createRange();
    const place = (offset) => { const [node, from] = nodes.filter(([n, f]) => f <= offset).pop(); return [node, offset - from]; };
    range.setStart(...place(start)); range.setEnd(...place(end));
    const r = range.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top};
  };
  return {text: text, name: rect(at, at + name.length), number: rect(numberAt, numberAt + tail[1].length),
          numberText: tail[1]};
}"""


def _reads_in_order(page, selector: str, name: str) -> str:
    drawn = page.evaluate(DRAWN, [selector, name])
    assert drawn is not None, (selector, name)
    name_box, number_box = drawn["name"], drawn["number"]
    # the score is drawn after its name: right of it on the same line, or on the next line
    if abs(name_box["top"] - number_box["top"]) < 4:
        assert number_box["left"] >= name_box["right"] - 1, drawn
    else:
        assert number_box["top"] > name_box["top"], drawn
    assert f"\u2068{name}\u2069" in drawn["text"], drawn["text"]  # isolated in the text itself
    return drawn["numberText"]


def test_a_right_to_left_name_keeps_each_score_after_its_name(page, live_server, screenshot):
    start_match(page, live_server, "third_wheel", ["Ann", DANA, ALI], {})
    for name, value in (("trump", "wyrms"), ("mode", "high")):
        choose(page, name, value)
    type_numbers(page, {"bid": 5, "tricks_0": 5, "tricks_1": 4, "tricks_2": 2})
    save_hand(page, 1, f"Ann +9, {DANA} 0, {ALI} +2")
    notice = page.locator("#match-notice .notice")
    expect(notice).to_contain_text("Totals: Ann\u00a09, ")
    # rules.md's worked example: 9, 0 and 2; each drawn right of its own name
    assert _reads_in_order(page, "#match-notice .notice", DANA) == "0"
    assert _reads_in_order(page, "#match-notice .notice", ALI) == "+2"
    screenshot("rtl-names-notice", full_page=False)
    page.locator("#game-over, .share-result, details:has(#result-text)").first.evaluate(
        "e => { if (e.tagName === 'DETAILS') e.open = true; }")
    share = page.locator("#result-text")
    share.scroll_into_view_if_needed()
    expect(share).to_be_visible()
    assert _reads_in_order(page, "#result-text", ALI) == "2"
    assert _reads_in_order(page, "#result-text", DANA) == "0"
    screenshot("rtl-names-share-line", full_page=False)
    assert axe_check(page) == []  # the <bdi>s and isolates leave nothing serious for axe
