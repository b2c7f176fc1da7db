"""My history as a file: every match of this phone in one JSON file (a list of match
files), imported on another phone with duplicates recognised and reported."""
from __future__ import annotations

import io
import json
import re

from scorekeeper import store
from scorekeeper.engine import Match

from .helpers import as_scorer, page_of, start, text

WHEEL = [{"trump": "moons", "mode": "high", "wheel": False, "bid": 5, "tricks": [5, 4, 2]}]


def _upload(client, body: str | bytes):
    data = body.encode() if isinstance(body, str) else body
    return client.post("/import", data={"file": (io.BytesIO(data), "history.json")},
                       content_type="multipart/form-data")


def _history(app, client) -> list[dict]:
    start(client, "third_hand", ["Ann", "Bob"])
    db = store.connect(app.config["DATABASE"])
    try:
        wheel_id = store.create_match(db, Match("third_wheel", ["Ann", "Bob", "Cy"], hands=WHEEL, date="2026-11-02",
                                                note="Friday"))
        store.create_match(db, Match("third_hand", ["Zed", "Yan"]))  # another phone's: not exported
    finally:
        db.close()
    as_scorer(app, wheel_id, client)
    response = client.get("/history/export.json")
    assert response.status_code == 200
    assert "attachment" in response.headers["Content-Disposition"]
    return json.loads(response.get_data(as_text=True))


def test_the_export_is_a_list_of_this_phones_match_files(app, client):
    history = _history(app, client)
    assert [(m["game"], m["players"]) for m in history] == [("third_hand", ["Ann", "Bob"]),
                                                            ("third_wheel", ["Ann", "Bob", "Cy"])]
    assert history[1]["hands"] == WHEEL and history[1]["note"] == "Friday" and history[1]["date"] == "2026-11-02"
    assert all(m["format"] == "scorekeeper-match-1" for m in history)
    assert page_of(client.get("/")).find("a", href="/history/export.json") is not None


def test_another_phone_imports_it_and_a_second_import_adds_nothing(app, client):
    body = json.dumps(_history(app, client))
    other = app.test_client()
    first = _upload(other, body)
    assert first.status_code == 200
    assert "2 of 2 matches imported." in text(first)
    listed = text(other.get("/"))
    assert "Ann, Bob, Cy" in listed and "Zed" not in listed
    again = _upload(other, body)
    assert "0 of 2 matches imported; 2 already on this phone (same game, players, date and hands), " \
           "not imported twice." in text(again)
    links = [a.attrs["href"] for a in page_of(again).find_all("a") if "the copy" in a.text]
    assert len(links) == 2 and other.get(links[1]).status_code == 200
    db = store.connect(app.config["DATABASE"])
    try:
        assert db.execute("select count(*) from matches").fetchone()[0] == 5  # 3 + 2, not 7
    finally:
        db.close()


def test_the_same_phone_recognises_its_own_matches_and_names_compare_as_the_rules_say(app, client):
    history = _history(app, client)
    history[1]["players"] = ["ANN", "bob", "Cy"]  # the same names as the rules compare them
    new = dict(history[1], hands=[])  # not the same hands: a new match
    answer = _upload(client, json.dumps([history[1], new, new]))
    assert "1 of 3 matches imported; 2 already on this phone" in text(answer)
    assert "(the same match as an earlier one in the file)" in text(answer)


def test_a_bad_match_in_the_file_imports_nothing_and_says_which(app, client):
    history = _history(app, client)
    history[1]["hands"][0]["bid"] = 12
    other = app.test_client()
    answer = _upload(other, json.dumps(history))
    assert answer.status_code == 400
    assert " match 2: hand 1: " in text(answer)
    assert "Ann, Bob" not in text(other.get("/"))
    assert "match 1: " in text(_upload(other, "[[1, 2]]"))
    assert "the list holds no matches" in text(_upload(other, "[]"))


def test_a_single_match_file_still_opens_the_match(app, client):
    history = _history(app, client)
    other = app.test_client()
    answer = _upload(other, json.dumps(history[1]))
    assert answer.status_code == 303



def test_the_imported_matches_are_named_and_said_to_be_copies(app, client):
    body = json.dumps(_history(app, client))
    other = app.test_client()
    report = text(_upload(other, body))
    assert "Third Hand: Ann, Bob" in report and "Third Wheel: Ann, Bob, Cy, 2026-11-02" in report
    assert not re.search(r"\bMatch \d+\b", report)
    assert "Each is a copy on this phone" in report and "open its scorer link" in report


def test_a_single_match_imported_on_another_phone_says_it_is_a_copy(app, client):
    one = json.dumps(_history(app, client)[1])
    other = app.test_client()
    answer = _upload(other, one)
    assert answer.status_code == 303
    board = text(other.get(answer.headers["Location"]))
    assert "Imported as a new match on this phone: a copy" in board and "open its scorer link" in board


def test_the_heading_says_what_came_in_one_match_or_nothing_new(app, client):
    history = _history(app, client)
    other = app.test_client()
    assert _upload(other, json.dumps([history[1]])).status_code == 303  # a new match alone: opened
    # the same match file again (alone, as a phone shares it): nothing came in, and the heading says so
    again = _upload(other, json.dumps(history[1]))
    assert again.status_code == 200
    assert page_of(again).find("h1").text == "Nothing new to import"
    assert "0 of 1 match imported; 1 already on this phone" in text(again)
    assert page_of(_upload(app.test_client(), json.dumps(history))).find("h1").text == "History imported"
