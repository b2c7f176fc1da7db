"""Whatever arrives, a clear message and nothing stored: 5,000-digit numbers in
the hand forms and the tally, lone surrogates in an imported file."""
from __future__ import annotations

import io
import json

import pytest

from scorekeeper import store
from scorekeeper.web.edges.db import get_db

from .helpers import start, text

BIG = "9" * 5000
RAIL = {"scoring_tricks_0": "2", "scoring_tricks_1": "2", "scoring_tricks_2": "1",
        "other_tricks_0": "4", "other_tricks_1": "4", "other_tricks_2": "4"}


def hands_stored(app, match_id: int) -> int:
    with app.app_context():
        return len(store.get_record(get_db(), match_id).match.hands)


@pytest.mark.parametrize("fields", [dict(RAIL, dealer=BIG), {"winners": " ".join([BIG] * 17)},
                                    {"winners": "1 " * 16 + BIG}])
def test_giant_numbers_in_a_third_rail_hand_are_refused_plainly(app, client, fields):
    match_id = start(client, "third_rail", ["Ann", "Bob", "Cy"])
    for url in (f"/matches/{match_id}/hands", f"/matches/{match_id}/hands/preview"):
        response = client.post(url, data=fields)
        assert response.status_code in (200, 422), url
        words = text(response)
        assert "must be a seat" in words or "needs 17 winners" in words or "Not a valid choice" in words, url
    assert hands_stored(app, match_id) == 0


def test_a_giant_number_in_a_nil_tick_is_ignored_not_a_crash(app, client):
    match_id = start(client, "dummy_spades", ["Ann", "Bob", "Cy"])
    response = client.post(f"/matches/{match_id}/hands", data={
        "bids_0": "1", "bids_1": "1", "bids_2": "1", "tricks_0": "3", "tricks_1": "4", "tricks_2": "2",
        "dummy_tricks": "4", "nils_0": BIG})
    assert response.status_code in (303, 422)


def test_a_giant_tap_on_the_tally_is_ignored(app, client):
    match_id = start(client, "third_rail", ["Ann", "Bob", "Cy"])
    response = client.post(f"/matches/{match_id}/tally", data={"tap": BIG, "w": BIG})
    assert response.status_code in (200, 303)


def test_lone_surrogates_in_an_imported_file_get_a_message_and_nothing_is_stored(app, client):
    doc = {"game": "third_rail", "players": ["Ann", "Bob", "Cy"], "note": "\ud800", "date": "2026-11-2\ud800",
           "settings": {"\ud800": 1}, "hands": [{"winners": [0] * 17, "trump": "\ud800"}]}
    data = {"file": (io.BytesIO(json.dumps(doc).encode()), "match.json")}
    response = client.post("/import", data=data, content_type="multipart/form-data")
    assert response.status_code == 400  # the import page's answer to a refused file
    words = text(response)
    assert 'note: holds broken text (a lone surrogate, got "\\ud800")' in words
    assert "hand 1.trump: holds broken text" in words and "settings: holds broken text" in words
    with app.app_context():
        assert store.all_matches(get_db()) == []


def test_a_name_with_a_lone_surrogate_is_refused_on_import(app, client):
    doc = {"game": "third_rail", "players": ["Ann\ud800", "Bob", "Cy"]}
    data = {"file": (io.BytesIO(json.dumps(doc).encode()), "match.json")}
    response = client.post("/import", data=data, content_type="multipart/form-data")
    assert response.status_code == 400  # the import page's answer to a refused file
    assert "a name cannot hold line breaks, control characters or broken text" in text(response)
