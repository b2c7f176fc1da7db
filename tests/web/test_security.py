"""Security headers, CSP-safe templates, escaping, CSRF and the limits."""
from __future__ import annotations

import io
import json
import re

import pytest

from scorekeeper import store
from scorekeeper.engine import Match
from scorekeeper.web import create_app
from scorekeeper.web.edges.db import get_db

from .helpers import as_scorer, page_of, problems, record, start, start_form, text

WHEEL = {"trump": "wyrms", "mode": "high", "bid": 5, "tricks_0": 5, "tricks_1": 4, "tricks_2": 2}
EVIL = "<script>alert(1)</script>"


def test_every_response_has_the_security_headers(client):
    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    for url in ("/", f"/matches/{match_id}", "/static/app.css", "/no/such/page", f"/matches/{match_id}/board"):
        response = client.get(url)
        headers = response.headers
        csp = headers["Content-Security-Policy"]
        for part in ("default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
                     "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'"):
            assert part in csp, (url, part)
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "same-origin"
        assert headers["X-Frame-Options"] == "DENY"
        assert "camera=()" in headers["Permissions-Policy"]


def test_pages_are_never_kept_so_back_shows_them_as_they_are_now(client):
    """A page kept by the browser (its back-forward cache) or by htmx (its history copies)
    would show a match as it was before the last save."""
    from pathlib import Path

    match_id = start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    for url in ("/", f"/matches/{match_id}", f"/matches/{match_id}/log"):
        assert client.get(url).headers["Cache-Control"] == "no-store", url
    assert "no-store" not in client.get("/static/app.css").headers.get("Cache-Control", "")
    base = (Path(__file__).resolve().parents[2] / "scorekeeper" / "templates" / "base.html").read_text()
    assert '"historyCacheSize": 0' in base


def test_the_device_cookie_is_http_only_same_site_and_long_lived(client):
    start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    cookie = client.get_cookie("scorekeeper_device")
    assert cookie.http_only and cookie.same_site == "Lax"
    assert cookie.max_age is not None and cookie.max_age >= 365 * 24 * 3600


def test_templates_have_no_inline_script_style_or_handlers():
    """The CSP forbids them, so none may exist (they would silently break)."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "scorekeeper" / "templates"
    for path in root.rglob("*.html"):
        source = path.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)", source), path
        assert "<style" not in source and "style=" not in source, path
        assert not re.search(r"\son[a-z]+\s*=", source), path


def test_htmx_indicator_style_is_off():
    from pathlib import Path

    base = (Path(__file__).resolve().parents[2] / "scorekeeper" / "templates" / "base.html").read_text()
    assert '"includeIndicatorStyles": false' in base


def test_a_hostile_name_is_text_everywhere(client):
    match_id = start(client, "third_wheel", [EVIL, "Bob", "Cy"])
    assert record(client, match_id, **WHEEL).status_code == 303
    pages = {url: client.get(url).get_data(as_text=True)
             for url in ("/", f"/matches/{match_id}", f"/matches/{match_id}/print", f"/matches/{match_id}/log",
                         f"/matches/{match_id}/board", f"/matches/{match_id}/hands/1/why",
                         f"/matches/{match_id}/undo")}
    for url, html in pages.items():
        assert EVIL not in html, url
        assert "<script>" not in html, url
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pages[f"/matches/{match_id}"]
    assert "&lt;script…" in pages[f"/matches/{match_id}"]  # the chart's direct label, shortened and escaped
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pages["/"]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pages[f"/matches/{match_id}/print"]
    csv_text = client.get(f"/matches/{match_id}/export.csv").get_data(as_text=True)
    assert EVIL in csv_text  # a CSV is data, not a page: the name as typed
    data = json.loads(client.get(f"/matches/{match_id}/export.json").get_data(as_text=True))
    assert data["players"][0] == EVIL


def test_forms_need_the_csrf_token(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": tmp_path / "csrf.sqlite", "SECRET_KEY": "x"})
    client = app.test_client()
    response = client.post("/matches/new", data=start_form("third_wheel", ["Ann", "Bob", "Cy"]))
    assert response.status_code == 400
    assert "security token" in text(response)
    with app.app_context():
        assert store.all_matches(get_db()) == []
    token = page_of(client.get("/matches/new")).value("csrf_token")
    data = dict(start_form("third_wheel", ["Ann", "Bob", "Cy"]), csrf_token=token)
    assert client.post("/matches/new", data=data).status_code == 303


# --- limits ----------------------------------------------------------------------------

def test_a_long_name_is_refused_with_a_message(client):
    response = client.post("/matches/new", data=start_form("third_wheel", ["A" * 41, "Bob", "Cy"]))
    assert response.status_code == 422
    assert any("40" in p for p in problems(response)), problems(response)
    with client.application.app_context():
        assert store.all_matches(get_db()) == []
    assert start(client, "third_wheel", ["A" * 40, "Bob", "Cy"])


def test_a_request_over_one_megabyte_gets_a_friendly_413(client):
    big = io.BytesIO(b"x" * (1024 * 1024 + 10))
    response = client.post("/import", data={"file": (big, "huge.json")}, content_type="multipart/form-data")
    assert response.status_code == 413
    assert "too large" in text(response) and "1 MB" in text(response)
    assert "Content-Security-Policy" in response.headers
    response = client.post("/matches/new", data={"note": "x" * (1024 * 1024 + 10)})
    assert response.status_code == 413


def test_a_match_holds_at_most_1000_hands(app, client):
    hand = {"trump": "wyrms", "mode": "high", "wheel": False, "bid": 5, "tricks": [5, 4, 2]}
    with app.app_context():
        match_id = store.create_match(get_db(), Match(game="third_wheel", players=["Ann", "Bob", "Cy"],
                                                      settings={"target": 0, "deals_each": 10**6},
                                                      hands=[hand] * 999))
        stored_version = store.get_version(get_db(), match_id)
    as_scorer(app, match_id, client)
    # the version as the page would carry it (drawing a page of 999 hands costs more than the test)
    assert record(client, match_id, version=stored_version, **WHEEL).status_code == 303  # hand 1,000
    response = record(client, match_id, version=stored_version + 1, **WHEEL)
    assert response.status_code == 422
    assert "This match has 1,000 hands, the most one match can hold" in text(response)
    with app.app_context():
        assert len(store.get_record(get_db(), match_id).match.hands) == 1000


def test_the_real_hand_limit_message_and_import_limit(app):
    with app.app_context():
        db = get_db()
        hand = {"trump": "wyrms", "mode": "high", "wheel": False, "bid": 5, "tricks": [5, 4, 2]}
        settings = {"target": 0, "deals_each": 10**6}
        with pytest.raises(store.LimitReached) as refused:
            store.create_match(db, Match(game="third_wheel", players=["A", "B", "C"], settings=settings,
                                         hands=[hand] * 1001))
        assert "at most 1,000" in refused.value.problems[0]
        match_id = store.create_match(db, Match(game="third_wheel", players=["A", "B", "C"], settings=settings,
                                                hands=[hand] * 1000))
        with pytest.raises(store.LimitReached) as refused:
            store.add_hand(db, match_id, hand)
        assert refused.value.problems == [
            "This match has 1,000 hands, the most one match can hold. Start a new match to go on playing."]
        assert len(store.get_record(db, match_id).match.hands) == 1000


def test_matches_per_minute_from_one_address(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": tmp_path / "rate.sqlite", "WTF_CSRF_ENABLED": False,
                      "SECRET_KEY": "x", "MATCHES_PER_MINUTE": 3})
    client = app.test_client()
    for _ in range(3):
        start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    response = client.post("/matches/new", data=start_form("third_wheel", ["Ann", "Bob", "Cy"]))
    assert response.status_code == 429
    assert "started 3 matches in the last minute" in text(response)
    assert int(response.headers["Retry-After"]) > 0
    # import counts too; another address is not limited
    match_file = json.dumps({"format": "scorekeeper-match-1", "game": "third_wheel", "players": ["A", "B", "C"],
                             "settings": {}, "first_dealer": 0, "hands": []})
    response = client.post("/import", data={"file": (io.BytesIO(match_file.encode()), "m.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 429
    other = client.post("/matches/new", data=start_form("third_wheel", ["Ann", "Bob", "Cy"]),
                        environ_base={"REMOTE_ADDR": "192.168.1.7"})
    assert other.status_code == 303
    with app.app_context():
        assert len(store.all_matches(get_db())) == 4


def test_refused_new_matches_do_not_count(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": tmp_path / "rate.sqlite", "WTF_CSRF_ENABLED": False,
                      "SECRET_KEY": "x", "MATCHES_PER_MINUTE": 2})
    client = app.test_client()
    for _ in range(5):
        assert client.post("/matches/new", data=start_form("third_wheel", ["", "", ""])).status_code == 422
    start(client, "third_wheel", ["Ann", "Bob", "Cy"])
    start(client, "third_wheel", ["Ann", "Bob", "Cy"])


def test_as_scorer_helper_is_for_store_made_matches(app, client):
    with app.app_context():
        match_id = store.create_match(get_db(), Match(game="third_wheel", players=["A", "B", "C"]))
    assert record(client, match_id, **WHEEL).status_code == 404  # private: not even seen
    as_scorer(app, match_id, client)
    assert record(client, match_id, **WHEEL).status_code == 303


def test_the_session_cookie_is_secure_wherever_the_device_cookie_is(tmp_path):
    """Over https both cookies are Secure (the session's was not); over the home network's
    plain http neither is, or the phone could not keep them."""
    app = create_app({"TESTING": True, "DATABASE": tmp_path / "db.sqlite", "SECRET_KEY": "t"})  # CSRF on
    for base, secure in (("https://scores.example.org", True), ("http://192.168.1.20:5000", False)):
        client = app.test_client()
        form = client.get("/matches/new", base_url=base)
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', form.get_data(as_text=True)).group(1)
        started = client.post("/matches/new", base_url=base, headers={"Referer": f"{base}/matches/new"},
                              data=dict(start_form("third_wheel", ["Ann", "Bob", "Cy"]), csrf_token=token))
        assert started.status_code == 303
        cookies = form.headers.getlist("Set-Cookie") + started.headers.getlist("Set-Cookie")
        assert {cookie.split("=", 1)[0] for cookie in cookies} >= {"session", "scorekeeper_device"}, cookies
        assert all(("; Secure" in cookie) == secure for cookie in cookies), cookies
