"""Undo gives the hand back (issue 26): the undone hand is in the form again as a draft,
with the usual "Draft kept on this phone" and Clear, so a slip is corrected, not typed
again. For every game of the registry at 390 x 844, with a hand the game itself makes up
(``Rules.random_hand``), dealt out of turn by the second player: saving the draft as it
comes back records the very same hand."""
from __future__ import annotations

import json
import random

import pytest
from playwright.sync_api import expect

from scorekeeper.games import GAMES
from scorekeeper.games.base import Table

from .conftest import import_file
from .test_layout import axe_check
from .test_table_app import wait_htmx

KEYS = list(GAMES)


def players_of(key: str) -> list[str]:
    game = GAMES[key]
    return ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"][:max(game.min_players, min(4, game.max_players))]


def one_hand_file(key: str, day: int) -> str:
    game, players = GAMES[key], players_of(key)
    ctx = game.empty_place(Table(tuple(players), game.defaults()), 0).dealing(1)
    hand = dict(game.rules.random_hand(ctx, random.Random(26)), dealer=1)  # Bob dealt out of turn
    return json.dumps({"format": "scorekeeper-match-1", "game": key, "players": players, "first_dealer": 0,
                       "date": f"2026-10-{day:02d}", "hands": [hand]})


@pytest.mark.parametrize("key", KEYS)
def test_undo_puts_the_hand_back_in_the_form_as_a_draft(page, live_server, screenshot, key):
    import_file(page, live_server, one_hand_file(key, KEYS.index(key) + 1))
    row = " ".join(page.locator("#hand-1").inner_text().split())
    totals = page.locator("#totals").inner_text()
    page.get_by_role("link", name="Undo hand 1").click()
    page.get_by_role("button", name="Undo hand 1").click()
    expect(page.locator(".notice")).to_contain_text("Hand 1 undone")
    expect(page.locator("#hand-1")).to_have_count(0)
    # back as a draft, drawn for the dealer it was dealt by
    note = page.locator("#hand-form .draft-note")
    expect(note).to_contain_text("Draft kept on this phone (not saved yet).")
    expect(page.locator("#record h2")).to_contain_text("Bob deals")
    expect(page.locator("#hand-form select[name=dealer]")).to_have_value("1")
    wait_htmx(page, "#preview")
    expect(page.locator("#preview .preview-line")).to_be_visible()
    screenshot(f"undo-gives-back-{key}")
    # saved as it came back: the same hand, the same totals
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator(".notice")).to_contain_text("Hand 1 saved: ")
    expect(page.locator("#hand-1")).to_be_visible()
    # (the same words: a list the form reads in its own order, as the ticks of nils, may be
    # written in another order than the file had it)
    assert sorted(page.locator("#hand-1").inner_text().split()) == sorted(row.split())
    assert page.locator("#totals").inner_text() == totals


def test_clear_empties_the_hand_given_back(page, live_server):
    import_file(page, live_server, one_hand_file("score_pad", 28))
    page.get_by_role("link", name="Undo hand 1").click()
    page.get_by_role("button", name="Undo hand 1").click()
    note = page.locator("#hand-form .draft-note")
    expect(note).to_contain_text("Draft kept on this phone")
    points = page.locator('#hand-form input[name="points_0"]')
    expect(points).not_to_have_value("")  # the hand given back (waits: the draft is put back after the swap)
    note.get_by_role("button", name="Clear the draft").click()
    expect(note).to_have_count(0)
    expect(points).to_have_value("")
    assert not axe_check(page)
    # and a reload does not bring it back
    page.reload()
    wait_htmx(page, "#preview")
    expect(page.locator('#hand-form input[name="points_0"]')).to_have_value("")
    expect(page.locator("#hand-form .draft-note")).to_have_count(0)
