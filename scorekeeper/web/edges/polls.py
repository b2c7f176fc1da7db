"""An unchanged poll, answered before Flask.

Every phone at a table polls its match every few seconds (a watcher's board, a scorer's
own page, the big screen), and almost every poll finds nothing new. Such a poll is
answered here, in front of the Flask app, from one primary-key lookup (the match's
version and this device's grant, ``store.poll_state``): no session, no forms, no
templates, no replay. Anything else goes on to Flask unchanged, which answers it as
before: a changed match, a device without the grant it needs (404 or 403 there), a
scorer's poll asking what changed ``since`` a version, a host not trusted. So this
only ever says "304 Not Modified" where the app would have said the same.

``scorekeeper serve`` asks the same question one step earlier still, of the request's head
as it arrives (``UnchangedPolls.answer_head``, called by ``serving.HeadedChannel``): no
task handed to a worker thread, no WSGI environ, the answer written on the connection at
once. A head with anything unusual in it goes on to waitress and the app."""
from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from werkzeug.exceptions import SecurityError
from werkzeug.http import parse_etags
from werkzeug.wsgi import get_host

from ... import store
from ..model.page import board_etag
from .access import DEVICE_COOKIE
from .db import thread_db
from .security import HEADERS

# the polled parts: what each needs of the device ("read": any grant; "score": the scorer's)
_POLLED = re.compile(r"/matches/([1-9][0-9]{0,18})/(board|live|screen/live)\Z")
_NEEDS = {"board": "read", "screen/live": "read", "live": "score"}
_DEVICE = re.compile(rf"(?:^|;)\s*{DEVICE_COOKIE}=([A-Za-z0-9_-]{{22,64}})\s*(?:;|$)")
# one header line as a poll sends it: a token, a colon, printable ASCII (anything else,
# an obs-fold or a control character, is left to waitress, which refuses it or knows how)
_FIELD = re.compile(r"([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([\x20-\x7e]*?)[ \t]*\Z")
# headers that make a GET more than a poll: left to waitress and the app
_NOT_A_POLL = frozenset({"content-length", "transfer-encoding", "expect", "upgrade"})

# the devices polling now, each digested once (a few MiB at most; a cookie value is 22-64 characters)
_device_key = functools.lru_cache(maxsize=1 << 15)(store.device_key)

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
        version = None
        if environ.get("REQUEST_METHOD") == "GET":
            version = self._unchanged(environ.get("PATH_INFO", ""), environ.get("QUERY_STRING", ""),
                                      environ.get("HTTP_IF_NONE_MATCH", ""), environ.get("HTTP_COOKIE", ""),
                                      lambda: self._host_trusted(environ))
        if version is None:
            return self.app(environ, start_response)
        start_response("304 Not Modified", self._headers(version))
        return []

    def answer_head(self, head: bytes) -> list[tuple[str, str]] | None:
        """The headers of a 304 for ``head``, a whole request head (its request line and
        header lines, up to the blank line) as it came from the client, when it is an
        unchanged poll by HTTP/1.1 that keeps its connection; else None: the server goes on
        as for any request. Strict on purpose: a head with anything unusual in it (a header
        twice, a folded or non-ASCII line, a body, a target that is not plainly a poll's) is
        left to waitress and the app, which answer it as they always did."""
        try:
            lines = head.decode("ascii").split("\r\n")
        except UnicodeDecodeError:
            return None
        method, _, rest = lines[0].partition(" ")
        target, _, protocol = rest.partition(" ")
        if method != "GET" or protocol != "HTTP/1.1" or lines[-2:] != ["", ""]:
            return None
        fields: dict[str, str] = {}
        for line in lines[1:-2]:
            field = _FIELD.match(line)
            if field is None:
                return None
            name = field.group(1).lower()
            if name in fields or name in _NOT_A_POLL:
                return None
            fields[name] = field.group(2)
        if fields.get("connection", "keep-alive").lower() != "keep-alive" or "host" not in fields:
            return None
        path, _, query = target.partition("?")
        version = self._unchanged(path, query, fields.get("if-none-match", ""), fields.get("cookie", ""),
                                  lambda: self._head_host_trusted(fields))
        return None if version is None else self._headers(version)

    def _headers(self, version: int) -> list[tuple[str, str]]:
        self.answered += 1
        return [*HEADERS.items(), ("ETag", board_etag(version)), ("Cache-Control", "no-store")]

    def _unchanged(self, path: str, query: str, tags: str, cookies: str,
                   host_trusted: Callable[[], bool]) -> int | None:
        """The match's version when this GET is a poll that may be answered 304 here, else
        None. ``host_trusted`` is asked only of a poll (an address not trusted: Flask's 400)."""
        found = tags and _POLLED.match(path)
        if not found:
            return None
        part = found.group(2)
        if part == "live" and "since=" in query:
            return None  # the scorer's page asks what changed: Flask says it
        cookie = _DEVICE.search(cookies)
        if not cookie or not host_trusted():
            return None
        state = store.poll_state(thread_db(self.config["DATABASE"]), _device_key(cookie.group(1)),
                                 int(found.group(1)))
        if state is None:
            return None  # no such match: Flask's 404
        version, access = state
        if access is None or (_NEEDS[part] == "score" and access != "score"):
            return None  # Flask's 404 or 403
        if tags != f'W/"v{version}"' and not parse_etags(tags).contains_weak(f"v{version}"):
            return None  # changed (or a tag the app does not read as this version's): Flask draws it
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

    def _head_host_trusted(self, fields: dict[str, str]) -> bool:
        """``_host_trusted`` for a request head read by the server itself. Behind proxies the
        host the app checks is the one they forwarded (ProxyFix, outside this middleware):
        such a poll is left to the WSGI path."""
        trusted = self.config.get("TRUSTED_HOSTS")
        if not trusted:
            return True
        if int(self.config.get("PROXIES", 0)):
            return False
        return self._host_trusted({"wsgi.url_scheme": "http", "HTTP_HOST": fields["host"]})


def init_app(app: Flask) -> None:
    """Outermost: in front of everything else the app's WSGI callable does."""
    polls = UnchangedPolls(app.wsgi_app, app)
    app.wsgi_app = polls  # type: ignore[method-assign]
    app.extensions["unchanged_polls"] = polls  # for the server's own check (serving.HeadedChannel)
