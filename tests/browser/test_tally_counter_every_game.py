"""The trick tally and the card counter in Chromium for every registered game that offers
one (Third Rail's and Third Hand's, and the tests' own game's of another shape): a whole
hand tapped and saved with htmx at 390 x 844, every tap in view in landscape with the
game's most players, and the counter filling the points field as the game counts."""
from __future__ import annotations

import itertools
import random
import re

import pytest
from playwright.sync_api import expect

from scorekeeper.games import GAMES
from scorekeeper.games.base import Table
from scorekeeper.matchfile import Match, dumps
from scorekeeper.samples import NAMES
from tests.places import blank_place

from .conftest import import_file
from .layout import LANDSCAPE, layout_problems
from .test_table_app import wait_htmx

# Long names of the usual shape (test_layout.py tries the 40-character ones, which wrap to
# several lines in a tap and push the last taps below a landscape screen's fold).
LONG = ["Maggie", "Tom", "Christopher", "Dee", "Evangeline", "Fay", "Bartholomew", "Henrietta"]


def _variant(key: str) -> dict:
    """The game's sample settings that show the most of its tally (a pick, then notes)."""
    game = GAMES[key]
    shown = []
    for variant in ({}, *game.sample_settings):
        tally = game.shown.trick_tally(blank_place(game, dict(game.defaults(), **variant), game.max_players))
        if tally is not None:
            shown.append(((tally.choice is not None, len(tally.notes)), variant))
    return max(shown, key=lambda s: s[0])[1]


TALLY_KEYS = sorted(key for key, game in GAMES.items()
                    if any(game.shown.trick_tally(blank_place(game, dict(game.defaults(), **v), game.max_players))
                           for v in ({}, *game.sample_settings)))
COUNTER_KEYS = sorted(key for key, game in GAMES.items() if game.shown.card_counter() is not None)


def new_match(page, live_server, key: str, names: list[str], settings: dict) -> int:
    """A match with no hands yet, imported through the app's page (this phone scores it)."""
    return import_file(page, live_server, dumps(Match(key, names, dict(GAMES[key].defaults(), **settings))))


@pytest.mark.parametrize("key", TALLY_KEYS)
def test_a_whole_hand_is_tapped_and_saved_trick_by_trick(page, live_server, screenshot, key):
    game, settings = GAMES[key], _variant(key)
    names = list(NAMES[:game.max_players])
    tally = game.shown.trick_tally(blank_place(game, dict(game.defaults(), **settings), len(names)))
    match_id = new_match(page, live_server, key, names, settings)
    page.get_by_role("link", name="Record trick by trick").click()
    page.wait_for_url(re.compile(rf"/matches/{match_id}/tally$"))
    expect(page).to_have_title(f"{game.title} trick by trick · Scorekeeper")
    expect(page.locator(".tally-table thead th")).to_have_text(["Player", *(c.label for c in tally.columns)])
    pick = None
    if tally.choice is not None:
        expect(page.locator("fieldset legend", has_text=tally.choice.legend)).to_be_visible()
        pick = tally.choice.options[-1][0]
        page.locator(f'input[name="{tally.choice.name}"][value="{pick}"]').check()
    rng = random.Random(key)
    winners = []
    for number in range(1, tally.tricks + 1):
        said = f"Trick {number} of {tally.tricks}"
        if tally.mark is not None and tally.mark.marked(number):
            said += f", {tally.mark.announce}"
        expect(page.locator(".tally-count")).to_have_text(said)
        if number == 2:
            screenshot(f"tally-{key}-trick-2")
        seat = rng.randrange(len(names))
        page.locator("button.tally-tap", has_text=names[seat]).click()
        winners.append(seat)
        if number == 2:  # a reload (a locked screen, a discarded tab) goes on from the last tap
            expect(page.locator(".tally-history li")).to_have_count(2)
            page.reload()
            expect(page.locator(".tally-history li")).to_have_count(2)
    expect(page.locator(".tally-count")).to_have_text(f"All {tally.tricks} tricks are in.")
    expect(page).to_have_url(re.compile(r"\?w=" + ",".join(map(str, winners))))  # a reload resumes
    if tally.mark is not None:
        marked = sum(tally.mark.marked(n) for n in range(1, tally.tricks + 1))
        expect(page.get_by_label(tally.mark.name, exact=True)).to_have_count(marked)
    for note in tally.notes:
        expect(page.locator("#tally")).to_contain_text(note)
    expect(page.locator(".preview-line")).to_contain_text("If saved:")
    assert layout_problems(page) == []
    screenshot(f"tally-{key}-done")
    page.get_by_role("button", name="Save this hand").click()
    page.wait_for_url(re.compile(rf"/matches/{match_id}(#.*)?$"))
    expect(page.locator(".notice")).to_contain_text("Hand 1 saved")
    recorded = page.evaluate(f"fetch('/matches/{match_id}/export.json').then(r => r.json())")
    assert recorded["hands"] == [tally.to_hand(winners, pick)]


@pytest.mark.parametrize("key", TALLY_KEYS)
def test_landscape_shows_every_tap_of_the_most_players(page, live_server, screenshot, key):
    game, settings = GAMES[key], _variant(key)
    names = LONG[:game.max_players]
    match_id = new_match(page, live_server, key, names, settings)
    page.set_viewport_size(LANDSCAPE)
    page.goto(f"{live_server}/matches/{match_id}/tally")
    screenshot(f"tally-{key}-landscape", full_page=False)
    for button in page.locator("button.tally-tap").all():
        box = button.bounding_box()
        assert box["y"] + box["height"] <= LANDSCAPE["height"], f"{button.inner_text()} is below the fold"
        assert button.evaluate("b => b.scrollWidth <= b.clientWidth")  # its name fits inside


@pytest.mark.parametrize("key", COUNTER_KEYS)
def test_the_counter_fills_the_points_and_says_a_clash_in_the_games_words(page, live_server, screenshot, key):
    game = GAMES[key]
    counter = game.shown.card_counter()
    names = list(NAMES[:game.min_players])
    new_match(page, live_server, key, names, {})
    wait_htmx(page, "#hand-form")
    group = next(g for g in game.shown.hand_form(game.empty_place(Table(tuple(names), game.defaults()), 0))
                 if g.kind == "counts")
    page.locator("summary", has_text=group.legend).click()
    kinds = [k.name for k in counter.kinds]
    counts = next(c for values in itertools.product(*(range(k.least, min(k.most, k.least + 2) + 1)
                                                      for k in counter.kinds))
                  if any(values) and not counter.problems({0: (c := dict(zip(kinds, values)))}, tuple(names)))
    for kind in counter.kinds:  # each input is found by the label the game gave its kind
        label = page.locator(".count-player").first.get_by_label(kind.label, exact=True)
        label.fill(str(counts[kind.name]))
    points = counter.points(counts)
    into = f'#hand-form input[name="{counter.into}_0"]'
    expect(page.locator(".preview-counted")).to_contain_text(
        f"{counter.counted[0].upper()}{counter.counted[1:]} make {names[0]} {points}")
    expect(page.locator(into)).to_have_value(str(points))
    page.fill(into, str(points + 1))
    expect(page.locator(f"#err-{group.name}")).to_contain_text(
        f"{counter.heading} and {counter.counted} disagree ({names[0]}: {points + 1} typed, but the "
        f"{counter.counted} make {points})")
    screenshot(f"counter-{key}-clash")
