"""An unchanged poll, answered before Flask.

Every phone at a table polls its match every few seconds (a watcher's board, a scorer's
own page, the big screen), and almost every poll finds nothing new. Such a poll is
answered here, in front of the Flask app, from one primary-key lookup (the match's
version and this device's grant, ``store.poll_state``): no session, no forms, no
templates, no replay. Anything else goes on to Flask unchanged, which answers it as
before: a changed match, a device without the grant it needs (404 or 403 there), a
scorer's poll asking what changed ``since`` a version, a host not trusted. So this
only ever says "304 Not Modified" where the app would have said the same."""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from werkzeug.exceptions import SecurityError
from werkzeug.wsgi import get_host

from .. import store
from .access import DEVICE_COOKIE
from .db import thread_db
from .page import board_etag
from .security import HEADERS

# the polled parts: what each needs of the device ("read": any grant; "score": the scorer's)
_POLLED = re.compile(r"/matches/([1-9][0-9]{0,18})/(board|live|screen/live)\Z")
_NEEDS = {"board": "read", "screen/live": "read", "live": "score"}
_DEVICE = re.compile(rf"(?:^|;)\s*{DEVICE_COOKIE}=([A-Za-z0-9_-]{{22,64}})\s*(?:;|$)")
_TAGS = re.compile(r'(?:W/)?"v([0-9]{1,18})"')

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict, StartResponse], Iterable[bytes]]


class UnchangedPolls:
    """WSGI middleware: a poll whose ETag names the match's current version, from a device
    that may see (or, for the scorer's page, score) the match, is answered 304 here."""

    def __init__(self, app: WSGIApp, flask_app: Flask):
        self.app = app
        self.config = flask_app.config
        self.answered = 0  # how many polls were answered here (tests and benches read it)

    def __call__(self, environ: dict, start_response: StartResponse) -> Iterable[bytes]:
        version = self._unchanged(environ)
        if version is None:
            return self.app(environ, start_response)
        self.answered += 1
        headers = [*HEADERS.items(), ("ETag", board_etag(version)), ("Cache-Control", "no-store")]
        start_response("304 Not Modified", headers)
        return []

    def _unchanged(self, environ: dict) -> int | None:
        """The match's version when this poll may be answered 304 here, else None."""
        if environ.get("REQUEST_METHOD") != "GET":
            return None
        tags: str = environ.get("HTTP_IF_NONE_MATCH", "")
        found = tags and _POLLED.match(environ.get("PATH_INFO", ""))
        if not found:
            return None
        part = found.group(2)
        if part == "live" and "since=" in environ.get("QUERY_STRING", ""):
            return None  # the scorer's page asks what changed: Flask says it
        cookie = _DEVICE.search(environ.get("HTTP_COOKIE", ""))
        if not cookie or not self._host_trusted(environ):
            return None
        state = store.poll_state(thread_db(self.config["DATABASE"]), store.device_key(cookie.group(1)),
                                 int(found.group(1)))
        if state is None:
            return None  # no such match: Flask's 404
        version, access = state
        if access is None or (_NEEDS[part] == "score" and access != "score"):
            return None  # Flask's 404 or 403
        if str(version) not in _TAGS.findall(tags):
            return None  # changed: Flask draws it
        return version

    def _host_trusted(self, environ: dict) -> bool:
        trusted = self.config.get("TRUSTED_HOSTS")
        if not trusted:
            return True
        try:
            get_host(environ, trusted)
        except SecurityError:
            return False  # Flask's 400
        return True


def init_app(app: Flask) -> None:
    """Outermost: in front of everything else the app's WSGI callable does."""
    app.wsgi_app = UnchangedPolls(app.wsgi_app, app)  # type: ignore[method-assign]
