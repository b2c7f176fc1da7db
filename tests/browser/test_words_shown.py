"""What the pages say, in real Chromium, for every game in the registry: the seat
picture's caption speaks of the small card only where the picture draws one (the score
pad marks no leader), and a number setting that means "none" at some value (the score
pad's target and number of hands at 0) reads as its word wherever settings are shown
(the change of setup and the match log, the printed sheet, the blank sheet, the rules
page), never as the bare number."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.games import GAMES
from scorekeeper.matchfile import dumps
from scorekeeper.samples import long_settings, random_match
from tests.places import blank_place

from .conftest import import_file

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def sample(game: str, seats: int, settings: dict):
    match = random_match(game, 2, seed=5, players=seats, settings=settings)
    match.players = NAMES[:seats]
    return match


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_caption_speaks_of_the_lead_card_only_where_one_is_drawn(page, live_server, game):
    seats = GAMES[game].min_players
    match_id = import_file(page, live_server, dumps(sample(game, seats, long_settings(game, 2, seats))))
    for path in ("", "/screen"):  # the scoreboard's table guide, and the big screen
        page.goto(f"{live_server}/matches/{match_id}{path}")
        figure = page.locator("figure.seat-picture")
        expect(figure.locator("svg.seats")).to_be_visible()
        caption = " ".join(figure.locator("figcaption").inner_text().split())
        assert caption.startswith("Clockwise from the bottom, in the order the players were entered; D deals")
        cards = figure.locator("rect.lead-card").count()
        # the key to the picture (its first sentence; the game's own notes follow it)
        key = caption.split(".")[0]
        if cards:
            assert key.endswith("D deals, the small card shows who leads"), caption
        else:
            assert key.endswith("D deals") and "card" not in caption, caption


# Every number setting with a value that reads as a word ((0, "none")), in every game.
NAMED = [pytest.param(key, setting.name, value, word, id=f"{key}-{setting.name}-{value}")
         for key, game in GAMES.items() for setting in game.settings
         if setting.kind not in ("choice", "bool", "text") for value, word in setting.labels]


def test_the_score_pad_has_settings_that_read_as_none():
    """The loop below is not empty: the score pad's target and number of hands read "none" at 0."""
    assert {(p.values[0], p.values[1], p.values[3]) for p in NAMED} >= {
        ("score_pad", "target", "none"), ("score_pad", "hand_count", "none")}


def said(page) -> str:
    return " ".join((page.locator("main").text_content() or "").split())


@pytest.mark.parametrize(("game", "name", "value", "word"), NAMED)
def test_a_setting_of_none_reads_as_its_word_wherever_settings_are_shown(page, live_server, game, name, value,
                                                                           word):
    described = GAMES[game]
    setting = next(s for s in described.settings if s.name == name)
    other = value + 50  # some number that means itself
    settings = dict(long_settings(game, 2, described.min_players), **{name: other})
    if described.rules.check_settings(blank_place(described, dict(settings, **{name: value}),
                                                  described.min_players)):
        # none here needs the others as they come (Third Wheel: no limit on deals needs a target)
        settings = dict(described.defaults(), **{name: other})
    match_id = import_file(page, live_server, dumps(sample(game, described.min_players, settings)))
    base = f"{live_server}/matches/{match_id}"
    label = setting.label
    bare = re.compile(rf"{re.escape(label)}:? {value}\b")  # "Target 0", "Target: 50 → 0"

    # the scorer changes it to none on the setup page: the change says so in words
    page.goto(base + "/setup")
    page.fill(f"[name=setting_{name}]", str(value))
    page.locator("#setup").get_by_role("button", name="Save", exact=True).click()
    confirm = page.locator("#setup-confirm")
    if confirm.count():  # the change moves some totals: confirmed first, in the same words
        assert f"{label}: {other} → {word}" in " ".join(confirm.inner_text().split())
        confirm.get_by_role("button", name="Save, and change the scores").click()
    page.wait_for_url(re.compile(rf"/matches/{match_id}(#.*)?$"))
    expect(page.locator("#match-notice")).to_contain_text(f"{label}: {other} → {word}")
    page.goto(base + "/log")
    assert f"{label}: {other} → {word}" in said(page)

    for path in ("/print", "/print/blank"):  # the printed sheet and the blank sheet of this match
        page.goto(base + path)
        line = " ".join(page.locator("p.settings").first.inner_text().split())
        assert f"{label} {word}" in line and not bare.search(line), (path, line)
    page.goto(base + "/rules")  # the rules with this match's settings
    item = page.locator("dl div", has=page.locator("dt", has_text=re.compile(rf"^{re.escape(label)}$")))
    expect(item.locator("dd strong")).to_have_text(word)
    for path in ("", "/setup", "/print", "/print/blank", "/rules", "/log"):
        page.goto(base + path)
        assert not bare.search(said(page)), path
