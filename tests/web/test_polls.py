"""Issue 28: an unchanged poll is answered from the match's version alone, before the app
(``web.polls``), and only where the app would have answered 304 too."""
from __future__ import annotations

from scorekeeper import store
from scorekeeper.web.db import get_db

from .helpers import record, sql_statements, start, version
from .test_sharing import WHEEL, tokens


def etag(client, match_id: int) -> dict:
    return {"If-None-Match": f'W/"v{version(client, match_id)}"', "HX-Request": "true"}


def test_an_unchanged_poll_costs_one_lookup(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    watcher = app.test_client()
    watcher.get(f"/w/{tokens(app, match_id)['watcher_token']}")
    for who, path in ((client, "live"), (watcher, "board"), (watcher, "screen/live")):
        tag = etag(client, match_id)
        with sql_statements(app) as statements:
            answer = who.get(f"/matches/{match_id}/{path}", headers=tag)
        assert answer.status_code == 304 and answer.data == b""
        assert answer.headers["ETag"] == tag["If-None-Match"] and answer.headers["Cache-Control"] == "no-store"
        assert answer.headers["Content-Security-Policy"].startswith("default-src 'self'")
        assert "Set-Cookie" not in answer.headers  # no session, no device cookie renewed
        # one SELECT by primary keys: the version and this device's grant
        assert len(statements) == 1 and statements[0].lower().startswith("select m.version"), statements


def test_a_poll_is_answered_304_only_where_the_app_would(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    tag = etag(client, match_id)
    watcher, stranger = app.test_client(), app.test_client()
    watcher.get(f"/w/{tokens(app, match_id)['watcher_token']}")
    stranger.get("/")
    # a device without the grant: 404, as if there were no such match, even with the right ETag
    assert stranger.get(f"/matches/{match_id}/board", headers=tag).status_code == 404
    made_up = app.test_client()
    made_up.set_cookie("scorekeeper_device", "x" * 30)
    assert made_up.get(f"/matches/{match_id}/board", headers=tag).status_code == 404
    # a watcher polling the scorer's page: 403, told why
    refused = watcher.get(f"/matches/{match_id}/live", headers=tag)
    assert refused.status_code == 403 and "watcher link" in refused.get_data(as_text=True)
    # an old ETag: the page as it is now
    assert record(client, match_id, **WHEEL).status_code == 303
    assert watcher.get(f"/matches/{match_id}/board", headers=tag).status_code == 200
    # the scorer's page asking what changed since a version: told, not 304
    now = etag(client, match_id)
    since = client.get(f"/matches/{match_id}/live?since=1", headers=now)
    assert since.status_code == 200 and "Hand 1 was saved" in since.get_data(as_text=True)
    # a match deleted meanwhile: 404
    with app.app_context():
        store.delete_match(get_db(), match_id)
    assert watcher.get(f"/matches/{match_id}/board", headers=now).status_code == 404


def test_a_host_not_trusted_is_refused_before_any_poll(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    tag = etag(client, match_id)
    app.config["TRUSTED_HOSTS"] = ["localhost"]
    assert client.get(f"/matches/{match_id}/live", headers=dict(tag, Host="evil.example")).status_code == 400
    assert client.get(f"/matches/{match_id}/live", headers=tag).status_code == 304


def test_a_watcher_one_hand_behind_gets_only_what_that_hand_changed(app, client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    watcher = app.test_client()
    watcher.get(f"/w/{tokens(app, match_id)['watcher_token']}")
    board = f"/matches/{match_id}/board"
    first = etag(client, match_id)
    assert record(client, match_id, **WHEEL).status_code == 303
    whole = watcher.get(board, headers=first)  # the first hand: the page had no rows to add to
    assert 'id="match-live"' in whole.get_data(as_text=True) and "HX-Reswap" not in whole.headers
    second = etag(client, match_id)
    for _ in range(3):
        assert record(client, match_id, **WHEEL).status_code == 303
    update = watcher.get(board, headers=etag_of(int(version(client, match_id)) - 1))
    html = update.get_data(as_text=True)
    assert update.status_code == 200 and update.headers["HX-Reswap"] == "none"
    assert 'id="match-live"' not in html and 'hx-swap-oob="beforeend:#hand-table"' in html
    assert 'id="hand-4"' in html and 'id="hand-3"' not in html  # the new row only
    assert 'id="totals"' in html and f'data-version="{version(client, match_id)}"' in html
    assert "<form" not in html and "/undo" not in html  # a watcher's: nothing to change the match
    assert update.headers["ETag"] == etag(client, match_id)["If-None-Match"]
    # three hands behind: the whole board, every row
    behind = watcher.get(board, headers=second).get_data(as_text=True)
    assert 'id="match-live"' in behind and all(f'id="hand-{n}"' in behind for n in (1, 2, 3, 4))
    # the update costs less than the board it spares, and is drawn once for every watcher
    assert len(html) < len(behind)
    other = app.test_client()
    other.get(f"/w/{tokens(app, match_id)['watcher_token']}")
    assert other.get(board, headers=etag_of(int(version(client, match_id)) - 1)).get_data(as_text=True) == html


def etag_of(number: int) -> dict:
    return {"If-None-Match": f'W/"v{number}"', "HX-Request": "true"}
