"""Printing in real Chromium: the print media rendered to PDF (what "Save as PDF" in the
print dialog makes) on A4 and US Letter, pages counted and read; axe-core on the print
pages; the Print buttons with JavaScript on and off. PDFs of every sheet are kept under
screenshots/ (git-ignored) for a person to look at."""
from __future__ import annotations

import io
import math
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from scorekeeper.games import GAMES as REGISTRY
from scorekeeper.matchfile import dumps
from scorekeeper.samples import random_match, wide_long_settings

from .conftest import PHONE, SCREENSHOTS, import_file

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
AXE_VERSION = "4.14.1"
SIZES = ("A4", "Letter")
GAMES = tuple(REGISTRY)  # every game, the tests' own among them
EVENING = GAMES[:4]  # an evening of four short matches: they share pages
LONG = ["Alexandra", "Bartholomew", "Cy", "Dee", "Evangeline", "Fay", "Gwendolyn", "Hal"]
# A game for six or more plays with its most players, long names among them: the widest sheet.
PLAYERS = {key: LONG[:game.max_players] for key, game in REGISTRY.items() if game.max_players >= 6}
# A sheet of 12 and one of 20 hands of each game that plays that many and more (a game says how
# long its matches can be: Game.long_match), under settings that do not end it there and draw
# every on/off column (the widest sheet).
SHEETS = [(game, hands) for game in GAMES for hands in (12, 20)
          if REGISTRY[game].long_match(hands + 10, len(PLAYERS.get(game, ())) or REGISTRY[game].sample_players)]
STUB_PRINT = "window.__printed = 0; window.print = function () { window.__printed += 1; };"


def match_file(game: str, hands: int, seed: int = 5, date: str = "2026-11-20") -> str:
    players = PLAYERS.get(game)
    seats = len(players) if players else None
    match = random_match(game, hands, seed=seed, players=seats, settings=wide_long_settings(game, hands + 10, seats))
    assert len(match.hands) == hands, (game, hands)
    if players:
        match.players = players
    match.date, match.note = date, "Thursday at Ann's, the long kitchen table"
    return dumps(match)


@pytest.fixture(scope="module")
def printer(browser, live_server):
    """One device (a browser context) that imported the matches, so it may read them all:
    a 12-hand and a 20-hand match of each game, and an evening of four matches."""
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(STUB_PRINT)
    tab = context.new_page()
    matches = {(game, hands): import_file(tab, live_server, match_file(game, hands))
               for game, hands in SHEETS}
    evening = [import_file(tab, live_server, match_file(game, 5, seed=9, date="2026-11-27")) for game in EVENING]
    tab.close()
    yield context, matches, evening
    context.close()


@pytest.fixture
def tab(printer):
    """A tab of the device that holds the matches; any page error fails the test."""
    context = printer[0]
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    page.on("console", lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None)
    yield page
    page.close()
    assert not errors, errors


def pdf_pages(tab, url: str, size: str, name: str) -> list[str]:
    """The page at ``url`` printed to PDF (print media, paper ``size``, the page's own
    margins); the text of each page. The PDF is kept as screenshots/<name>-<size>.pdf."""
    tab.goto(url)
    tab.emulate_media(media="print")
    data = tab.pdf(format=size, prefer_css_page_size=True)
    SCREENSHOTS.mkdir(exist_ok=True)
    (SCREENSHOTS / f"{name}-{size}.pdf").write_bytes(data)
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def flat(text: str) -> str:
    """A page's text on one line, the page's margin boxes ("page 2 of 3", "Scorekeeper",
    which PDF text puts first) moved to its end."""
    text = " ".join(text.split())
    margins = re.match(r"^(page \d+ of \d+)\s*Scorekeeper\s*", text)
    return f"{text[margins.end():]} {margins.group(1)}" if margins else text


@pytest.mark.parametrize(("game", "hands"), SHEETS)
def test_a_score_sheet_is_one_page_and_the_appendix_follows(tab, live_server, printer, game, hands):
    match_id = printer[1][(game, hands)]
    url = f"{live_server}/matches/{match_id}/print"
    for size in SIZES:
        pages = pdf_pages(tab, url + "?appendix=off", size, f"print-{game}-{hands}-sheet")
        assert len(pages) == 1, (size, [flat(p)[:80] for p in pages])
        sheet = flat(pages[0])
        assert "page 1 of 1" in sheet
        last_totals = tab.locator(".grid tbody tr").last.locator("td.k-total").all_text_contents()
        assert " ".join(last_totals) in " ".join(sheet.split()) or all(t in sheet for t in last_totals)
        assert "Why each hand" not in sheet and ("Standings" in sheet or "Final standings" in sheet)
        # with the explanations: the sheet alone on page 1, then the appendix, each page
        # titled with the match and numbered
        pages = pdf_pages(tab, url, size, f"print-{game}-{hands}-with-appendix")
        assert 2 <= len(pages) <= 1 + math.ceil(hands / 4), (size, len(pages))
        assert "Why each hand" not in flat(pages[0]) and flat(pages[1]).startswith("Why each hand scored what it did")
        title = tab.locator(".sheet .running-title th").first.text_content()
        for number, text in enumerate(pages, start=1):
            assert title.split(" · ")[0] in flat(text), (size, number)
            assert f"page {number} of {len(pages)}" in flat(text), (size, number)
        last = flat(pages[-1])
        final = tab.locator(".why-table tbody tr").last.locator("li").last.text_content()
        assert flat(final) in last  # the last hand's explanation ends the last page


def sheet_starts(pages: list[str]) -> list[str]:
    """The match whose sheet starts on each page (its heading: title, date, then the note)."""
    found = []
    for text in pages:
        found += re.findall(r"(Third Hand|Third Wheel|Dummy Hand Spades|Third Rail) 2026-11-27 Thursday", flat(text))
    return found


def test_an_evening_of_short_matches_shares_pages_each_sheet_whole(tab, live_server, printer):
    evening = printer[2]
    url = f"{live_server}/print?" + "&".join(f"match={m}" for m in evening)
    titles = [REGISTRY[game].title for game in EVENING]
    for size in SIZES:
        pages = pdf_pages(tab, url + "&appendix=off", size, "print-evening-sheets")
        # four 5-hand sheets need far less than a page each: they share pages, none split
        assert len(pages) <= 2 and sheet_starts(pages) == titles
        for number, text in enumerate(pages, start=1):
            assert f"page {number} of {len(pages)}" in flat(text)
            assert len(sheet_starts([text])) == flat(text).count("tandings Place Player"), flat(text)
        pages = pdf_pages(tab, url, size, "print-evening")
        # each match starts on a new page, its explanations after it, before the next match
        starts = [i for i, text in enumerate(pages) if sheet_starts([text])]
        assert sheet_starts(pages) == titles and len(starts) == 4
        for first, after in zip(starts, [*starts[1:], len(pages)]):
            assert after - first >= 2 and flat(pages[first + 1]).startswith("Why each hand")
    by_date = pdf_pages(tab, f"{live_server}/print?date=2026-11-27&appendix=off", "A4", "print-evening-by-date")
    assert sheet_starts(by_date) == titles and len(by_date) <= 2


@pytest.mark.parametrize("path, name", [
    (f"/print/blank/{key}?players={game.max_players}", f"blank-{key}-{game.max_players}")
    for key, game in REGISTRY.items()])
def test_a_blank_sheet_is_one_page(tab, live_server, path, name):
    for size in SIZES:
        pages = pdf_pages(tab, live_server + path, size, name)
        assert len(pages) == 1, size
        assert "score sheet" in flat(pages[0]) and "Scoring with the default settings" in flat(pages[0])


def test_continue_on_paper_is_one_page_with_the_totals_so_far(tab, live_server, printer):
    match_id = printer[1][("dummy_spades", 20)]
    for size in SIZES:
        pages = pdf_pages(tab, f"{live_server}/matches/{match_id}/print/blank", size, "blank-continue-dummy_spades")
        assert len(pages) == 1, size
        text = flat(pages[0])
        assert "Continued on paper after hand 20" in text and "1–20" in text and "Ann, Bob, Cy" in text
    tab.emulate_media(media="screen")
    totals = tab.locator("tr.carried td.k-total").all_text_contents()
    tab.goto(f"{live_server}/matches/{match_id}/print?appendix=off")
    assert totals == [cell.strip() for cell in tab.locator(".grid tbody tr").last.locator("td.k-total")
                      .all_text_contents()]


def axe_check(tab) -> list[str]:
    """axe-core run on the page as it is: the serious and critical violations, in words."""
    source = AXE.read_text(encoding="utf-8")
    assert f"axe v{AXE_VERSION}" in source[:40]
    tab.evaluate(source + "\n;0")  # evaluated by the driver, so the page's CSP does not apply
    result = tab.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
            for v in result["violations"] if v["impact"] in ("serious", "critical")]


def test_axe_finds_nothing_serious_on_the_print_pages(tab, live_server, printer):
    matches, evening = printer[1], printer[2]
    urls = [f"/matches/{matches[('dummy_spades', 20)]}/print", f"/matches/{matches[('third_rail', 12)]}/print",
            f"/matches/{matches[('third_hand', 12)]}/print?appendix=off",
            "/print?" + "&".join(f"match={m}" for m in evening),
            "/print/blank/third_wheel", f"/matches/{matches[('third_wheel', 12)]}/print/blank"]
    found = {}
    for url in urls:
        for media in ("screen", "print"):
            tab.emulate_media(media=media)
            tab.goto(live_server + url)
            violations = axe_check(tab)
            if violations:
                found[f"{url} ({media})"] = violations
    assert found == {}
    # the check itself works: a page without a language is a serious violation it reports
    tab.emulate_media(media="screen")
    tab.evaluate("document.documentElement.removeAttribute('lang')")
    assert any(v.startswith("html-has-lang (serious)") for v in axe_check(tab))


def test_the_print_buttons_with_javascript_on(tab, live_server, printer):
    match_id = printer[1][("third_wheel", 12)]
    tab.goto(f"{live_server}/matches/{match_id}")
    tab.get_by_role("link", name="Print", exact=True).click()
    tab.wait_for_url(re.compile(rf"/matches/{match_id}/print$"))  # dialog=1 is taken off the address
    expect(tab.locator("h1")).to_contain_text("Third Wheel")
    tab.wait_for_function("window.__printed === 1")  # the print dialog opened once the sheet was in
    tab.get_by_role("link", name="Print", exact=True).click()
    tab.wait_for_function("window.__printed === 2")  # the print view's own button prints again
    assert tab.url.endswith(f"/matches/{match_id}/print")  # and does not leave the page
    tab.reload()
    tab.wait_for_timeout(300)
    assert tab.evaluate("window.__printed") == 0  # a reload shows the sheet, not the dialog again
    tab.screenshot(path=str(SCREENSHOTS / "print-view-phone.png"), full_page=True, caret="initial")


def test_the_print_button_without_javascript_opens_the_print_view(browser, live_server):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    try:
        tab = context.new_page()
        match_id = import_file(tab, live_server, match_file("third_hand", 3))
        tab.goto(f"{live_server}/matches/{match_id}")
        tab.get_by_role("link", name="Print", exact=True).click()
        tab.wait_for_url(re.compile(rf"/matches/{match_id}/print\?dialog=1$"))
        expect(tab.locator("table.grid")).to_be_visible()
        tab.get_by_role("link", name="Leave out the explanations").click()
        expect(tab.locator(".appendix")).to_have_count(0)
        tab.get_by_role("link", name="Blank sheet to continue on paper").click()
        expect(tab.locator("h1")).to_contain_text("score sheet")
        expect(tab.locator("tr.carried")).to_have_count(1)
    finally:
        context.close()



@pytest.mark.parametrize("width", [320, 390])
def test_print_views_fit_a_phone_screen(browser, printer, live_server, width):
    """On a phone the sheet's grid scrolls in its own box; the page itself never scrolls
    sideways, at the default text size or at 200% (a long settings line wraps)."""
    from .layout import text_size

    context = browser.new_context(viewport={"width": width, "height": 844}, is_mobile=True,
                                  storage_state=printer[0].storage_state())
    page = context.new_page()
    try:
        for percent in (100, 200):
            page.goto(f"{live_server}/")
            if percent == 200:
                text_size(page, 200)
            wide = []
            for (game, hands), match_id in printer[1].items():
                if hands != 12:
                    continue
                for path in (f"/matches/{match_id}/print", f"/matches/{match_id}/print/blank", f"/print/blank/{game}"):
                    page.goto(live_server + path)
                    sizes = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
                    if sizes[0] > sizes[1]:
                        wide.append(f"{path} at {percent}% text: {sizes[0]} px wide in {sizes[1]} px")
            assert not wide, wide
    finally:
        context.close()


STICKY = """() => {
  const wrap = document.querySelector('.grid-wrap'), hint = document.querySelector('.grid-hint');
  const wide = wrap.scrollWidth > wrap.clientWidth + 1;
  wrap.scrollLeft = wrap.scrollWidth;  // swiped to the last player's columns
  const box = wrap.getBoundingClientRect();
  const hidden = [...wrap.querySelectorAll('tbody th.no')].filter(no => {
    const r = no.getBoundingClientRect();
    const seen = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return r.top > 0 && r.bottom < innerHeight && (r.left < box.left - 1 || !no.contains(seen));
  }).map(no => no.textContent);
  const cut = [...wrap.querySelectorAll('th, td')].filter(c => c.getClientRects().length && c.scrollWidth > c.clientWidth + 1)
    .map(c => c.textContent.trim() + ' ' + c.scrollWidth + '>' + c.clientWidth);
  return {wide, hint: !!hint && hint.checkVisibility(), hidden, cut, page: document.documentElement.scrollWidth - innerWidth};
}"""


@pytest.mark.parametrize("width", [320, 390])
def test_on_a_phone_the_grid_swipes_with_the_hand_numbers_in_view_and_a_hint(browser, printer, live_server, width):
    """Issue 26 item 5: every game's sheet on a phone scrolls in its own box, its hand
    numbers stay at the left edge however far it is swiped, a line says it swipes, no
    cell is cut; on paper the grid is as before (no sticky column, no hint)."""
    context = browser.new_context(viewport={"width": width, "height": 844}, is_mobile=True, has_touch=True,
                                  storage_state=printer[0].storage_state())
    page = context.new_page()
    try:
        found = {}
        for game in GAMES:
            page.goto(f"{live_server}/matches/{printer[1][(game, 12)]}/print")
            seen = page.evaluate(STICKY)
            page.screenshot(path=str(SCREENSHOTS / f"print-phone-{game}-{width}.png"), caret="initial")
            if not seen["wide"] or not seen["hint"] or seen["hidden"] or seen["cut"] or seen["page"] > 0:
                found[game] = seen
            page.emulate_media(media="print")  # paper: the whole grid, numbers in their place, no hint
            assert page.evaluate("""() => [getComputedStyle(document.querySelector('tbody th.no')).position,
                getComputedStyle(document.querySelector('.grid-wrap')).overflowX,
                document.querySelector('.grid-hint').checkVisibility()]""") == ["static", "visible", False]
            page.emulate_media(media="screen")
        assert found == {}, found
    finally:
        context.close()
