"""Issue "At the table" item 6 (and 9): at 320 px, at 200% text (the browser's own
text-size setting) and in landscape, no page scrolls sideways and no word is broken
inside, with long names and every game's pages: the scoreboard with hands (and its seat
picture), the big screen, its log, the referee, the rules, the tally, a correction and an undo,
and the earlier hands of a match longer than the scoreboard lists."""
from __future__ import annotations

from urllib.parse import urlencode

import pytest

from scorekeeper.games import GAMES
from scorekeeper.games.base import Table
from scorekeeper.matchfile import dumps
from scorekeeper.samples import lasting_settings, random_match
from tests.places import blank_place

from .conftest import SCREENSHOTS, import_file
from .layout import LANDSCAPE, NARROW, PHONE, TABLET, covered_controls, layout_problems, text_size
from .test_print import AXE, AXE_VERSION

# The longest names the rule allows (40 characters), without a space, in every script it
# allows: Latin and Arabic (no place to break a line), Chinese, emoji (wide, a family
# emoji seven characters); each twice, for eight players.
LATIN = ["Maximilianbartholomewchristopherevangeli", "Wolfeschlegelsteinhausenbergerdorffvoral"]
ARABIC = ["عبدالرحمنبنمحمدبنعبداللهبنعبدالعزيزالسعو", "محمدبنعبدالرحمنبنعبداللهبنعبدالعزيزالقحط"]
CHINESE = ["陳王李張劉楊黃趙吳周徐孫馬朱胡郭何高林羅鄭梁謝宋唐許韓馮鄧曹彭曾肖田董袁潘于蔣蔡",
           "蔡蔣于潘袁董田肖曾彭曹鄧馮韓許唐宋謝梁鄭羅林高何郭胡朱馬孫徐周吳趙黃楊劉張李王陳"]
FAMILY = "\U0001F469\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466"
EMOJI = [FAMILY * 5 + "\U0001F0CF" * 5, "\U0001F0CF" * 5 + FAMILY * 5]
LONG = [LATIN[0], ARABIC[0], CHINESE[0], EMOJI[0], LATIN[1], ARABIC[1], CHINESE[1], EMOJI[1]]
assert all(len(name) == 40 for name in LONG)
# Every game (the tests' own among them) with its most players; a game for fewer than four
# has a second match with the scripts its first left out.
NAMES = {key: LONG[:game.max_players] for key, game in GAMES.items()}
MORE = {key: LONG[game.max_players:4] + LONG[:max(0, 2 * game.max_players - 4)]
        for key, game in GAMES.items() if game.max_players < 4}


def import_match(page, live_server, game: str, settings: dict | None = None, hands: int = 6,
                 names: list[str] | None = None) -> int:
    """A match of six random hands with long names, imported through the app's form
    (the importing phone scores it)."""
    match = random_match(game, hands, seed=1, players=len(NAMES[game]),
                         settings=lasting_settings(game, hands + 10, len(NAMES[game])) if settings is None else settings)
    match.players, match.note = names or NAMES[game], "Friday at the club, upstairs"
    return import_file(page, live_server, dumps(match))


# A player's figures, the hands behind a figure and two players head to head, for the long names.
STATS = [f"/stats?{urlencode({'player': name})}" for name in LONG[:4]] + [
    f"/stats/hands?{urlencode({'player': LONG[0], 'game': 'score_pad', 'figure': 'played'})}",
    f"/stats/versus?{urlencode({'player': LONG[0], 'other': LONG[1]})}",
    f"/stats/versus?{urlencode({'player': LONG[2], 'other': LONG[3]})}"]


def pages_of(game: str, match_id: int) -> list[str]:
    pages = [f"/matches/{match_id}", f"/matches/{match_id}/screen", f"/matches/{match_id}/log",
             f"/matches/{match_id}/print", f"/matches/{match_id}/print/blank", f"/matches/{match_id}/details",
             f"/matches/{match_id}/again",
             f"/matches/{match_id}/rules", f"/matches/{match_id}/hands/2/edit", f"/matches/{match_id}/hands/2/why",
             f"/matches/{match_id}/undo",
             f"/matches/{match_id}/setup", f"/matches/{match_id}/delete"]
    described = GAMES[game]
    if described.referee is not None:
        pages += [f"/referee/{game}?match={match_id}", f"/referee/{game}"]
    tally = described.shown.trick_tally(blank_place(described, dict(described.defaults(), **lasting_settings(game, 16, len(NAMES[game]))), len(NAMES[game])))
    if tally is not None:
        pages += [f"/matches/{match_id}/tally", f"/matches/{match_id}/tally?hand=1"]
        # every trick in, the last pick chosen: the settled column says what the game added
        every = ",".join(str(n % len(NAMES[game])) for n in range(tally.tricks))
        pick = f"&{tally.choice.name}={tally.choice.options[-1][0]}" if tally.choice else ""
        pages.append(f"/matches/{match_id}/tally?w={every}{pick}")
    return pages


def counts_legend(game: str) -> str | None:
    """The summary that opens the game's card counter on its match page, if it has one."""
    described = GAMES[game]
    if described.shown.card_counter() is None:
        return None
    ctx = described.empty_place(Table(tuple(NAMES[game]), dict(described.defaults(), **lasting_settings(game, 16, len(NAMES[game])))), 0)
    return next(g.legend for g in described.shown.hand_form(ctx) if g.kind == "counts")


# The hand list in its box wider than the box: layout_problems forgives a box that swipes
# sideways (a score sheet's grid), but a hand list fits the screen, a long name broken in it.
SWIPES = """() => [...document.querySelectorAll('.table-wrap')].filter(w => w.scrollWidth > w.clientWidth + 1)
    .map(w => `${w.firstElementChild.id} swipes: ${w.scrollWidth} px in ${w.clientWidth} px`)"""


def hand_list_swipes(page) -> list[str]:
    """The hand list's box wider than the box, on a page that shows the hand list (SWIPES)."""
    return page.evaluate(SWIPES) if page.locator("#hand-table").count() else []


VIEWPORTS = {"320px": NARROW, "390px": PHONE, "200% text": PHONE, "landscape": LANDSCAPE, "tablet": TABLET}


def opened(browser, live_server, mode: str, state: dict | None = None):
    """A browser context in ``mode`` (its viewport; at 200% text the browser's text size set
    on a first page), the session ``state`` if given, and its page."""
    context = browser.new_context(viewport=VIEWPORTS[mode], is_mobile=mode != "tablet", has_touch=True,
                                  storage_state=state)
    page = context.new_page()
    page.goto(f"{live_server}/")
    if mode == "200% text":
        text_size(page, 200)
    return context, page


@pytest.fixture(scope="module")
def matches(browser, live_server):
    """One match of each game, and a browser context whose session scores them all."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    ids = [(game, import_match(page, live_server, game)) for game in NAMES]
    ids += [(game, import_match(page, live_server, game, names=names)) for game, names in MORE.items()]
    finished = import_match(page, live_server, "third_wheel", settings={}, hands=40)  # played to the end
    page.goto(f"{live_server}/matches/{finished}")
    assert page.locator("#game-over").count() == 1
    watcher = page.locator("#watcher-url").input_value()
    state = context.storage_state()
    context.close()
    return ids, state, finished, watcher


@pytest.mark.parametrize("mode", ["320px", "390px", "200% text", "landscape", "tablet"])
def test_no_page_scrolls_sideways_or_breaks_a_word(browser, live_server, matches, mode):
    ids, state, finished, watcher = matches
    context, page = opened(browser, live_server, mode, state)
    try:
        found = {}
        paths = ["/", "/matches/new", "/referee", "/import", f"/matches/{finished}", "/players"] + STATS + [
            p for game, i in ids for p in pages_of(game, i)]
        drawn = []
        for path in paths:
            page.goto(live_server + path)
            if "versus" in path:
                page.screenshot(path=str(SCREENSHOTS / f"layout-versus-{mode}-{len(found)}.png"), full_page=False)
            # the scoreboard's hand list fits too (a long name broken in it), as on the earlier hands
            problems = layout_problems(page) + covered_controls(page) + hand_list_swipes(page)
            if problems:
                found[path] = problems[:5]
            if page.locator("svg.seats").count():
                drawn.append(path)
        for game, match_id in ids:  # a card counter opened: a row of counts per player
            legend = counts_legend(game)
            if legend is not None:
                page.goto(f"{live_server}/matches/{match_id}")
                page.locator("summary", has_text=legend).click()
                problems = layout_problems(page)
                if problems:
                    found[f"{game} card counter"] = problems[:5]
        assert not found, found
        # the seat picture was among them: each game's scoreboard and big screen
        assert {f"/matches/{i}{end}" for _, i in ids for end in ("", "/screen")} <= set(drawn)
        watching, tab = opened(browser, live_server, mode)
        try:
            tab.goto(watcher)
            assert tab.locator(".live-status").count() == 1
            assert layout_problems(tab) + hand_list_swipes(tab) == []
        finally:
            watching.close()
    finally:
        context.close()


# --- axe-core: no serious or critical violations on the pages a table uses -----------------

def axe_check(page) -> list[str]:
    """axe-core (vendored) on the page as it is, its experimental rules too (such as
    label-content-name-mismatch: a button whose name is not what it shows): the serious
    and critical violations, in words."""
    source = AXE.read_text(encoding="utf-8")
    assert f"axe v{AXE_VERSION}" in source[:40]
    page.evaluate(source + "\n;0")  # evaluated by the driver, so the page's CSP does not apply
    result = page.evaluate("""() => axe.run(document, {resultTypes: ['violations'], rules: Object.fromEntries(
        axe.getRules(['experimental']).map(r => [r.ruleId, {enabled: true}]))})""")
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
            for v in result["violations"] if v["impact"] in ("serious", "critical")]


def test_axe_finds_nothing_serious_on_the_main_pages(browser, live_server, matches):
    ids, state, finished, watcher = matches
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, storage_state=state)
    page = context.new_page()
    try:
        found = {}
        paths = ["/", "/matches/new", "/referee", "/import", f"/matches/{finished}", watcher, "/players"] + STATS + [
            p for game, i in ids for p in pages_of(game, i) if "/print" not in p]  # test_print runs axe on the sheets
        paths += [f"/rules/{game}" for game in NAMES]
        for path in paths:
            page.goto(path if path.startswith("http") else live_server + path)
            violations = axe_check(page)
            if violations:
                found[path] = violations
        for game, match_id in ids:  # what opens on the page counts too: a card counter, sharing
            legend = counts_legend(game)
            if legend is None:
                continue
            page.goto(f"{live_server}/matches/{match_id}")
            page.locator("summary", has_text=legend).click()
            page.locator("#share > summary").click()
            violations = axe_check(page)
            if violations:
                found[f"{game} match page, opened"] = violations
        assert found == {}, "\n".join(f"{path}: {v}" for path, vs in found.items() for v in vs)
    finally:
        context.close()


# --- the earlier hands of a long match (its own page once a match has more than 50) ----------

EARLIER = 60  # hands: the scoreboard lists the last 50, the earlier-hands pages all of them, in two pages


@pytest.fixture(scope="module")
def long_matches(browser, live_server):
    """One match of each game longer than the scoreboard lists, with the long names (a game
    for fewer than four: a second match with the other scripts), and the session scoring them."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    ids = [import_match(page, live_server, game, hands=EARLIER) for game in NAMES]
    ids += [import_match(page, live_server, game, hands=EARLIER, names=names) for game, names in MORE.items()]
    page.goto(f"{live_server}/matches/{ids[0]}/hands?page=2")
    assert page.get_by_role("heading", name=f"Hands 51 to {EARLIER}").is_visible()  # long enough for two pages
    state = context.storage_state()
    context.close()
    return ids, state


def earlier_pages(ids: list[int]) -> list[str]:
    return [f"/matches/{i}/hands?page={n}" for i in ids for n in (1, 2)]


@pytest.mark.parametrize("mode", ["320px", "200% text", "landscape"])
def test_the_earlier_hands_of_a_long_match_fit(browser, live_server, long_matches, mode):
    ids, state = long_matches
    context, page = opened(browser, live_server, mode, state)
    try:
        found = {}
        for path in earlier_pages(ids):
            page.goto(live_server + path)
            assert page.locator("#hand-table tbody.hand").count() == (50 if path.endswith("1") else EARLIER - 50)
            page.locator("#hand-table details.why > summary").first.click()  # a hand's why, names in its lines
            problems = layout_problems(page) + covered_controls(page) + hand_list_swipes(page)
            if problems:
                found[path] = problems[:5]
        page.goto(f"{live_server}{earlier_pages(ids)[0]}")
        page.screenshot(path=str(SCREENSHOTS / f"layout-earlier-hands-{mode}.png"), full_page=False)
        assert not found, found
    finally:
        context.close()


def test_axe_finds_nothing_serious_on_the_earlier_hands(browser, live_server, long_matches):
    ids, state = long_matches
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, storage_state=state)
    page = context.new_page()
    try:
        found = {}
        for path in earlier_pages(ids):
            page.goto(live_server + path)
            violations = axe_check(page)
            if violations:
                found[path] = violations
        assert found == {}, "\n".join(f"{path}: {v}" for path, vs in found.items() for v in vs)
    finally:
        context.close()
