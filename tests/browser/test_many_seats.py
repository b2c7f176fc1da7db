"""Seven and eight at the table, in real Chromium: the seat picture with long names at
320 and 390 px (every game that seats so many: the score pad, the tests' own game), and
the big screen with six-digit totals for eight players on a phone held sideways, a
tablet and a TV. Screenshots go to screenshots/ (git-ignored) for a person to look at."""
from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from scorekeeper.engine import Match
from scorekeeper.games import GAMES
from scorekeeper.matchfile import dumps
from scorekeeper.samples import long_settings, random_match

from .conftest import SCREENSHOTS, import_file
from .layout import LANDSCAPE, NARROW, PHONE, TABLET, layout_problems, text_size

# Names a table writes down, long ones among them, and one truly long (a 17-letter word).
LONG = ["Alexandra Whitfield", "Bartholomew Jones", "Christopher", "Dee", "Evangeline Marsh", "Fay",
        "Maximiliana Featherstonehaugh", "Henrietta Woolf"]
TRULY_LONG = "Maximiliana Featherstonehaugh"
# every game and player count of seven or more
CROWDED = sorted((key, seats) for key, game in GAMES.items()
                 for seats in range(max(7, game.min_players), game.max_players + 1))

# Each place of the picture as drawn (``names``: the whole names, in seat order): its name's
# lines and the boxes of its name box, name and dealer button, in screen pixels.
PLACES = r"""(names) => [...document.querySelectorAll("#table-guide svg.seats g.seat")].map((g, i) => {
  const box = (e) => { if (!e) return null; const r = e.getBoundingClientRect();
                       return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, height: r.height}; };
  const name = g.querySelector("text.name"), tspans = [...name.querySelectorAll("tspan")];
  return {lines: tspans.length ? tspans.map(t => t.textContent) : [name.textContent],
          title: (g.querySelector("title") || {}).textContent || null,
          chip: box(g.querySelector("rect.chip")), name: box(g.querySelector("text.name")),
          button: box(g.querySelector("circle.button-d")),
          // the widest word of its whole name as wide as the picture would draw it, in the name's own font
          widest: Math.max(...names[i].split(/\s+/).map(word => {
            const probe = g.querySelector("text.name").cloneNode(false);
            probe.textContent = word; g.appendChild(probe);
            const width = probe.getBoundingClientRect().width; probe.remove(); return width; }))};
})"""


def overlap(a: dict, b: dict) -> bool:
    return a["left"] < b["right"] - 0.5 and b["left"] < a["right"] - 0.5 and \
        a["top"] < b["bottom"] - 0.5 and b["top"] < a["bottom"] - 0.5


@pytest.mark.parametrize(("game", "seats"), CROWDED)
def test_seven_or_eight_long_names_round_the_table_are_drawn_whole(page, live_server, game, seats):
    names = LONG[:seats] if TRULY_LONG in LONG[:seats] else LONG[:seats - 1] + [TRULY_LONG]
    match = random_match(game, 2, seed=3, players=seats, settings=long_settings(game, 2, seats))
    match.players = names
    import_file(page, live_server, dumps(match))
    picture = page.locator("#table-guide svg.seats[role=img]")
    label = picture.get_attribute("aria-label") or ""
    for viewport in (NARROW, PHONE):
        page.set_viewport_size(viewport)
        picture.scroll_into_view_if_needed()
        SCREENSHOTS.mkdir(exist_ok=True)
        picture.screenshot(path=str(SCREENSHOTS / f"seats-{game}-{seats}-long-{viewport['width']}.png"))
        assert layout_problems(page) == []  # inside the page, names at least 11 px high
        places = page.evaluate(PLACES, names)
        assert len(places) == seats
        for name, place in zip(names, places):
            shown, chip, drawn = " ".join(place["lines"]), place["chip"], place["name"]
            assert name in label  # the picture's accessible name says every name whole
            if name == TRULY_LONG:
                # shortened, and said whole where a pointer rests on it
                assert shown.endswith("…") and place["title"] == name
            elif shown != name:
                # only a name with a word that (nearly) fills the room its box leaves may be shortened
                room = chip["right"] - (place["button"]["right"] if place["button"] else chip["left"])
                assert place["widest"] > 0.85 * room, f"{name!r} drawn as {shown!r} at {viewport['width']} px"
                assert place["title"] == name
            # the name inside its box, clear of the dealer button
            assert chip["left"] - 0.5 <= drawn["left"] and drawn["right"] <= chip["right"] + 0.5, (name, viewport)
            assert chip["top"] - 0.5 <= drawn["top"] and drawn["bottom"] <= chip["bottom"] + 0.5, (name, viewport)
            if place["button"]:
                assert drawn["left"] >= place["button"]["right"] - 0.5, name
        for i, a in enumerate(places):
            for b in places[i + 1:]:
                assert not overlap(a["chip"], b["chip"]), (a["lines"], b["lines"], viewport)
        box = picture.bounding_box()
        assert box and box["height"] < 0.6 * viewport["height"], box


# --- the big screen: eight players, six-digit totals ------------------------------------

# rules.md section 5: each hand adds what the table says; totals 123456, 100004, 99999, 99999,
# 7, 0, -99999, -99999 after two hands
BIG_TOTALS = Match("score_pad", ["Alexandra Whitfield", "Bartholomew Jones", "Christopher", "Dee",
                                 "Evangeline Marsh", "Fay", "Gwendolyn", "Henrietta Woolf"],
                   {"target": 0, "low_wins": False, "hand_count": 0}, 0,
                   [{"points": [100000, -50000, 99999, 100000, 3, -99999, 5, 100000]},
                    {"points": [23456, -49999, 0, -1, 4, 0, 99999, -100000]}])
STANDINGS = [("Alexandra Whitfield", "123456"), ("Gwendolyn", "100004"), ("Christopher", "99999"), ("Dee", "99999"),
             ("Evangeline Marsh", "7"), ("Henrietta Woolf", "0"), ("Bartholomew Jones", "-99999"), ("Fay", "-99999")]
# what the big screen is shown on: a phone held sideways (two sizes), a tablet both ways, TVs
SCREENS = [LANDSCAPE, {"width": 667, "height": 375}, TABLET, {"width": 768, "height": 1024},
           {"width": 1280, "height": 720}, {"width": 1920, "height": 1080}]

ROWS = r"""() => [...document.querySelectorAll(".screen-standings li")].map(li => {
  const box = (e) => { const r = e.getBoundingClientRect();
                       return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  const name = li.querySelector(".name"), total = li.querySelector(".total");
  return {name: name.textContent, total: total.textContent, li: box(li), nameBox: box(name), totalBox: box(total),
          // a name or total cut short: its text wider or taller than its box
          nameCut: name.scrollWidth > name.clientWidth + 1 || name.scrollHeight > name.clientHeight + 1,
          totalCut: total.scrollWidth > total.clientWidth + 1,
          sizes: [name.scrollWidth, name.clientWidth, name.scrollHeight, name.clientHeight],
          namePx: parseFloat(getComputedStyle(name).fontSize), totalPx: parseFloat(getComputedStyle(total).fontSize)};
})"""


@pytest.mark.parametrize("size", SCREENS, ids=lambda s: f"{s['width']}x{s['height']}")
def test_eight_six_digit_totals_fit_the_big_screen(browser, live_server, size):
    context = browser.new_context(viewport=size, is_mobile=size["width"] < 900, has_touch=True)
    try:
        page = context.new_page()
        match_id = import_file(page, live_server, dumps(BIG_TOTALS))
        page.goto(f"{live_server}/matches/{match_id}/screen")
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"big-screen-8-six-digits-{size['width']}x{size['height']}.png"))
        assert layout_problems(page) == []  # no sideways scroll, nothing spilling or clipped
        rows = page.evaluate(ROWS)
        assert [(row["name"], row["total"]) for row in rows] == STANDINGS
        landscape = size["width"] > size["height"]
        for row in rows:
            # every total whole, inside its row and the screen, clear of the name
            assert not row["totalCut"] and not row["nameCut"], (row["name"], row["sizes"], row["namePx"])
            assert row["li"]["left"] - 0.5 <= row["totalBox"]["left"] and row["totalBox"]["right"] <= row["li"]["right"] + 0.5
            assert row["totalBox"]["right"] <= size["width"]
            if landscape:  # the name beside its total (in portrait the total has a line of its own)
                assert row["nameBox"]["right"] <= row["totalBox"]["left"] + 0.5, row
                # all eight on the screen at once, beside the table
                assert row["li"]["bottom"] <= size["height"], row
            big = size["width"] >= 1024
            assert row["totalPx"] >= (40 if big else 20) and row["namePx"] >= (24 if big else 13), row
    finally:
        context.close()


# --- the printed sheet: eight players, four-digit points ----------------------------------

# the width print lays a page out in, in CSS px: the paper less the sheet's 11 mm margins
PAPER = {"A4": round((210 - 22) / 25.4 * 96), "Letter": round((8.5 * 25.4 - 22) / 25.4 * 96)}


def test_eight_players_with_four_digit_points_print_across_the_page_at_full_size(browser, live_server):
    rng = random.Random(8)
    match = Match("score_pad", BIG_TOTALS.players, dict(BIG_TOTALS.settings), 0,
                  [{"points": [rng.randint(-9999, 9999) for _ in range(8)]} for _ in range(20)])
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        match_id = import_file(page, live_server, dumps(match))
        for size, width in PAPER.items():
            page.set_viewport_size({"width": width, "height": 1000})
            for path in ("/print", "/print/blank"):
                page.goto(f"{live_server}/matches/{match_id}{path}")
                page.emulate_media(media="print")
                # nothing wider than the paper: the browser would shrink the whole sheet to fit
                wide = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
                assert wide[0] <= wide[1], (size, path, wide)
                smallest = page.evaluate("Math.min(...[...document.querySelectorAll('table.grid tbody td')]"
                                         ".map(td => parseFloat(getComputedStyle(td).fontSize)))")
                assert smallest >= 7 * 96 / 72 - 0.01, (size, path, smallest)  # 7 pt at least
                page.emulate_media(media="screen")
    finally:
        context.close()


def test_eight_six_digit_totals_at_320_px_and_200_percent_text(page, live_server):
    """The scoreboard (standings, hand table) and the big screen on the narrowest phone with
    the reader's text at 200%: no sideways scroll, no total past the edge."""
    page.set_viewport_size(NARROW)
    match_id = import_file(page, live_server, dumps(BIG_TOTALS))
    text_size(page, 200)
    found = {}
    for path in ("", "/screen"):
        page.goto(f"{live_server}/matches/{match_id}{path}")
        found[path or "/"] = layout_problems(page)
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"six-digits-320-200pct{path.replace('/', '-')}.png"), full_page=True,
                        caret="initial")
    assert found == {"/": [], "/screen": []}, found
    expect(page.locator(".screen-standings .total")).to_have_text([total for _, total in STANDINGS])
