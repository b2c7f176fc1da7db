"""A game played in fixed partnerships (``Game.sides``: each side's seats share the team's
total) shows them on the board: each player's row names their partners, partners on their
team's total are not "tied", and the share line names each team once. Shown on the tests'
own game, given sides for the test (every real game without sides keeps its board)."""
from __future__ import annotations

import re

import pytest

from scorekeeper.games import GAMES
from scorekeeper.samples import NAMES

from .helpers import page_of, record, start

PLAYERS = NAMES[:8]
SIDES = ((0, 4), (1, 5), (2, 6), (3, 7))


@pytest.fixture
def in_teams(monkeypatch):
    monkeypatch.setattr(type(GAMES["oddball"]), "sides", lambda self, table: SIDES)


def board(client, match_id: int) -> dict[str, dict]:
    """Each standing row as a player reads it: name -> its place and the line under it."""
    page = page_of(client.get(f"/matches/{match_id}"))
    rows = {}
    for row in page.find_all("li", cls="standing"):
        start = page.elements.index(row)
        inside = page.elements[start + 1:start + 12]
        name = next(e.text for e in inside if "name" in e.classes)
        rows[name] = {"place": next(e.text for e in inside if "place" in e.classes),
                      "sub": next(e.text for e in inside if "sub" in e.classes)}
    return rows


def test_the_board_names_partners_and_the_share_line_each_team_once(client, in_teams):
    match_id = start(client, "oddball", PLAYERS)
    # partners hold the same marbles, so the team's total is each partner's
    assert record(client, match_id, weather="clear", **{f"marbles_{s}": s % 4 for s in range(8)}).status_code == 303
    rows = board(client, match_id)
    for a, b in SIDES:
        assert rows[PLAYERS[a]]["sub"].startswith(f"with {PLAYERS[b]}")
        assert rows[PLAYERS[b]]["sub"].startswith(f"with {PLAYERS[a]}")
        assert "tie" not in rows[PLAYERS[a]]["place"]  # level only with a partner: no tie
    share = page_of(client.get(f"/matches/{match_id}")).find(id="result-text").text
    teams = ", ".join(f"{PLAYERS[a]} and {PLAYERS[b]} {a}" for a, b in reversed(SIDES))
    assert share.endswith(f": {teams}, after 1 hand, still playing"), share
    printed = page_of(client.get(f"/matches/{match_id}/print")).find("table", cls="standings").text
    assert f"{PLAYERS[0]} with {PLAYERS[4]}" in printed and "tie" not in printed  # the printed standings too


def test_without_sides_nobody_has_partners_and_equal_totals_tie(client):
    match_id = start(client, "oddball", PLAYERS)
    assert record(client, match_id, weather="clear", **{f"marbles_{s}": s % 4 for s in range(8)}).status_code == 303
    rows = board(client, match_id)
    assert all("with" not in row["sub"] and "tie" in row["place"] for row in rows.values())


def test_a_team_is_placed_once_so_the_team_behind_the_leaders_is_second(client, in_teams):
    match_id = start(client, "oddball", PLAYERS)
    assert record(client, match_id, weather="clear", **{f"marbles_{s}": s % 4 for s in range(8)}).status_code == 303
    rows = board(client, match_id)
    # four teams on four totals: 1st to 4th, each place held by both partners (not 1st, 1st, 3rd, 3rd...)
    places = sorted(row["place"].split()[0] for row in rows.values())
    assert places == ["1st", "1st", "2nd", "2nd", "3rd", "3rd", "4th", "4th"], rows
    for a, b in SIDES:
        assert rows[PLAYERS[a]]["place"] == rows[PLAYERS[b]]["place"]
    printed = page_of(client.get(f"/matches/{match_id}/print")).find("table", cls="standings").text
    assert re.findall(r"\b(\d+(?:st|nd|rd|th))\b", printed) == places, printed  # the printed standings too
