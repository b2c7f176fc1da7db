"""A hand field that picks one player (``FieldGroup`` kind ``seat``: who made trump, who
declared, the tests' own game's finder of the lost marble) is offered by the players'
names and recorded as that player's seat number, so the game checks and scores a seat."""
from __future__ import annotations

from scorekeeper.samples import NAMES

from .helpers import page_of, problems, record, start, totals

PLAYERS = NAMES[:8]


def test_a_player_picked_by_name_is_recorded_as_their_seat(client):
    match_id = start(client, "oddball", PLAYERS)
    page = page_of(client.get(f"/matches/{match_id}"))
    offered = {e.attrs["value"]: e for e in page.find_all("input", type="radio", name="finder")}
    assert sorted(offered) == [str(seat) for seat in range(8)]  # one choice per player
    group = page.find(role="radiogroup", **{"aria-label": "Who found the lost marble"})
    assert group is not None and all(name in group.text for name in PLAYERS)  # by name, not number
    response = record(client, match_id, weather="clear", finder=5, **{f"marbles_{s}": 0 for s in range(8)})
    assert response.status_code == 303
    board = totals(client.get(f"/matches/{match_id}").get_data(as_text=True))
    assert board == {name: 1 if seat == 5 else 0 for seat, name in enumerate(PLAYERS)}
    hand = client.get(f"/matches/{match_id}/export.json").get_json()["hands"][0]
    assert hand["finder"] == 5  # a seat number, as a match file gives it
    # a correction opens with the player picked
    edit = page_of(client.get(f"/matches/{match_id}/hands/1/edit"))
    assert [e.attrs["value"] for e in edit.find_all("input", type="radio", name="finder") if "checked" in e.attrs] == ["5"]


def test_a_pick_left_out_is_not_recorded_and_one_not_offered_is_refused(client):
    match_id = start(client, "oddball", PLAYERS)
    marbles = {f"marbles_{s}": 1 for s in range(8)}
    assert record(client, match_id, weather="clear", **marbles).status_code == 303  # optional: left out
    assert "finder" not in client.get(f"/matches/{match_id}/export.json").get_json()["hands"][0]
    refused = record(client, match_id, weather="clear", finder=8, **marbles)
    assert refused.status_code == 422
    assert "must be 0 to 7, got 8" in problems(refused)  # said beside the pick
    assert len(client.get(f"/matches/{match_id}/export.json").get_json()["hands"]) == 1  # nothing half-saved
