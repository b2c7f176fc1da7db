"""Layout checks shared by the browser tests: nothing scrolls sideways and no word is
broken inside, at 320 px, at 200% text (the browser's own text-size setting, as a
reader sets it) and in landscape."""
from __future__ import annotations

NARROW = {"width": 320, "height": 640}
PHONE = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}
TABLET = {"width": 1024, "height": 768}

# Every word of visible text, each measured as a Range: a word broken across two lines
# has two boxes. Words split at hyphens and slashes may wrap there; links and codes
# shown as text (code, .share-url, .wide inputs) may break anywhere.
BROKEN_WORDS = r"""() => {
  const skip = "script, style, code, .visually-hidden, option, select, textarea, svg, [hidden]";
  const out = [];
  /* Chinese, Japanese, Korean and emoji break between any two characters (Unicode's line
     breaking), as their readers expect */
  const ANYWHERE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Extended_Pictographic}]/u;
  /* a name-sized word (16 characters or more) wider than the line it is on (a 40-letter name
     on a phone) must break somewhere; a word of the page's own never does */
  const wider = (rects, el, node) => {
    const display = getComputedStyle(el).display;
    if (/flex|grid/.test(display)) {  /* the text is a flex or grid item of its own: its box is its line */
      const whole = document.createRange();
      whole.selectNodeContents(node);
      return rects.reduce((sum, r) => sum + r.width, 0) > whole.getBoundingClientRect().width - 2;
    }
    let block = el;
    while (block.parentElement && getComputedStyle(block).display === "inline") block = block.parentElement;
    const style = getComputedStyle(block);
    const line = block.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return rects.reduce((sum, r) => sum + r.width, 0) > line - 2;
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let node;
  while ((node = walker.nextNode())) {
    const el = node.parentElement;
    if (!el || el.closest(skip) || !el.getClientRects().length) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.display === "none") continue;
    const text = node.textContent;
    const re = /[^\s\-\/\u2010\u2013\u2014]+/g;
    let m;
    while ((m = re.exec(text))) {
      if (m[0].length < 2) continue;
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const rects = [...range.getClientRects()].filter(r => r.width > 0 && r.height > 0);
      const tops = new Set(rects.map(r => Math.round(r.top)));
      if (tops.size < 2 || (m[0].length >= 16 && wider(rects, el, node)) || ANYWHERE.test(m[0])) continue;
      out.push(m[0] + " in <" + el.tagName.toLowerCase() + " class=" + el.className + ">");
    }
  }
  return out;
}"""

# Elements whose content is wider than their box (clipped or spilling), in the visible page.
# A box that scrolls sideways on purpose (a score sheet's grid on a phone, its hand numbers
# kept in view) is not cut: what is inside it is reached by swiping it.
OVERFLOWING = r"""() => {
  const out = [];
  const swipes = el => { const x = getComputedStyle(el).overflowX; return x === "auto" || x === "scroll"; };
  const inSwipe = el => { for (let a = el.parentElement; a; a = a.parentElement) if (swipes(a)) return true; return false; };
  for (const el of document.querySelectorAll("main *, .topbar *")) {
    if (!el.getClientRects().length || el.closest(".visually-hidden, svg")) continue;
    if (swipes(el) || inSwipe(el)) continue;
    /* inside a box that ends a long line with "…" on purpose (the big screen's names) */
    if (el.parentElement && el.parentElement.closest("*") && [...function* () { for (let a = el.parentElement; a; a = a.parentElement) yield a; }()]
        .some(a => getComputedStyle(a).textOverflow === "ellipsis" && getComputedStyle(a).overflowX === "hidden")) continue;
    const shut = el.closest("details:not([open])");
    if (shut && !el.closest("summary")) continue;  /* inside a closed disclosure: not shown */
    const style = getComputedStyle(el);
    const own = el.getBoundingClientRect();
    if (own.width <= 1 || own.height <= 1) continue;  /* hidden for the eye, kept for screen readers */
    const card = el.parentElement && el.parentElement.closest(".card");
    /* a control past its card's padding on the right (tables set full width bleed on purpose) */
    const cardBox = card && card.getBoundingClientRect(), cardStyle = card && getComputedStyle(card);
    if (card && el.matches("input, select, textarea, button, .button, .chip") && style.position !== "fixed"
        && own.left >= cardBox.left + parseFloat(cardStyle.paddingLeft) - 1
        && own.right > cardBox.right - parseFloat(cardStyle.paddingRight) + 1)
      out.push("past its card's edge: <" + el.tagName.toLowerCase() + " class=" + el.className + " name="
             + (el.getAttribute("name") || "") + "> " + (el.textContent || "").trim().slice(0, 30));
    if (style.overflowX === "visible" && style.overflow === "visible") {
      const box = el.getBoundingClientRect();
      if (el.matches("button, .button, .chip > span") && el.scrollWidth > el.clientWidth + 1)
        out.push("spills out of its button: <" + el.tagName.toLowerCase() + " class=" + el.className + "> "
                 + (el.textContent || "").trim().slice(0, 30));
      if (box.right > document.documentElement.clientWidth + 1 && style.position !== "fixed")
        out.push("past the right edge: <" + el.tagName.toLowerCase() + " class=" + el.className + "> "
                 + (el.textContent || "").trim().slice(0, 30));
      continue;
    }
    if (el.scrollWidth > el.clientWidth + 1 && style.textOverflow !== "ellipsis" && el.tagName !== "INPUT"
        && el.tagName !== "SELECT" && el.tagName !== "TEXTAREA")
      out.push("clipped: <" + el.tagName.toLowerCase() + " class=" + el.className + "> " + (el.textContent || "").trim().slice(0, 30));
  }
  return out.slice(0, 20);
}"""


# The seat picture (an SVG, which the checks above skip): inside the page's width, and its
# names drawn at least 11 px high however far a narrow screen shrinks it.
SEAT_PICTURES = r"""() => {
  const out = [];
  for (const svg of document.querySelectorAll("svg.seats")) {
    const box = svg.getBoundingClientRect();
    if (box.left < -1 || box.right > document.documentElement.clientWidth + 1)
      out.push("seat picture past the edge: " + Math.round(box.left) + " to " + Math.round(box.right) + " px");
    for (const name of svg.querySelectorAll("text.name")) {
      const height = name.getBoundingClientRect().height;
      if (height < 11) out.push("seat picture's name " + name.textContent + " only " + height.toFixed(1) + " px high");
    }
  }
  return out;
}"""


_SESSIONS: dict = {}


def text_size(page, percent: int) -> None:
    """The browser's text-size setting (what a reader with large text sets), through the
    DevTools protocol: 100 is Chromium's default 16 px. The page's rem and em follow it."""
    session = page.context.new_cdp_session(page)
    session.send("Page.setFontSizes", {"fontSizes": {"standard": 16 * percent // 100, "fixed": 13 * percent // 100}})
    _SESSIONS[page] = session  # the setting lasts as long as its DevTools session
    page.reload()
    assert page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)") >= 17 * percent / 100 - 1


def layout_problems(page) -> list[str]:
    """Everything wrong with the page's layout as a user would notice it (empty: fine)."""
    # clientWidth, not innerWidth: a phone (is_mobile) widens its layout viewport to fit
    # a page that is too wide, and innerWidth then grows with the page
    width = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth,"
                          " window.innerWidth]")
    problems = [] if width[0] <= width[1] and width[2] <= width[1] + 1 else [
        f"scrolls sideways: {width[0]} px wide in {width[1]} px"]
    problems += [f"word broken inside: {w}" for w in page.evaluate(BROKEN_WORDS)]
    problems += page.evaluate(OVERFLOWING)
    problems += page.evaluate(SEAT_PICTURES)
    return problems


# Every control a thumb taps (a link, a button, a box, a chip, a disclosure) that is shown
# must take the tap itself: at its middle, nothing else (a box spilling over it, a sticky
# bar) is on top. The page is scrolled through half a screen at a time and each control is
# tried while its middle is in the middle band of the screen (clear of a sticky top bar).
COVERED = r"""() => {
  const controls = [...document.querySelectorAll(
    "main a[href], main button, main input:not([type=hidden]), main select, main textarea, main summary, main label.chip")]
    .filter(el => el.getClientRects().length && !el.closest(".visually-hidden, details:not([open]) > :not(summary)")
            && getComputedStyle(el).visibility !== "hidden");
  const takes = (el, hit) => !!hit && (el.contains(hit) || hit.contains(el) && hit.closest("label, a, button, summary") !== null
                                        && (hit.closest("label, a, button, summary").contains(el)));
  const out = new Set(), start = scrollY, height = innerHeight;
  const tried = new Set();
  for (let y = 0; y <= document.scrollingElement.scrollHeight; y += height / 2) {
    window.scrollTo(0, y);
    for (const el of controls) {
      if (tried.has(el)) continue;
      const r = el.getClientRects()[0];  /* a link over two lines: the middle of its first line */
      if (r.width < 2 || r.height < 2) continue;  /* drawn by its label (a chip's radio) */
      const x = r.left + r.width / 2, mid = r.top + r.height / 2;
      if (mid < height * 0.2 || mid >= height * 0.8) continue;
      tried.add(el);
      if (x < 0 || x > document.documentElement.clientWidth) {
        out.add("off the screen sideways: <" + el.tagName.toLowerCase() + "> " + (el.textContent || el.name || "").trim().slice(0, 30));
        continue;
      }
      const hit = document.elementFromPoint(x, mid);
      /* under a bar kept in view on purpose (the referee's trick): reached by scrolling on */
      let over = hit;
      while (over && !["sticky", "fixed"].includes(getComputedStyle(over).position)) over = over.parentElement;
      if (over && !over.contains(el)) { tried.delete(el); continue; }
      if (!takes(el, hit))
        out.add("covered: <" + el.tagName.toLowerCase() + " name=" + (el.getAttribute("name") || "") + "> "
                + (el.textContent || "").trim().slice(0, 30) + " under <" + (hit ? hit.tagName.toLowerCase() + " class=" + hit.className : "nothing") + ">");
    }
  }
  window.scrollTo(0, start);
  return [...out].slice(0, 10);
}"""


def covered_controls(page) -> list[str]:
    """The shown controls a tap at their middle would not reach (empty: every one is reachable)."""
    return page.evaluate(COVERED)
