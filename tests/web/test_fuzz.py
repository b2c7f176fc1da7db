"""Bad input, tried at scale: random and malformed values posted to every form
(new match, hand record / preview / edit, date and note, undo, import, the
Third Rail tally). Never a 500, always a message, nothing stored on refusal."""
from __future__ import annotations

import io
import json
import os
import re
from dataclasses import dataclass, field

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import store
from scorekeeper.engine import Match
from scorekeeper.games import GAMES
from scorekeeper.matchfile import dumps
from scorekeeper.samples import lasting_settings, random_match
from scorekeeper.web import create_app
from scorekeeper.web.edges.db import get_db

from .helpers import as_scorer

# SCOREKEEPER_FUZZ_EXAMPLES=2000 for a long run; the suite keeps it short
FUZZ = settings(max_examples=int(os.environ.get("SCOREKEEPER_FUZZ_EXAMPLES", "40")), deadline=None,
                suppress_health_check=list(HealthCheck))
NASTY = ["", " ", "-1", "0", "1", "3", "13", "99999999999999999999999", "1e9", "1.5", "NaN", "Infinity", "null",
         "None", "true", "[]", "{}", "<script>alert(1)</script>", "\x00", "١٢", " 5 ", "random", "dummy",
         "wyrms", "high", "spades", "A", "P", "x" * 600, "'; drop table matches; --", "%s%s%n", "\ud7ff", "²", "-²"]
value = st.one_of(st.sampled_from(NASTY), st.text(max_size=30), st.integers(-10**6, 10**6).map(str))
values = st.one_of(value, st.lists(value, min_size=0, max_size=4))
# the loopback warning under Share is on every match page: it is no answer to what was sent
MESSAGE = re.compile(r'class="(alert(?! warning share-loopback)|field-messages|error-page|notice|problems|preview-missing)|<ul class="problems"')


@dataclass
class Fuzzed:
    """One app for the module's examples: its database holds one match per game, which
    ``client`` scores; ``names`` caches each game's hand form field names."""

    app: Flask
    client: FlaskClient
    matches: dict[str, int]
    names: dict[str, list[str]] = field(default_factory=dict)


@pytest.fixture(scope="module")
def fuzz(tmp_path_factory) -> Fuzzed:
    app = create_app({"TESTING": True, "DATABASE": tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite",
                      "WTF_CSRF_ENABLED": False, "SECRET_KEY": "fuzz", "MATCHES_PER_MINUTE": 10**6,
                      "WRITES_PER_MINUTE": 10**6})
    client = app.test_client()
    matches = {}
    with app.app_context():
        db = get_db()
        for game in GAMES:
            made = random_match(game, 3, seed=7, settings=lasting_settings(game, 1000))
            matches[game] = store.create_match(db, made)
    for match_id in matches.values():
        as_scorer(app, match_id, client)
    return Fuzzed(app, client, matches)


def snapshot(app):
    with app.app_context():
        db = get_db()
        return (list(db.query("select * from matches order by id")),
                list(db.query("select * from hands order by match_id, position")),
                db.execute("select count(*) from audit").fetchone()[0])


def check_answer(response, htmx: bool = False) -> str:
    html = response.get_data(as_text=True)
    assert response.status_code < 500, html[:500]
    if response.status_code >= 400 or (not htmx and response.status_code == 200 and "<form" in html):
        assert MESSAGE.search(html) or response.status_code in (404, 405), (response.status_code, html[:800])
    return html


def form_names(fuzz: Fuzzed, game: str) -> list[str]:
    """The fields of the game's hand form, as its match page offers them, and a few more."""
    if game not in fuzz.names:
        html = fuzz.client.get(f"/matches/{fuzz.matches[game]}").get_data(as_text=True)
        record = html[html.index('id="record"'):]
        found = re.findall(r'<(?:input|select|textarea)\b[^>]*\bname="([\w-]+)"', record[:record.index("</form>")])
        assert found, game
        fuzz.names[game] = sorted(set(found) - {"csrf_token"}) + ["request_key", "junk", "dealer"]
    return fuzz.names[game]


def posted(fuzz: Fuzzed, game, data) -> dict:
    names = form_names(fuzz, game)
    return {names[k % len(names)] if isinstance(k, int) else k: v for k, v in data}


hand_data = st.lists(st.tuples(st.one_of(st.integers(0, 200), st.sampled_from(["version", "csrf_token"])), values),
                     max_size=12)


@FUZZ
@given(game=st.sampled_from(sorted(GAMES)), data=hand_data, htmx=st.booleans(),
       where=st.sampled_from(["record", "preview", "edit", "edit_preview"]))
def test_hand_forms(fuzz, game, data, htmx, where):
    client = fuzz.client
    match_id = fuzz.matches[game]
    url = {"record": f"/matches/{match_id}/hands", "preview": f"/matches/{match_id}/hands/preview",
           "edit": f"/matches/{match_id}/hands/2/edit", "edit_preview": f"/matches/{match_id}/hands/2/preview"}[where]
    before = snapshot(fuzz.app)
    response = client.post(url, data=posted(fuzz, game, data), headers={"HX-Request": "true"} if htmx else {})
    check_answer(response, htmx)
    after = snapshot(fuzz.app)
    if after != before:  # random input that happens to be a valid hand: saved, and said so
        assert where in ("record", "edit")
        assert response.status_code == 303 or (htmx and "saved: " in response.get_data(as_text=True))


@FUZZ
@given(game=st.one_of(st.sampled_from(sorted(GAMES)), value), data=st.lists(st.tuples(
    st.one_of(st.sampled_from(["game", "shown_game", "first_dealer", "date", "note"] +
                              [f"player_{i}" for i in range(7)] +
                              [f"setting_{s.name}" for g in GAMES.values() for s in g.settings]), value),
    values), max_size=14), same_game=st.booleans(), fields=st.booleans())
def test_new_match_form(fuzz, game, data, same_game, fields):
    client = fuzz.client
    form = dict(data)
    form["game"] = game
    if same_game:
        form["shown_game"] = game
    before = snapshot(fuzz.app)
    response = client.post("/matches/new/fields" if fields else "/matches/new", data=form)
    html = check_answer(response)
    if response.status_code != 303:
        assert snapshot(fuzz.app) == before, html[:300]
    else:
        assert len(snapshot(fuzz.app)[0]) == len(before[0]) + 1


@FUZZ
@given(date=value, note=value, version=st.one_of(value, st.just(None)), key=value)
def test_date_and_note(fuzz, date, note, version, key):
    client = fuzz.client
    match_id = fuzz.matches["third_wheel"]
    data = {"date": date, "note": note, "request_key": key}
    if version is not None:
        data["version"] = version
    before = snapshot(fuzz.app)
    response = client.post(f"/matches/{match_id}/details", data=data)
    html = check_answer(response)
    if response.status_code != 303:
        assert snapshot(fuzz.app) == before, html[:300]


@FUZZ
@given(version=value, key=value, extra=st.dictionaries(value, value, max_size=3))
def test_undo(fuzz, version, key, extra):
    client = fuzz.client
    match_id = fuzz.matches["dummy_spades"]
    before = snapshot(fuzz.app)
    with fuzz.app.app_context():
        current = store.get_version(get_db(), match_id)
    response = client.post(f"/matches/{match_id}/undo", data=dict(extra, version=version, request_key=key))
    check_answer(response)
    assert response.status_code in (303, 400, 413)
    if version.strip() != str(current) and version != "":
        assert snapshot(fuzz.app) == before


json_values = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12), st.floats(),
                                     st.text(max_size=20)),
                           lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                   st.dictionaries(st.text(max_size=10), inner, max_size=4)),
                           max_leaves=12)


@FUZZ
@given(kind=st.sampled_from(["bytes", "json", "mutated"]), raw=st.binary(max_size=300), doc=json_values,
       key=st.sampled_from(["format", "game", "players", "settings", "first_dealer", "hands", "date", "note",
                            "extra"]), replacement=json_values)
def test_import(fuzz, kind, raw, doc, key, replacement):
    client = fuzz.client
    if kind == "bytes":
        body = raw
    elif kind == "json":
        body = json.dumps(doc, allow_nan=True).encode()
    else:
        good = json.loads(dumps(Match(game="third_wheel", players=["A", "B", "C"],
                                      hands=[{"trump": "wyrms", "mode": "high", "wheel": False, "bid": 5,
                                              "tricks": [5, 4, 2]}])))
        good[key] = replacement
        body = json.dumps(good, allow_nan=True).encode()
    before = snapshot(fuzz.app)
    response = client.post("/import", data={"file": (io.BytesIO(body), "m.json")},
                           content_type="multipart/form-data")
    html = check_answer(response)
    if response.status_code != 303:
        assert (response.status_code == 400 and "was not imported" in html) or "Choose a match file" in html
        assert snapshot(fuzz.app) == before


@FUZZ
@given(data=st.dictionaries(st.sampled_from(["w", "tap", "undo", "clear", "save", "trump", "version", "junk"]),
                            value, max_size=6), htmx=st.booleans())
def test_tally(fuzz, data, htmx):
    client = fuzz.client
    match_id = fuzz.matches["third_rail"]
    before = snapshot(fuzz.app)
    response = client.post(f"/matches/{match_id}/tally", data=data, headers={"HX-Request": "true"} if htmx else {})
    assert response.status_code < 500
    if response.status_code not in (303, 204):
        assert snapshot(fuzz.app) == before


# "²" is a digit to str.isdigit() but not a number to int(): every place that reads a number
@pytest.mark.parametrize("game, method, path, data", [
    ("third_rail", "post", "/matches/{id}/hands/preview", {"winners": "1 ² 2"}),
    ("third_rail", "post", "/matches/{id}/hands/preview", {"dealer": "²"}),
    ("dummy_spades", "post", "/matches/{id}/hands/preview", {"nils_0": "²"}),
    ("third_wheel", "post", "/matches/new", {"game": "third_wheel", "shown_game": "third_wheel", "player_0": "A",
                                             "player_1": "B", "player_2": "C", "first_dealer": "²"}),
    ("third_rail", "get", "/referee/third_rail?players=²", None),
    ("third_rail", "get", "/referee/third_rail?match=²", None),
    ("third_rail", "post", "/matches/{id}/tally", {"w": "", "tap": "²"}),
    ("third_rail", "post", "/matches/{id}/tally", {"w": "1 ²", "tap": "1"}),
])
def test_a_digit_that_is_not_a_number_is_refused_not_a_500(fuzz, game, method, path, data):
    client = fuzz.client
    before = snapshot(fuzz.app)
    url = path.format(id=fuzz.matches[game])
    response = client.get(url) if method == "get" else client.post(url, data=data)
    assert response.status_code < 500
    assert snapshot(fuzz.app) == before


# A header value as it arrives: bytes the server decodes as latin-1 (so any text sent as UTF-8)
header_value = st.one_of(st.text(st.characters(max_codepoint=255, blacklist_characters="\r\n"), max_size=60),
                         # no lone surrogate: it has no UTF-8, so no client could send it
                         st.text(st.characters(blacklist_characters="\r\n", blacklist_categories=("Cs",)),
                                 max_size=30).map(
                             lambda text: text.encode("utf-8").decode("latin-1")),
                         st.sampled_from(["9" * 5000, 'W/"v' + "9" * 5000 + '"', 'W/"v²"', "bytes=0-" + "9" * 5000,
                                          "x" * 9000]),
                         st.integers(-10**30, 10**30).map(lambda n: f'W/"v{n}"'))


@FUZZ
@given(name=st.sampled_from(["If-None-Match", "If-Modified-Since", "If-Match", "If-Range", "Range",
                             "Accept-Encoding", "Cookie", "HX-Request", "HX-Current-URL", "Referer"]),
       value=header_value, game=st.sampled_from(sorted(GAMES)),
       page=st.sampled_from(["/matches/{id}", "/matches/{id}/live", "/matches/{id}/board", "/matches/{id}/log",
                             "/", "/matches", "/static/app.css", "/matches/{id}/export.json"]))
def test_headers(fuzz, name, value, game, page):
    """Any value of a header the app or its libraries read: never a 500."""
    headers = {name: value}  # (a Cookie header sent here replaces the scorer's own)
    response = fuzz.client.get(page.format(id=fuzz.matches[game]), headers=headers)
    assert response.status_code < 500, (name, value[:80], response.get_data(as_text=True)[:300])
