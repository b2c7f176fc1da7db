"""The web layer's structure and shared behaviour: blueprints import shared
helpers, never each other; access is declared beside each view; an htmx request
that fails gets a card to swap in, never a whole page inside the page."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from scorekeeper import store
from scorekeeper.web import create_app
from scorekeeper.web.edges.db import get_db

from .helpers import record, start, text

WEB = Path(__file__).resolve().parents[2] / "scorekeeper" / "web"


def blueprint_modules() -> set[str]:
    return {path.stem for path in WEB.rglob("*.py") if "Blueprint(" in path.read_text()}


def test_no_web_module_imports_a_blueprint_module():
    blueprints = blueprint_modules()
    assert {"matches", "hands", "sharing", "referee", "rules", "tally", "exports"} <= blueprints
    found = []
    for path in WEB.rglob("*.py"):
        if path == WEB / "__init__.py":
            continue  # the app factory registers the blueprints
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level >= 1:  # web/ and its rooms
                names = [*(node.module or "").split("."), *(alias.name for alias in node.names)]
                found += [f"{path.name} imports {name}" for name in names if name in blueprints]
    assert found == []


def test_every_view_that_changes_a_match_declares_it_needs_the_scorer(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite"), "SECRET_KEY": "t"})
    for rule in app.url_map.iter_rules():
        if "match_id" in rule.arguments and "POST" in (rule.methods or set()):
            assert getattr(app.view_functions[rule.endpoint], "scorer_required", False), rule.endpoint


def watcher_token(app, match_id: int) -> str:
    with app.app_context():
        return store.get_tokens(get_db(), match_id)["watcher_token"]


def test_guarded_pages_refuse_a_device_without_the_grant(app, client):
    match_id = start(client, "third_rail", ["Ann", "Bob", "Cy"])
    assert record(client, match_id, scoring_tricks_0=2, scoring_tricks_1=2, scoring_tricks_2=1,
                  other_tricks_0=4, other_tricks_1=4, other_tricks_2=4).status_code == 303
    stranger = app.test_client()
    assert stranger.get(f"/matches/{match_id}/undo").status_code == 404  # no link opened: not even seen
    stranger.get(f"/w/{watcher_token(app, match_id)}")
    for url in (f"/matches/{match_id}/hands/1/edit", f"/matches/{match_id}/undo",
                f"/matches/{match_id}/details", f"/matches/{match_id}/tally"):
        response = stranger.get(url)
        assert response.status_code == 403, url
        assert "This is a watcher link" in text(response)
    assert stranger.get(f"/matches/{match_id}").status_code == 200  # the watcher may read


def test_an_htmx_request_refused_gets_an_error_card_not_a_page(app, client):
    match_id = start(client, "third_rail", ["Ann", "Bob", "Cy"])
    stranger = app.test_client()
    stranger.get(f"/w/{watcher_token(app, match_id)}")
    refused = stranger.post(f"/matches/{match_id}/hands", data={"scoring_tricks_0": "1"},
                            headers={"HX-Request": "true"})
    assert refused.status_code == 403
    html = refused.get_data(as_text=True)
    assert "This is a watcher link" in html
    assert "<html" not in html and "<header" not in html and "nav-referee" not in html


def test_an_htmx_request_for_a_missing_match_gets_an_error_card(client):
    missing = client.get("/matches/9999/log", headers={"HX-Request": "true"})
    assert missing.status_code == 404
    html = missing.get_data(as_text=True)
    assert "Not found" in html and "<html" not in html


def test_a_plain_request_for_a_missing_match_gets_the_whole_page(client):
    missing = client.get("/matches/9999/log")
    assert missing.status_code == 404
    assert "<html" in missing.get_data(as_text=True)


def test_every_kept_address_is_the_one_flask_builds(app):
    """The app keeps the addresses it builds (web.TableApp): each is what Flask builds
    for the same endpoint and values, the first time and every later time, wherever
    the app is mounted; an address for another place (external) is never taken from
    what was kept."""
    from flask import Flask, request
    from werkzeug.routing import IntegerConverter

    cases = []
    for rule in app.url_map.iter_rules():
        values = {}
        for converter, arg in re.findall(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>", rule.rule):
            numeric = issubclass(app.url_map.converters[converter or "default"], IntegerConverter)
            values[arg] = 7 if numeric else "Zoë & Ann/?#"
        cases.append((rule.endpoint, values, {}))
        cases.append((rule.endpoint, values, {"_anchor": "record", "q": "Zoë Ann", "n": 3}))
        cases.append((rule.endpoint, values, {"n": 3, "q": "Zoë Ann"}))  # the query in the order given
    for root in ("", "/scores"):
        with app.test_request_context("/matches/new", base_url=f"http://table.local{root}"):
            for endpoint, values, extra in cases:
                expected = Flask.url_for(app, endpoint, **values, **extra)
                assert app.url_for(endpoint, **values, **extra) == expected
                assert app.url_for(endpoint, **values, **extra) == expected  # kept
                assert app.url_for(endpoint, **values, **extra, _external=True) == \
                    Flask.url_for(app, endpoint, **values, **extra, _external=True)
            assert request.blueprint == "matches"
            assert app.url_for(".show", match_id=3) == Flask.url_for(app, ".show", match_id=3) == f"{root}/matches/3"
            assert app.url_for("stats.player", player=["a", "b"]) == Flask.url_for(app, "stats.player", player=["a", "b"])


def test_a_session_is_read_only_with_a_key_that_signed_it(app):
    """The session's serializer is made once per secret key (web.SignedCookieSessions):
    a new key makes the old cookies worthless at once, and a key kept as a fallback
    still reads them."""
    from flask import session

    @app.get("/test-session/<word>")
    def remember(word: str) -> str:
        return session.setdefault("word", word)

    client = app.test_client()
    assert client.get("/test-session/first").text == "first"
    assert client.get("/test-session/second").text == "first"  # the cookie read back
    app.secret_key = "another"
    assert client.get("/test-session/third").text == "third"  # signed with the old key: not trusted
    app.secret_key = "rotated"
    app.config["SECRET_KEY_FALLBACKS"] = ["another"]
    assert client.get("/test-session/fourth").text == "third"  # the fallback still reads it
    app.config["SECRET_KEY_FALLBACKS"] = []
    assert client.get("/test-session/fifth").text == "fifth"


def test_each_web_module_sits_in_its_room():
    """web/ is laid out by role (docs/maintainers.md): the blueprints are views/, all of it."""
    blueprints = {path.relative_to(WEB).as_posix() for path in WEB.rglob("*.py") if "Blueprint(" in path.read_text()}
    views = {path.relative_to(WEB).as_posix() for path in (WEB / "views").glob("*.py") if path.name != "__init__.py"}
    assert blueprints == views
    assert [path.name for path in WEB.glob("*.py")] == ["__init__.py"]  # every other module has a room
