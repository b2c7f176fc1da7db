"""Issue 28: an unchanged poll is answered from the match's version alone, before the app
(``web.edges.polls``), and only where the app would have answered 304 too."""
from __future__ import annotations

import os
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from waitress.adjustments import Adjustments
from waitress.parser import HTTPRequestParser
from werkzeug.test import EnvironBuilder

from scorekeeper import store
from scorekeeper.web.edges.db import get_db

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


# pieces of a poll's head, and what a client or an attacker might put in their place
_TRICKY = ["", " ", "\t", "\x00", "\x7f", "é", ":", ";", ",", '"', "%31", "/", "?since=1", "\r\n", "\r\n ", "\n", "\r",
           "X-Other: 1\r\n", "Content-Length: 0\r\n", "Transfer-Encoding: chunked\r\n", "Connection: close\r\n",
           "Expect: 100-continue\r\n", "GET", "HTTP/1.0", "W/", '"v1"', "scorekeeper_device=", "Host: evil\r\n"]


@settings(max_examples=int(os.environ.get("SCOREKEEPER_FUZZ_EXAMPLES", "300")), deadline=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_the_servers_own_check_answers_304_only_where_the_app_would(app, client, data):
    """``UnchangedPolls.answer_head`` reads a request head as the client sent it (the
    real server calls it before waitress parses anything). A poll's head, cut and spliced
    at random: whenever it answers 304, waitress parses the same bytes into a request the
    app itself (without this middleware) answers 304 too, with the same ETag."""
    if not hasattr(app, "poll_match"):  # one match for every example (the fixtures are the test's)
        app.poll_match = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
        app.poll_watcher = app.test_client()
        app.poll_watcher.get(f"/w/{tokens(app, app.poll_match)['watcher_token']}")
    match_id = app.poll_match
    scorer = data.draw(st.booleans())
    device = (client if scorer else app.poll_watcher).get_cookie("scorekeeper_device").value
    now = int(version(client, match_id))
    head = (f"GET /matches/{match_id}/{data.draw(st.sampled_from(['board', 'live', 'screen/live']))} HTTP/1.1\r\n"
            f"Host: localhost\r\nCookie: session=x; scorekeeper_device={device}\r\n"
            f'If-None-Match: W/"v{data.draw(st.sampled_from([now, now - 1]))}"\r\nHX-Request: true\r\n\r\n')
    for _ in range(data.draw(st.integers(0, 3))):  # splice something in, or cut something out
        at = data.draw(st.one_of(st.integers(0, len(head)),  # anywhere, or where a line or a value begins
                                 st.sampled_from([m.end() for m in re.finditer(r"\r\n|: | ", head)])))
        if data.draw(st.booleans()):
            head = head[:at] + data.draw(st.sampled_from(_TRICKY)) + head[at:]
        else:
            head = head[:at] + head[at + data.draw(st.integers(1, 6)):]
    raw = head.encode("utf-8")
    headers = app.extensions["unchanged_polls"].answer_head(raw)
    if headers is None:
        return  # left to waitress and the app, as every other request
    assert dict(headers)["Cache-Control"] == "no-store"
    parsed = HTTPRequestParser(Adjustments())
    assert parsed.received(raw) == len(raw) and parsed.completed and parsed.error is None, raw
    assert parsed.command == "GET" and not parsed.get_body_stream().read(), raw
    environ = EnvironBuilder(path=parsed.path, query_string=parsed.query, headers=[
        ("-".join(part.capitalize() for part in name.split("_")), value) for name, value in parsed.headers.items()
    ]).get_environ()
    got: list = []
    app.extensions["unchanged_polls"].app(environ, lambda status, answer_headers, *_: got.extend([status, answer_headers]))
    assert got[0].startswith("304"), (raw, got[0])
    assert dict(got[1])["ETag"] == dict(headers)["ETag"], raw
