"""The match log shows the numbers typed for a hand (tricks, points, per player) beside its
summary, in every game: the table reads them without opening the exact input (issue 26)."""
from __future__ import annotations

import re

import pytest

from scorekeeper.games import GAMES
from scorekeeper.samples import random_match

from .helpers import page_of, stored, version


@pytest.mark.parametrize("game", list(GAMES))
def test_an_undone_hand_in_the_log_shows_each_players_numbers(app, client, game):
    match = random_match(game, 2, seed=3)
    match_id = stored(app, client, match)
    assert client.post(f"/matches/{match_id}/undo", data={"version": version(client, match_id)}).status_code == 303
    page = page_of(client.get(f"/matches/{match_id}/log"))
    before = next(p.text for p in page.find_all("p") if p.text.startswith("Before: "))
    hand, names = match.hands[-1], match.players
    lists = [value for value in hand.values()
             if isinstance(value, list) and len(value) == len(names)
             and all(isinstance(v, int) and not isinstance(v, bool) for v in value)]
    for value in lists:
        assert " · ".join(f"{name} {number}" for name, number in zip(names, value)) in before, (game, before)
    # a hand that holds numbers per player (counts per seat, or trick by trick its winners):
    # every player with a number; a hand of single values (who made a call, the tricks of a
    # side) has no per-player numbers to show, and its summary says them
    if any(isinstance(value, list) for value in hand.values()):
        for name in names:
            assert re.search(rf"\b{name} -?\d+", before), (game, before)
