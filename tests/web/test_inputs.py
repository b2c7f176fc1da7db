"""Issue 18, finding 5, on the web: names typed into the start and Players & settings
forms are compared as rules.md says (ignoring case and invisible characters), a date typed
anywhere is exactly YYYY-MM-DD, and an imported file may say null for what it leaves out."""
from __future__ import annotations

import io
import json
import re

from scorekeeper.names import same_name

from .helpers import page_of, problems, record, start, start_form, text
from .test_setup import setup_form

WHEEL = {"trump": "wyrms", "mode": "high", "bid": 5, "tricks_0": 5, "tricks_1": 4, "tricks_2": 2}


def _upload(client, document):
    body = json.dumps(document).encode()
    return client.post("/import", data={"file": (io.BytesIO(body), "match.json")}, content_type="multipart/form-data")


def _beside(response, field: str) -> str:
    """The words of the errors shown right after a form field, before the next field."""
    page = page_of(response)
    box = page.find("input", name=field)
    assert box is not None, field
    words = []
    for element in page.elements[page.elements.index(box) + 1:]:
        if element.tag in ("input", "select"):
            break
        if element.tag == "li":
            words.append(element.text)
    return " ".join(words)


def test_a_name_of_fillers_only_is_refused_on_the_start_form(client):
    response = client.post("/matches/new", data=start_form("third_wheel", ["Ann", "\u3164\u3164", "Cy"]))
    assert response.status_code == 422
    assert 'a name cannot be empty: "\\u3164\\u3164" holds only invisible characters' in text(response)
    assert "holds only invisible characters" in _beside(response, "player_1")
    assert "Ann" not in text(client.get("/"))  # nothing saved


def test_a_name_of_fillers_in_a_seat_third_rail_may_leave_empty_is_still_refused(client):
    # an empty seat is skipped on a table of 3 to 6; a seat of invisible characters is not empty-looking
    response = client.post("/matches/new", data=start_form("third_rail", ["Ann", "Bob", "Cy", "\u115f"]))
    assert response.status_code == 422
    assert any("holds only invisible characters" in p for p in problems(response)), problems(response)


def test_a_duplicate_with_a_zero_width_space_is_refused_on_the_start_form(client):
    response = client.post("/matches/new", data=start_form("third_wheel", ["Ann", "Bob", "Ann\u200b"]))
    assert response.status_code == 422
    assert '"Ann\\u200b" is already at the table as "Ann" (names must differ, ignoring case and invisible ' \
           "characters)" in text(response)
    assert "already at the table" in _beside(response, "player_2")


def test_a_rename_to_the_same_name_with_a_soft_hyphen_is_refused(client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    assert record(client, match_id, **WHEEL).status_code == 303
    refused = client.post(f"/matches/{match_id}/setup", data=dict(setup_form(client, match_id), player_2="A\u00adnn"))
    assert refused.status_code == 422
    assert '"A\\u00adnn" is already at the table as "Ann"' in text(refused)
    assert setup_form(client, match_id)["player_2"] == "Cy"  # unchanged


def test_a_week_date_is_refused_on_the_start_and_date_forms(client):
    response = client.post("/matches/new", data=start_form("third_wheel", ["Ann", "Bob", "Cy"], date="2024-W01-1"))
    assert response.status_code == 422
    assert 'date: must be a day as YYYY-MM-DD, got "2024-W01-1"' in text(response)
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"], date="2024-01-01")
    for typed in ("2024-W01-1", "2024-001", "20240102", "\uff12\uff10\uff12\uff14-01-02"):
        response = client.post(f"/matches/{match_id}/details", data={"date": typed, "note": ""})
        assert response.status_code == 422, typed
        assert "date: must be a day as YYYY-MM-DD" in text(response)
    assert "2024-01-01" in text(client.get(f"/matches/{match_id}"))


def test_printing_a_day_asked_as_a_week_date_is_refused(client):
    start(client, "third_wheel", ["Ann", "Bob", "Cy"], date="2024-01-01")
    response = client.get("/print?date=2024-W01-1")
    assert response.status_code == 400 and "date must be a day as YYYY-MM-DD" in text(response)


def test_an_imported_file_with_nulls_is_imported_and_exported_without_them(client):
    document = {"format": None, "game": "dummy_spades", "players": ["Ann", "Bob", "Cy"], "settings": None,
                "first_dealer": None, "date": None, "note": None,
                "hands": [{"bids": [5, 4, 3], "nils": None, "tricks": [4, 3, 3], "dummy_tricks": 3, "dealer": None}]}
    response = _upload(client, document)
    assert response.status_code == 303, text(response)
    match_id = int(response.headers["Location"].rsplit("/", 1)[1])
    exported = json.loads(client.get(f"/matches/{match_id}/export.json").get_data(as_text=True))
    assert exported["hands"] == [{"bids": [5, 4, 3], "tricks": [4, 3, 3], "dummy_tricks": 3}]
    assert exported["first_dealer"] == 0


def test_an_imported_file_with_a_week_date_is_refused_naming_date(client):
    response = _upload(client, {"game": "third_wheel", "players": ["Ann", "Bob", "Cy"], "date": "2024-W01-1"})
    assert response.status_code == 400
    assert 'date: must be a day as YYYY-MM-DD, got "2024-W01-1"' in text(response)
    assert "Ann, Bob, Cy" not in text(client.get("/"))


def test_an_imported_file_with_names_alike_but_for_invisible_characters_is_refused(client):
    response = _upload(client, {"game": "third_wheel", "players": ["Ann", "Bob", "ann\ufeff"]})
    assert response.status_code == 400
    assert '"ann\\ufeff" is already at the table as "Ann"' in text(response)


def test_search_known_players_and_stats_ignore_invisible_characters(app, client):
    start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    start(client, "third_wheel", ["Ann\u200b", "Dee", "Eve"])  # pasted from a chat, with a zero-width space
    history = re.sub(r"\s+", " ", text(client.get("/", query_string={"q": "A\u00adnn"})))
    assert "2 matches with a player called" in history
    page = page_of(client.get("/matches/new"))
    datalist = page.find("datalist", id="known-players")
    offered = [e.attrs["value"] for e in page.elements[page.elements.index(datalist) + 1:] if e.tag == "option"]
    assert sum(1 for name in offered if same_name(name) == "ann") == 1
    people = text(client.get("/players"))
    assert " 2 matches · 0 won of 0 finished " in people
    assert client.get("/stats", query_string={"player": "\u2060Ann"}).status_code == 200
    invisible = client.get("/stats", query_string={"player": "\u200b"})
    assert invisible.status_code == 400 and "Say which player" in text(invisible)


# --- issues 25 and 27, finding 9: the new rulings on names and settings, on the web ---------

def test_a_name_with_a_space_behind_a_zero_width_space_is_a_duplicate_on_the_start_form(client):
    response = client.post("/matches/new", data=start_form("third_wheel", ["Ann", "Bob", "\u200b Ann"]))
    assert response.status_code == 422
    assert '"\\u200b Ann" is already at the table as "Ann"' in _beside(response, "player_2")
    assert "Bob" not in text(client.get("/"))  # nothing saved


def test_a_right_to_left_override_is_refused_beside_its_seat(client):
    response = client.post("/matches/new", data=start_form("third_wheel", ["Ann", "\u202eBob", "Cy"]))
    assert response.status_code == 422
    assert ('a name cannot hold bidirectional controls: U+202E (right-to-left override) would reorder the text '
            'around it, got "\\u202eBob"') in _beside(response, "player_1")
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    for typed in ("C\u2028y", "C\u2029y", "C\u2066y"):
        refused = client.post(f"/matches/{match_id}/setup", data=dict(setup_form(client, match_id), player_2=typed))
        assert refused.status_code == 422 and "a name cannot hold" in _beside(refused, "player_2"), typed
    assert setup_form(client, match_id)["player_2"] == "Cy"  # unchanged


def test_a_blank_braille_name_is_empty_on_the_start_form(client):
    response = client.post("/matches/new", data=start_form("third_wheel", ["Ann", "\u2800\u2800", "Cy"]))
    assert response.status_code == 422
    assert 'a name cannot be empty: "\\u2800\\u2800" holds only invisible characters' in _beside(response, "player_1")
    assert client.get("/stats", query_string={"player": "\u2800"}).status_code == 400


def test_an_imported_setting_that_does_not_apply_is_still_checked(client):
    for settings, message in (({"bonus_tie": "x"}, 'settings.bonus_tie: must be one of "each", "none", got "x"'),
                              ({"peek": "none", "flip_count": 9}, "settings.flip_count: must be 1 to 4, got 9")):
        game = "third_rail" if "bonus_tie" in settings else "dummy_spades"
        response = _upload(client, {"game": game, "players": ["Ann", "Bob", "Cy"], "settings": settings})
        assert response.status_code == 400
        assert message in text(response)
    assert "Ann, Bob, Cy" not in text(client.get("/"))

