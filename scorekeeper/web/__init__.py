"""The table app: a Flask app factory (flaskr style).

Blueprints: ``matches`` (history list, new match, scoreboard, date/note),
``hands`` (record, preview, edit, undo, audit log, why), ``sharing`` (links and
the live scoreboard), ``referee`` (trick referee, rules, tally) and ``exports``
(print, export, import), registered in ``_register_blueprints``.
"""
from __future__ import annotations

import functools
import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask, has_request_context, request
from flask.sessions import SecureCookieSessionInterface
from flask_wtf.csrf import CSRFProtect
from htmx_flask import Htmx
from itsdangerous import URLSafeTimedSerializer
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import IntegerConverter, Map

from .edges import access, db, errors, notices, polls, security
from .views import sharing

csrf = CSRFProtect()
htmx = Htmx()


def _secret_key(instance_path: str) -> str:
    """A key generated once and kept in the instance folder."""
    path = Path(instance_path) / "secret_key"
    try:
        key = path.read_text().strip()
        if key:
            return key
    except OSError:
        pass
    key = secrets.token_hex(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(key)
    return key


class MatchIdConverter(IntegerConverter):
    """A match id as SQLite can hold it: a larger number is no match (404), not an error."""

    def __init__(self, url_map: Map, *args: Any, **kwargs: Any) -> None:
        super().__init__(url_map, min=1, max=2**63 - 1)


class SignedCookieSessions(SecureCookieSessionInterface):
    """Flask's session (a signed cookie), its serializer made once per secret key: Flask
    makes one to read the cookie and another to write it, on every request (28 µs each
    on this machine, about 2% of a save). The serializer keeps nothing of a request."""

    def __init__(self) -> None:
        self._made: dict[tuple[Any, ...], URLSafeTimedSerializer | None] = {}

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        keys = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()))
        if keys not in self._made:
            if len(self._made) >= 8:  # the keys were changed over and over: start again
                self._made.clear()
            self._made[keys] = super().get_signing_serializer(app)
        return self._made[keys]

    def get_cookie_secure(self, app: Flask) -> bool:
        """Secure wherever the device cookie is (a request over https, or through a proxy that
        said so): the session holds the CSRF token and the scorer grants, and Flask's own
        setting (SESSION_COOKIE_SECURE, off by default) left it going over plain http too."""
        return bool(super().get_cookie_secure(app)) or (has_request_context() and request.is_secure)


class TableApp(Flask):
    """Flask, keeping the addresses it has built. A page builds a dozen (the form's, the
    undo link's, each player's stats...), the same ones request after request, and
    werkzeug builds each anew: 14 µs apiece on this machine, a fifteenth of a save.
    Only an address relative to the site is kept (no ``_external``, no ``_scheme``):
    it depends on nothing but the endpoint, its values, the method, the anchor and the
    path the app is mounted at, which are the key. A value that cannot be a key (a
    list) is built as before."""

    KEPT_ADDRESSES = 4096
    session_interface = SignedCookieSessions()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._kept_url = functools.lru_cache(maxsize=self.KEPT_ADDRESSES)(self._build_url)

    def url_for(self, endpoint: str, *, _anchor: str | None = None, _method: str | None = None,
                _scheme: str | None = None, _external: bool | None = None, **values: Any) -> str:
        if endpoint == "static":  # a static file by its fingerprinted name (web.edges.assets), when it has one
            served = self.extensions.get("scorekeeper.static_names", {}).get(values.get("filename"))
            if served:
                values["filename"] = served
        if _scheme is not None or _external or not has_request_context():
            return super().url_for(endpoint, _anchor=_anchor, _method=_method, _scheme=_scheme,
                                   _external=_external, **values)
        if endpoint[:1] == ".":  # relative to the blueprint serving the request, as Flask reads it
            endpoint = f"{request.blueprint}{endpoint}" if request.blueprint else endpoint[1:]
        try:
            # in the order given: the query string keeps it
            return self._kept_url(request.script_root, endpoint, _anchor, _method, tuple(values.items()))
        except TypeError:  # unhashable: not kept
            return super().url_for(endpoint, _anchor=_anchor, _method=_method, **values)

    def _build_url(self, _root: str, endpoint: str, anchor: str | None, method: str | None,
                   values: tuple[tuple[str, Any], ...]) -> str:
        return super().url_for(endpoint, _anchor=anchor, _method=method, **dict(values))


def create_app(test_config: dict | None = None) -> Flask:
    # Named after the package, so templates/ and static/ are found inside it, installed or not.
    app = TableApp("scorekeeper", instance_relative_config=True)
    app.url_map.converters["match_id"] = MatchIdConverter
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "scorekeeper.sqlite"),
        MAX_CONTENT_LENGTH=1024 * 1024,  # 1 MiB: a match file is far smaller
        WTF_CSRF_TIME_LIMIT=None,  # a match can last an evening
    )
    app.config.from_prefixed_env("SCOREKEEPER")  # SCOREKEEPER_DATABASE, SCOREKEEPER_SECRET_KEY, ...
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    app.config["DATABASE"] = str(app.config["DATABASE"])
    if not app.config.get("OFFLINE"):  # the phone's own static files go over no network: plain names
        from .edges import assets  # WhiteNoise, rcssmin, rjsmin are not shipped to the phone (offline.py)

        assets.init_app(app)  # static files by fingerprinted names, compressed once, cached for good
    polls.init_app(app)  # an unchanged poll is answered before the app (inside ProxyFix: it reads the real host)
    proxies = int(app.config.get("PROXIES", 0))
    if proxies:  # behind that many reverse proxies: trust their X-Forwarded-For/-Proto/-Host
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)  # type: ignore[method-assign]
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(app.instance_path)

    access.init_app(app)  # before CSRF: a watcher is told why a write is refused
    sharing.init_app(app)
    csrf.init_app(app)
    htmx.init_app(app)
    db.init_app(app)
    notices.init_app(app)  # flashed messages kept on the server, not in the cookie
    errors.init_app(app)
    if not app.config.get("OFFLINE"):  # on the phone itself nothing goes over a network
        from .edges import compress  # Flask-Compress is not shipped to the phone (offline.py)

        compress.init_app(app)
    security.init_app(app)  # headers on every response, and the new-match rate limit
    _register_blueprints(app)
    _register_filters(app)
    return app


def _register_blueprints(app: Flask) -> None:
    from .views import exports, hands, matches, referee, rules, stats, tally

    app.register_blueprint(matches.bp)
    app.register_blueprint(hands.bp)
    app.register_blueprint(sharing.bp)  # scorer and watcher links, the live scoreboard
    app.register_blueprint(referee.bp)  # the trick referee
    app.register_blueprint(rules.bp)  # the rules pages, general and of a match
    app.register_blueprint(tally.bp)  # recording a hand trick by trick
    app.register_blueprint(exports.bp)  # print view, JSON and CSV export, import
    app.register_blueprint(stats.bp)  # players, their statistics, head-to-head
    stats.init_app(app)
    if app.config.get("PHONE_SERVER"):  # the phone's own app, kept from a server: where its matches stand there
        from .views import sent

        sent.init_app(app)
    if not app.config.get("OFFLINE"):  # the phone's own app is the kept one
        from .views import keep

        keep.init_app(app)  # /offline/: the app a phone keeps to score with no network
        from .views import sync

        sync.init_app(app)  # /sync/: what a phone scored on its own, sent to the server


def _register_filters(app: Flask) -> None:
    from ..names import isolated
    from .model import view

    app.jinja_env.filters["signed"] = view.signed
    app.jinja_env.filters["name"] = view.shown_name  # every player's name shown: isolated in a <bdi>
    app.jinja_env.filters["isolating"] = view.with_names_isolated  # names inside a sentence written in Python
    app.jinja_env.filters["isolated"] = isolated  # a name where markup cannot go (a page's title)
    app.jinja_env.filters["ordinal"] = view.ordinal
    app.jinja_env.globals["game_title"] = view.game_title
    from .views.hands import earlier_page

    app.jinja_env.globals["earlier_page"] = earlier_page  # the page of earlier hands holding a hand
    from .model.changes import hand_changes, setup_changes

    app.jinja_env.globals["hand_changes"] = hand_changes  # the match log: what a correction changed
    app.jinja_env.globals["setup_changes"] = setup_changes  # and what a change of players or settings did
