"""Print view, JSON/CSV export and import, through real HTTP on the test client."""
import csv
import io
import json
import re

from scorekeeper import store
from scorekeeper.engine import Match
from scorekeeper.matchfile import loads

from .helpers import as_scorer

WHEEL_HAND = {"trump": "wyrms", "mode": "high", "wheel": False, "bid": 5, "tricks": [5, 4, 2]}
SPADES_HAND = {"bids": [7, 5, 6], "tricks": [4, 5, 0], "dummy_tricks": 4}


def make_match(app, client, game="third_wheel", players=("Ann", "Bob", "Cy"), hands=(WHEEL_HAND,), note=None,
               settings=None):
    with app.app_context():
        from scorekeeper.web.edges.db import get_db
        match_id = store.create_match(get_db(), Match(game=game, players=list(players), hands=list(hands),
                                                      settings=settings or {}, date="2026-11-20", note=note))
    as_scorer(app, match_id, client)  # as if this client had started it
    return match_id


def upload(client, text, name="match.json"):
    data = {"file": (io.BytesIO(text.encode() if isinstance(text, str) else text), name)}
    return client.post("/import", data=data, content_type="multipart/form-data")


def test_print_view_shows_players_hands_points_and_explanations(app, client):
    match_id = make_match(app, client, note="Kitchen table")
    page = client.get(f"/matches/{match_id}/print").get_data(as_text=True)
    assert "Third Wheel" in page and "Kitchen table" in page and "2026-11-20" in page
    assert "Why each hand scored what it did" in page and "Ann dealt" in page
    assert "+9" in page and "+2" in page
    assert "Ann bid 5 and took exactly 5" in page
    assert "In progress after 1 hand;" in page and "Bob deals next" in page


def test_print_view_has_a_print_stylesheet_and_no_forms(app, client):
    page = client.get(f"/matches/{make_match(app, client)}/print").get_data(as_text=True)
    assert re.search(r"/static/print\.[0-9a-f]{12}\.css", page)
    assert "<form" not in page and "<button" not in page


def test_print_view_of_a_finished_match_names_the_winner(app, client):
    hands = [dict(WHEEL_HAND)] * 6  # two deals each, with no target
    match_id = make_match(app, client, hands=hands, settings={"target": 0, "deals_each": 2})
    page = client.get(f"/matches/{match_id}/print").get_data(as_text=True)
    assert "wins" in page and "after 6 hands" in page


def test_json_export_is_the_match_file_and_rescores(app, client, tmp_path, command):
    match_id = make_match(app, client, note="Cup final")
    response = client.get(f"/matches/{match_id}/export.json")
    assert response.status_code == 200
    assert "attachment" in response.headers["Content-Disposition"]
    doc = json.loads(response.data)
    assert doc["format"] == "scorekeeper-match-1" and doc["note"] == "Cup final"
    path = tmp_path / "export.json"
    path.write_bytes(response.data)
    done = command("rescore", str(path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["totals"] == [9, 0, 2]


def test_exported_json_imports_as_an_equal_match(app, client):
    match_id = make_match(app, client, game="dummy_spades", hands=[SPADES_HAND])
    exported = client.get(f"/matches/{match_id}/export.json").data
    other = app.test_client()  # another phone (on this one it is already there: not imported twice)
    response = upload(other, exported)
    assert response.status_code == 303
    new_id = int(response.headers["Location"].rstrip("/").split("/")[-1])
    assert new_id != match_id
    assert other.get(f"/matches/{new_id}/export.json").data == exported
    assert "already on this phone" in upload(client, exported).get_data(as_text=True)


def test_csv_export_has_a_row_per_hand_with_points_and_totals(app, client):
    match_id = make_match(app, client, game="dummy_spades", hands=[SPADES_HAND, SPADES_HAND])
    response = client.get(f"/matches/{match_id}/export.csv")
    assert response.mimetype == "text/csv"
    assert response.data.startswith("\ufeff".encode())  # spreadsheets read it as UTF-8
    rows = list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"))))
    assert rows[0][:8] == ["hand", "dealer", "dummy", "Ann bid", "Ann tricks", "Ann points", "Ann total", "Ann bags"]
    assert len(rows) == 3
    first = dict(zip(rows[0], rows[1]))
    # each input in its own column, as the printed sheet shows it (the declarer marked)
    assert (first["Ann bid"], first["Ann tricks"], first["Bob bid"], first["dummy"]) == ("7 dec", "4", "5", "4")
    assert (first["Ann points"], first["Bob points"], first["Cy points"]) == ("71", "50", "-60")
    assert first["Ann bags"] == "1"
    second = dict(zip(rows[0], rows[2]))
    assert second["Ann total"] == "142" and second["dealer"] == "Bob"


def test_csv_cells_a_spreadsheet_would_run_are_neutralised(app, client):
    evil = '=HYPERLINK("http://example.invalid","x")'
    match_id = make_match(app, client, game="dummy_spades", players=[evil, "+Bob", "@Cy"], hands=[SPADES_HAND])
    rows = list(csv.reader(io.StringIO(client.get(f"/matches/{match_id}/export.csv").data.decode("utf-8-sig"))))
    first = dict(zip(rows[0], rows[1]))
    assert first["dealer"] == "'" + evil
    assert rows[0][5] == "'" + evil + " points"  # the header names the player too
    assert first[f"'{evil} points"] == "71" and first["'+Bob points"] == "50"
    assert first["'@Cy points"] == "-60"  # a negative number stays a number
    # a right-to-left name's heading starts with its isolate: what follows it still counts
    dana = "=\u05d3\u05e0\u05d4"
    match_id = make_match(app, client, game="dummy_spades", players=[dana, "Bob", "Cy"], hands=[SPADES_HAND])
    rows = list(csv.reader(io.StringIO(client.get(f"/matches/{match_id}/export.csv").data.decode("utf-8-sig"))))
    assert rows[0][5] == f"'\u2068{dana}\u2069 points"


def test_import_of_a_bad_file_lists_every_problem_and_stores_nothing(app, client):
    doc = {"game": "third_wheel", "players": ["Ann", "Bob", "Cy"],
           "hands": [dict(WHEEL_HAND, tricks=[5, 4, 1]), dict(WHEEL_HAND, bid=12)]}
    response = upload(client, json.dumps(doc))
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "hand 1: tricks add up to 10, not 11" in page
    assert "hand 2: bid:" in page
    with app.app_context():
        from scorekeeper.web.edges.db import get_db
        assert store.all_matches(get_db()) == []


def test_import_of_text_that_is_not_json_says_so(client):
    response = upload(client, "this is not json")
    assert response.status_code == 400
    assert "not valid JSON" in response.get_data(as_text=True)


def test_import_without_a_file_asks_for_one(client):
    response = client.post("/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 400
    assert "Choose a match file to import." in response.get_data(as_text=True)


def test_import_page_is_a_real_upload_form(client):
    page = client.get("/import").get_data(as_text=True)
    assert 'enctype="multipart/form-data"' in page and 'method="post"' in page


def test_exports_of_a_missing_match_are_404(client):
    for suffix in ("print", "export.json", "export.csv"):
        assert client.get(f"/matches/999/{suffix}").status_code == 404


def test_round_trip_keeps_date_and_note(app, client):
    match_id = make_match(app, client, note="Rematch")
    match = loads(client.get(f"/matches/{match_id}/export.json").data)
    assert match.date == "2026-11-20" and match.note == "Rematch"


def test_two_matches_of_one_evening_download_under_different_names(app, client):
    names = set()
    for _ in range(2):
        match_id = make_match(app, client, game="dummy_spades", hands=[SPADES_HAND])  # both dated 2026-11-20
        for suffix in ("export.json", "export.csv"):
            names.add(client.get(f"/matches/{match_id}/{suffix}").headers["Content-Disposition"])
    assert len(names) == 4
    assert all("dummy_spades-2026-11-20-match" in name and "Ann-Bob-Cy" in name for name in names)
