"""Scorer and watcher links, who may write, and the watcher's live scoreboard."""
from __future__ import annotations

import io
import json
import re

from scorekeeper import store
from scorekeeper.engine import Match
from scorekeeper.web.edges.db import get_db

from .helpers import record, sql_statements, start, text, totals, version

WHEEL = {"trump": "wyrms", "mode": "high", "bid": 5, "tricks_0": 5, "tricks_1": 4, "tricks_2": 2}
WATCHER_ONLY = "This is a watcher link: you can follow the score but not change it. Ask the scorer for the scorer link."


def tokens(app, match_id):
    with app.app_context():
        return store.get_tokens(get_db(), match_id)


def hands(app, match_id):
    with app.app_context():
        return store.get_record(get_db(), match_id).match.hands


def test_every_match_gets_two_different_unguessable_tokens(app, client):
    first = tokens(app, start(client, "third_wheel", ["Ann", "Bob", "Cy"]))
    second = tokens(app, start(client, "third_wheel", ["Ann", "Bob", "Cy"]))
    values = list(first.values()) + list(second.values())
    assert len(set(values)) == 4
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{22}", v) for v in values)


def test_the_creator_sees_both_links_as_qr_codes(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    t = tokens(app, match_id)
    html = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert 'id="share"' in html and "Share this match" in html
    assert f'value="http://localhost/s/{t["scorer_token"]}"' in html
    assert f'value="http://localhost/w/{t["watcher_token"]}"' in html
    # the address is the one the phone used to reach the server
    # (a browser keeps a cookie per host name: the same phone reaching the server by its address)
    client.set_cookie("scorekeeper_device", client.get_cookie("scorekeeper_device").value, domain="192.168.1.20")
    lan = client.get(f"/matches/{match_id}", base_url="http://192.168.1.20:5000").get_data(as_text=True)
    assert f'value="http://192.168.1.20:5000/w/{t["watcher_token"]}"' in lan
    svgs = re.findall(r"<svg[^>]*class=\"qr\".*?</svg>", html, re.S)
    assert len(svgs) == 2
    for svg in svgs:
        assert "style" not in svg and "<?xml" not in svg and 'xmlns="http://www.w3.org/2000/svg"' in svg
    assert 'id="hand-form"' in html and "edit date &amp; note" in html


def test_on_the_server_itself_the_links_use_the_lan_address(app, client):
    app.config["LAN_ADDRESS"] = "192.168.1.9"
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    html = client.get(f"/matches/{match_id}", base_url="http://localhost:5000").get_data(as_text=True)
    assert 'value="http://192.168.1.9:5000/w/' in html and 'value="http://192.168.1.9:5000/s/' in html


def test_a_device_without_a_grant_cannot_tell_the_match_exists(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    record(client, match_id, **WHEEL)
    stranger = app.test_client()
    missing = stranger.get("/matches/999")
    for url in (f"/matches/{match_id}", f"/matches/{match_id}/log", f"/matches/{match_id}/print",
                f"/matches/{match_id}/export.json", f"/matches/{match_id}/export.csv", f"/matches/{match_id}/board",
                f"/matches/{match_id}/hands/1/why", f"/matches/{match_id}/rules", f"/matches/{match_id}/chart"):
        response = stranger.get(url)
        assert (response.status_code, response.data) == (404, missing.data), url
    assert stranger.post(f"/matches/{match_id}/hands", data=WHEEL).status_code == 404
    home = stranger.get("/").get_data(as_text=True)
    assert "Ann, Bob, Cy" not in home and "No matches yet" in home


def test_a_device_that_opened_the_watcher_link_sees_the_match_read_only(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    record(client, match_id, **WHEEL)
    watcher = app.test_client()
    assert watcher.get(f"/w/{tokens(app, match_id)['watcher_token']}").status_code == 200
    html = watcher.get(f"/matches/{match_id}").get_data(as_text=True)
    assert totals(html) == {"Ann": 9, "Bob": 0, "Cy": 2}
    assert "<form" not in html and 'id="hand-form"' not in html
    assert f"/matches/{match_id}/hands/1/edit" not in html and f"/matches/{match_id}/undo" not in html
    assert "edit date &amp; note" not in html
    assert "/s/" not in html  # the scorer link is never shown to a watcher
    assert tokens(app, match_id)["watcher_token"] in html
    assert f'hx-get="/matches/{match_id}/board"' in html and 'hx-trigger="every 3s, shown from:document"' in html
    # without JavaScript the page does not update itself, and says how to see new scores
    assert "Watching: <span data-live-how>reload this page to see new scores.</span>" in html
    assert f"/matches/{match_id}/print" in html and f"/matches/{match_id}/export.csv" in html
    home = watcher.get("/").get_data(as_text=True)
    assert "Ann, Bob, Cy" in home and "watching" in home


def test_the_watcher_link_is_read_only_even_for_the_scorer(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    t = tokens(app, match_id)
    response = client.get(f"/w/{t['watcher_token']}")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "<form" not in html and "/s/" not in html and 'hx-trigger="every 3s, shown from:document"' in html
    # print and export stay open to a watcher
    watcher = app.test_client()
    watcher.get(f"/w/{t['watcher_token']}")
    for url in (f"/matches/{match_id}/print", f"/matches/{match_id}/export.json", f"/matches/{match_id}/export.csv",
                f"/matches/{match_id}/log", f"/matches/{match_id}/rules"):
        assert watcher.get(url).status_code == 200, url


def test_every_write_refuses_a_watcher_with_403(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    record(client, match_id, **WHEEL)
    rail = start(client, "third_rail", ["Ann", "Bob", "Cy"])
    before = store_state(app)
    watcher = app.test_client()
    watcher.get(f"/w/{tokens(app, match_id)['watcher_token']}")
    watcher.get(f"/w/{tokens(app, rail)['watcher_token']}")
    data = dict(WHEEL, version=version(client, match_id))
    attempts = [
        ("post", f"/matches/{match_id}/hands", data),
        ("post", f"/matches/{match_id}/hands/preview", data),
        ("post", f"/matches/{match_id}/hands/1/edit", data),
        ("post", f"/matches/{match_id}/hands/1/preview", data),
        ("post", f"/matches/{match_id}/undo", {"version": data["version"]}),
        ("post", f"/matches/{match_id}/details", {"date": "2026-01-01", "note": "hacked"}),
        ("post", f"/matches/{rail}/tally", {"w": "0 1 2", "save": "1"}),
        ("get", f"/matches/{match_id}/hands/1/edit", None),
        ("get", f"/matches/{match_id}/undo", None),
        ("get", f"/matches/{match_id}/details", None),
        ("get", f"/matches/{rail}/tally", None),
    ]
    for method, url, body in attempts:
        response = getattr(watcher, method)(url, data=body) if body is not None else getattr(watcher, method)(url)
        assert response.status_code == 403, (method, url, response.status_code)
        assert WATCHER_ONLY in text(response), url
        assert "Content-Security-Policy" in response.headers
        htmx = getattr(watcher, method)(url, data=body or {}, headers={"HX-Request": "true"}) \
            if method == "post" else None
        assert htmx is None or htmx.status_code == 403
    assert store_state(app) == before


def store_state(app):
    with app.app_context():
        db = get_db()
        return (list(db.query("select id, version, date, note from matches order by id")),
                list(db.query("select match_id, position, data from hands order by match_id, position")),
                db.execute("select count(*) from audit").fetchone()[0])


def test_a_watcher_sees_no_trick_by_trick_button(app, client):
    rail = start(client, "third_rail", ["Ann", "Bob", "Cy"])
    assert f"/matches/{rail}/tally" in client.get(f"/matches/{rail}").get_data(as_text=True)
    assert f"/matches/{rail}/tally" not in app.test_client().get(f"/matches/{rail}").get_data(as_text=True)


def test_a_missing_match_is_still_404_not_403(app):
    stranger = app.test_client()
    assert stranger.post("/matches/999/hands", data=WHEEL).status_code == 404


def test_the_scorer_link_makes_a_second_phone_a_scorer(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    second = app.test_client()
    assert record(second, match_id, **WHEEL).status_code == 404
    response = second.get(f"/s/{tokens(app, match_id)['scorer_token']}")
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/matches/{match_id}")
    html = second.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "This phone can now record and correct hands in this match." in html
    assert 'id="hand-form"' in html
    assert record(second, match_id, **WHEEL).status_code == 303
    assert len(hands(app, match_id)) == 1
    # a grant is for that match only
    other = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    assert record(second, other, **WHEEL).status_code == 404


def test_unknown_links_are_404(client):
    for url in ("/s/nope", "/w/nope", "/s/", "/w/" + "A" * 22):
        assert client.get(url).status_code == 404, url


def test_whoever_imports_a_match_scores_it(app):
    importer = app.test_client()
    match_file = json.dumps({"format": "scorekeeper-match-1", "game": "third_wheel", "players": ["A", "B", "C"],
                             "settings": {}, "first_dealer": 0, "hands": []})
    response = importer.post("/import", data={"file": (io.BytesIO(match_file.encode()), "m.json")},
                             content_type="multipart/form-data")
    assert response.status_code == 303
    match_id = int(response.headers["Location"].rsplit("/", 1)[1])
    assert 'id="hand-form"' in importer.get(f"/matches/{match_id}").get_data(as_text=True)
    assert 'id="hand-form"' not in app.test_client().get(f"/matches/{match_id}").get_data(as_text=True)


def test_a_grant_dies_with_its_match(tmp_path):
    """A grant names the match's scorer token, not just its id: a fresh
    database that reuses the id does not inherit it."""
    from scorekeeper.web import create_app

    first = create_app({"TESTING": True, "DATABASE": tmp_path / "a.sqlite", "WTF_CSRF_ENABLED": False,
                        "SECRET_KEY": "same"})
    client = first.test_client()
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    second = create_app({"TESTING": True, "DATABASE": tmp_path / "b.sqlite", "WTF_CSRF_ENABLED": False,
                         "SECRET_KEY": "same"})
    with second.app_context():
        assert store.create_match(get_db(), Match(game="third_wheel", players=["X", "Y", "Z"])) == match_id
    other = second.test_client()
    other.set_cookie("scorekeeper_device", client.get_cookie("scorekeeper_device").value)
    assert other.post(f"/matches/{match_id}/hands", data=WHEEL).status_code == 404


# --- the live scoreboard ---------------------------------------------------------------

def assert_only_the_version_read(statements: list[str]) -> None:
    """A poll that changes nothing costs single-row reads (the device, its grant, the
    match's version): no hand, no summary, no whole match row."""
    assert statements, "no SQL traced: the request used another connection"
    assert len(statements) <= 3, statements
    assert any("version" in s and "matches" in s for s in statements), statements
    reads = " ".join(statements).lower()
    assert not re.search(r"\b(hands|summaries|audit)\b", reads) and "select *" not in reads, statements


def test_the_board_answers_304_while_nothing_changed(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    watcher = app.test_client()
    watcher.get(f"/w/{tokens(app, match_id)['watcher_token']}")
    first = watcher.get(f"/matches/{match_id}/board", headers={"HX-Request": "true"})
    assert first.status_code == 200
    tag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "no-store"
    html = first.get_data(as_text=True)
    assert html.startswith('{% from') is False and 'id="match-live"' in html and "<html" not in html
    assert 'data-etag="' + tag.replace('"', '&#34;') + '"' in html and "<form" not in html
    # unchanged: 304, an empty body, and nothing read but the device's grant and the version
    with sql_statements(app) as statements:
        again = watcher.get(f"/matches/{match_id}/board", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == tag
    assert_only_the_version_read(statements)
    assert record(client, match_id, **WHEEL).status_code == 303
    changed = watcher.get(f"/matches/{match_id}/board", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    assert totals(changed.get_data(as_text=True)) == {"Ann": 9, "Bob": 0, "Cy": 2}
    assert "Updated" in changed.get_data(as_text=True)


def test_the_board_is_read_only_even_for_a_scorer(client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    record(client, match_id, **WHEEL)
    html = client.get(f"/matches/{match_id}/board").get_data(as_text=True)
    assert "<form" not in html and "/hands/1/edit" not in html


def test_a_missing_match_board_is_404(client):
    assert client.get("/matches/42/board").status_code == 404


def test_an_old_database_gets_tokens_in_the_migration(tmp_path):
    path = str(tmp_path / "old.sqlite")
    db = store.Database(path)
    store.migrations.apply(db, stop_before="m002_share_links_and_request_keys")
    db["matches"].insert({"game": "third_wheel", "players": '["A", "B", "C"]', "settings": "{}",
                          "first_dealer": 0, "date": "2026-01-01", "created_at": "x", "updated_at": "x",
                          "version": 1})
    db.close()
    db = store.connect(path)
    row = next(db.query("select scorer_token, watcher_token from matches"))
    assert row["scorer_token"] and row["watcher_token"] and row["scorer_token"] != row["watcher_token"]
    assert "request_key" in db["audit"].columns_dict


# --- a scorer's page follows the match too (issue 20) ------------------------------------------

def test_a_scorers_page_polls_its_own_page_and_hears_what_another_phone_saved(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    html = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert f'hx-get="/matches/{match_id}/live"' in html  # the scorer's page polls, as a watcher's does
    other = app.test_client()
    other.get(f"/s/{tokens(app, match_id)['scorer_token']}")
    tag = f'W/"v{version(client, match_id)}"'
    with sql_statements(app) as statements:
        unchanged = client.get(f"/matches/{match_id}/live?key=abc", headers={"If-None-Match": tag})
    assert unchanged.status_code == 304 and unchanged.data == b""
    assert_only_the_version_read(statements)
    assert record(other, match_id, **WHEEL).status_code == 303  # the other phone saves hand 1
    changed = client.get(f"/matches/{match_id}/live?key=abc", headers={"If-None-Match": tag, "HX-Request": "true"})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    body = text(changed)
    assert "Hand 1 was saved on another phone: Ann +9, Bob 0, Cy +2." in body
    page = changed.get_data(as_text=True)
    assert "Save hand 2" in page and 'name="request_key"' in page  # this scorer's own form, for hand 2
    assert "data-saved-key" not in page and "data-focus" not in page  # not this phone's save: not pulled into view


def test_a_save_whose_answer_was_lost_is_reported_saved_by_the_next_poll(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    before = version(client, match_id)
    assert record(client, match_id, request_key="k" * 22, **WHEEL).status_code == 303  # its answer never came
    answer = client.get(f"/matches/{match_id}/live?key={'k' * 22}", headers={"If-None-Match": f'W/"v{before}"'})
    page = answer.get_data(as_text=True)
    assert "Hand 1 saved: Ann\u00a0+9, Bob\u00a00, Cy\u00a0+2." in page and "another phone" not in page
    assert f'data-saved-key="{"k" * 22}"' in page  # app.js forgets that draft
    # a watcher has no scorer's page to poll
    watcher = app.test_client()
    watcher.get(f"/w/{tokens(app, match_id)['watcher_token']}")
    assert watcher.get(f"/matches/{match_id}/live").status_code == 403
