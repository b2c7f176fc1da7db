"""Never a 500 from input, on every route: each rule of ``app.url_map`` (a route added
later is covered without editing this test) is sent every query and form name the app
reads, with hostile values: 5,000-digit numbers, negatives, other scripts' digits, a lone
surrogate, empty, repeated keys, and the names ``url_for`` keeps for itself (``_anchor``,
``_method``, ``_scheme``, ``_external``, ``endpoint``) or takes as a path argument."""
from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import pytest
import werkzeug.test
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import store
from scorekeeper.games import GAMES
from scorekeeper.samples import lasting_settings, random_match
from scorekeeper.web import create_app
from scorekeeper.web.edges.access import DEVICE_COOKIE
from scorekeeper.web.edges.db import get_db

from .helpers import as_scorer

PACKAGE = Path(__file__).resolve().parents[2] / "scorekeeper"
RESERVED = ["_anchor", "_method", "_scheme", "_external", "endpoint", "match_id", "number", "game", "token",
            "filename", "csrf_token", "version", "request_key"]
# each value as it goes on the wire (percent-encoded): %ED%A0%80 is a lone surrogate in UTF-8
HOSTILE = [quote("9" * 5000), "-1", "0", quote("١٢"), quote("²"), "", "%ED%A0%80", quote("\U0001F600" * 3),
           quote("x" * 3000), quote("https://evil.example/"), "1e309", quote(" -7 "), "%00", quote("<script>")]


def names_read_in_source() -> set[str]:
    """Every name the views read from a request: request.args/form/values.get("x"),
    .getlist("x"), "x" in request.form, a helper's _name("x")... (and the referee's and
    tally's ``args``/``source``). Names read otherwise come from the pages' forms."""
    found: set[str] = set()
    for path in PACKAGE.glob("games/*.py"):  # a game reads its referee's trick context itself
        found |= set(re.findall(r"""\bargs\.get(?:list)?\(\s*["'](\w+)["']""", path.read_text()))
    for path in PACKAGE.glob("web/**/*.py"):
        text = path.read_text()
        found |= set(re.findall(r"""\.get(?:list)?\(\s*["'](\w+)["']""", text))
        found |= set(re.findall(r"""\b_\w+\(\s*["'](\w+)["']\s*\)""", text))  # a helper reading one: _name("player")
        found |= set(re.findall(r"""["'](\w+)["']\s+(?:not\s+)?in\s+(?:request\.\w+|args|source)\b""", text))
        for group in re.findall(r"""for \w+ in \(((?:\s*["']\w+["'],?)+)\)""", text):
            found |= set(re.findall(r"\w+", group))
    return {name for name in found if not name.isupper()}  # not the config's keys


class Walker(FlaskClient):
    """A test client that keeps no cookies: each request carries the scorer's as they were.
    FlaskClient works out each request's whole URL for its cookie jar even when it keeps
    none, unquoting the long hostile addresses: a third of the walk's time, none of it the app's."""

    def run_wsgi_app(self, environ: dict, buffered: bool = False) -> tuple:
        return werkzeug.test.run_wsgi_app(self.application, environ, buffered=buffered)


@dataclass
class Routes:
    """One app for the walk, and what every route is sent: ``names``, every query and form
    name the app reads. ``seed`` makes each route's own matches (one of every game, which
    ``client`` scores). ``walker`` sends the scorer's cookies as they were (``cookie``) and
    keeps none it is sent: the test client's cookie jar would unquote each long hostile
    address to match cookies against it, which cost more than the app's answer."""

    app: Flask
    client: FlaskClient
    walker: FlaskClient
    names: list[str]
    matches: dict[str, int] = field(default_factory=dict)
    versions: dict[int, int | None] = field(default_factory=dict)
    cookie: str = ""

    def seed(self) -> None:
        """Matches for the next route, as they were made: new ones once a route changed them
        (deleted one, undid a hand, renewed a link...), for every route is to meet them live."""
        with self.app.app_context():
            if self.versions and self.versions == self.current_versions():
                return
            self.matches = {game: store.create_match(get_db(), random_match(game, 3, seed=5, settings=lasting_settings(game, 1000)))
                            for game in GAMES}
            self.versions = self.current_versions()
        self.client = self.app.test_client()  # a new phone each time: its cookies hold these matches only
        for match_id in self.matches.values():
            as_scorer(self.app, match_id, self.client)
        cookies = [self.client.get_cookie(name) for name in (DEVICE_COOKIE, self.app.config["SESSION_COOKIE_NAME"])]
        self.cookie = "; ".join(f"{c.key}={c.value}" for c in cookies if c is not None)
        assert DEVICE_COOKIE in self.cookie

    def current_versions(self) -> dict[int, int | None]:
        """Each match's version, None for one deleted."""
        versions: dict[int, int | None] = {}
        for match_id in self.matches.values():
            try:
                versions[match_id] = store.get_version(get_db(), match_id)
            except store.NotFound:
                versions[match_id] = None
        return versions


def make_app(database: Path | str) -> Flask:
    return create_app({"TESTING": True, "DATABASE": database, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "routes",
                       "MATCHES_PER_MINUTE": 10**6, "WRITES_PER_MINUTE": 10**6, "NEW_DEVICES_PER_MINUTE": 10**6,
                       "HEAVY_READS_PER_MINUTE": 10**6})


# Every rule of the URL map, each its own test (read from an app on a throwaway database in a temp folder)
RULES = sorted(make_app(Path(tempfile.mkdtemp(prefix="routes-")) / "rules.sqlite").url_map.iter_rules(),
               key=lambda rule: rule.endpoint)


@pytest.fixture(scope="module")
def routes(tmp_path_factory) -> Routes:
    app = make_app(tmp_path_factory.mktemp("routes") / "routes.sqlite")
    walk = Routes(app, app.test_client(), Walker(app, use_cookies=False), [])
    walk.seed()
    any_id = next(iter(walk.matches.values()))
    pages = ["/", "/matches/new", "/import", "/players", "/referee", *(f"/referee/{g}" for g in GAMES),
             *(f"/matches/{i}" for i in walk.matches.values()), f"/matches/{any_id}/setup",
             f"/matches/{any_id}/details", f"/matches/{any_id}/hands/2/edit", f"/matches/{any_id}/delete",
             # every game's tally (a 404 without one) and its correction: each names its own pick
             *(f"/matches/{i}/tally{q}" for i in walk.matches.values() for q in ("", "?hand=1"))]
    walk.names = sorted(names_read_in_source() | form_names(walk.client, pages) | set(RESERVED))
    assert {"players", "appendix", "match", "player", "figure", "tap", "change"} <= set(walk.names)  # the finder finds
    return walk


def path_values(rule, routes: Routes, game: str) -> list[dict[str, str]]:
    """The rule's arguments: a real match, hand and game first, then hostile ones."""
    good = {"match_id": str(routes.matches[game]), "number": "2", "game": game, "token": "no-such-token",
            "filename": "app.css"}
    hostile = {"match_id": "9" * 5000, "number": "9" * 5000, "game": "%ED%A0%80", "token": "9" * 5000,
               "filename": "x/../../secret_key"}
    args = sorted(rule.arguments)
    if not args:
        return [{}]
    return [{a: good.get(a, "1") for a in args}, {a: hostile.get(a, "9" * 5000) for a in args}]


def url_of(rule, values: dict[str, str]) -> str:
    return re.sub(r"<(?:[^<>:]+:)?(\w+)>", lambda m: values[m.group(1)], rule.rule)


def form_names(client: FlaskClient, urls: list[str]) -> set[str]:
    """The names of every field the app's own pages offer (the WTForms fields among them)."""
    names: set[str] = set()
    for url in urls:
        html = client.get(url).get_data(as_text=True)
        names |= set(re.findall(r'<(?:input|select|textarea|button)\b[^>]*\bname="([\w-]+)"', html))
    return names


def requests_for(rule, routes: Routes, names: list[str]):
    """What to send one rule. Every game's match gets every name at once (the first hostile
    value, and every name twice); the other hostile values and the groups of a few names
    are shared out among the games in turn: each is sent to every route once, and each
    game's match still meets all the names (a game's form reads its own)."""
    methods = sorted(rule.methods - {"HEAD", "OPTIONS"})
    games = sorted(GAMES) if rule.arguments else sorted(GAMES)[:1]  # a route of no match or game: once
    groups = [names[start:start + 4] for start in range(0, len(names), 4)]
    for method in methods:
        # a hostile path is the same whichever game's match the good one would name
        hostile = (path_values(rule, routes, games[0]) * 2)[1]
        yield method, url_of(rule, hostile), "&".join(f"{n}={HOSTILE[0]}" for n in names), False
        for game_index, game in enumerate(games):
            good = path_values(rule, routes, game)[0]
            for i, value in enumerate(HOSTILE):
                if i == 0 or i % len(games) == game_index:
                    yield method, url_of(rule, good), "&".join(f"{n}={value}" for n in names), (i + game_index) % 2 == 1
            # every name twice (the 5,000 digits went in above: a repeat need not carry them again)
            yield method, url_of(rule, good), "&".join(f"{n}={HOSTILE[1]}&{n}=1" for n in names), False
            # a few names at a time, so an early refusal of one does not hide another
            for g, group in enumerate(groups):
                if g % len(games) == game_index:
                    yield method, url_of(rule, good), "&".join(
                        f"{n}={HOSTILE[0]}&{n}={HOSTILE[1 + (4 * g + i) % (len(HOSTILE) - 1)]}"
                        for i, n in enumerate(group)), False


def test_the_walk_covers_every_route():
    assert len(RULES) > 30 and {"matches.delete", "hands.undo", "hands.record", "static"} <= {r.endpoint for r in RULES}


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.endpoint)
def test_every_route_answers_hostile_names_and_values_without_a_500(routes, rule):
    routes.seed()
    failures, live = [], {game: 0 for game in routes.matches}  # answers other than 404 for each game's match
    urls = {url_of(rule, path_values(rule, routes, game)[0]): game for game in routes.matches}
    for method, url, query, htmx in requests_for(rule, routes, routes.names):
        headers = {"Cookie": routes.cookie, **({"HX-Request": "true"} if htmx else {})}
        if method == "GET":
            response = routes.walker.get(url, query_string=query, headers=headers)
        else:
            response = routes.walker.open(url, method=method, query_string=query, data=query, headers=headers,
                                          content_type="application/x-www-form-urlencoded")
        if response.status_code >= 500:
            failures.append(f"{method} {url[:80]}?{query[:120]} -> {response.status_code}")
        if url in urls and response.status_code != 404:
            live[urls[url]] += 1
    assert not failures, f"{len(failures)} answers of 500 or more, e.g.:\n" + "\n".join(sorted(set(failures))[:30])
    if "match_id" in rule.arguments:  # the matches were there to be walked, not a 404 from the start
        assert any(live.values()), live  # (some pages are one game's: a tally is Third Rail's)


def _wire(text: str) -> str:
    """A header value as the server decodes its bytes (latin-1): UTF-8 text arrives as mojibake."""
    return text.encode("utf-8").decode("latin-1")


DIGITS = "9" * 5000
# Headers the app or its libraries read (conditional requests, ranges, compression, cookies),
# each with values that are garbage, huge, or another script's text
HOSTILE_HEADERS = [
    *(("If-None-Match", value) for value in (f'W/"v{DIGITS}"', f'"v{DIGITS}"', 'W/"v²"', _wire('W/"v١٢"'), 'W/"v-1"',
                                              "*", ',,,"', 'W/"' + "x" * 20000, _wire("W/\"v\U0001F600\""), "v1, " * 2000)),
    *(("If-Match", value) for value in (f'"v{DIGITS}"', ',,"')),
    *(("If-Modified-Since", value) for value in ("garbage", "Sun, 06 Nov 99999 08:49:37 GMT", DIGITS, "0",
                                                  _wire("Dim, 06 Déc 2026 08:49:37 GMT"))),
    *(("If-Unmodified-Since", value) for value in ("Mon, 32 Foo 1994 25:61:61 GMT", DIGITS)),
    *(("If-Range", value) for value in (f'W/"v{DIGITS}"', "Sun, 06 Nov 1994 08:49:37 GMT")),
    *(("Range", value) for value in (f"bytes=0-{DIGITS}", f"bytes={DIGITS}-", "bytes=-1", "bytes=5-1",
                                     "bytes=" + ",".join(f"{i}-{i}" for i in range(3000)), "chars=1-2", "bytes=x-y",
                                     _wire("bytes=١-٢"))),
    *(("Accept-Encoding", value) for value in (f"gzip;q={DIGITS}", "br;q=nan", "gzip;q=-1, br;q=2", ",;;,=",
                                               "x" * 20000, _wire("gzip;q=½"), ", ".join(["zstd"] * 3000))),
    *(("Cookie", value) for value in ("garbage", "=; ;=;;", "a=" + "x" * 50000, _wire("scorekeeper_device=é\U0001F600"),
                                      f"scorekeeper_device={DIGITS}", "session=" + "x" * 5000,
                                      "session=.eJw" + DIGITS, _wire("session=\u202e"),
                                      "; ".join(f"c{i}=1" for i in range(3000)))),
]


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.endpoint)
def test_every_route_answers_hostile_headers_without_a_500(routes, rule):
    """Each route, sent each hostile header in turn, with the scorer's cookies (except where
    the hostile header is the cookie) on a real match: never a 500 (a 5,000-digit ETag's
    version in If-None-Match was one, on the live board)."""
    routes.seed()
    failures = []
    methods = sorted(rule.methods - {"HEAD", "OPTIONS"})
    games = sorted(routes.matches)
    for method in methods:
        for index, (name, value) in enumerate(HOSTILE_HEADERS):
            url = url_of(rule, path_values(rule, routes, games[index % len(games)])[0])
            headers = {"Cookie": routes.cookie, name: value} if name != "Cookie" else {"Cookie": value}
            response = routes.walker.open(url, method=method, headers=headers)
            if response.status_code >= 500:
                failures.append(f"{method} {url[:80]} {name}: {value[:60]} -> {response.status_code}")
    assert not failures, f"{len(failures)} answers of 500 or more:\n" + "\n".join(failures[:30])
