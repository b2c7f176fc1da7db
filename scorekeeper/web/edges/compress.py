"""Compressed answers when the client accepts it (the table's Wi-Fi may be slow).

Flask-Compress compresses pages and static files as they go out. It keeps no cache:
a cache keyed by the request's path grew by one entry per spelling of a file's
address (``/static/x/../app.css``...), so anyone could fill the server's memory.

**No compression oracle** (BREACH): a page that writes text from its address beside
this phone's own names (``/matches/new?player_1=<guess>`` beside the known players,
``/?q=<guess>`` beside the history) would let whoever can make the phone open
addresses, and can see the sizes of the answers on the network, guess the names a
letter at a time: a right guess compresses better. So a page (HTML) asked for with a
query value that is free text is sent uncompressed. A value is not free text when the
app only takes it from a closed set (a number, a date, on/off, a game, a figure, a
request key as the app makes them): nothing of a name can be spelled in it. Forms
that are posted are compressed as before: another site cannot post them (CSRF token)."""
from __future__ import annotations

import functools
import re
from collections.abc import Callable

from flask import Flask, Response, request
from flask_compress import Compress

# brotli where the phone takes it, else gzip; static files are streamed, so the
# streaming list says the same
ALGORITHMS = ["br", "gzip"]

_DIGITS = re.compile(r"[0-9]{1,19}\Z")
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")
_REQUEST_KEY = re.compile(r"[0-9a-f]{32}\Z")  # access.new_request_key: uuid4().hex


def _matching(pattern: re.Pattern[str]) -> Callable[[str], bool]:
    return lambda value: pattern.match(value) is not None


@functools.cache  # on first use: the games are registered by then
def _closed_values() -> dict[str, Callable[[str], bool]]:
    """Query names whose values come from a closed set, each with the test of its value."""
    from ...games import GAMES
    from ..model.view import MATCH_FIGURES

    figures = {figure.key for game in GAMES.values() for figure in game.stats.figures} | set(MATCH_FIGURES)
    number = _matching(_DIGITS)
    return {
        "page": number, "part": number, "since": number, "match": number, "players": number, "hand": number, "lead": number,
        "date": _matching(_DAY), "key": _matching(_REQUEST_KEY),
        "appendix": lambda value: value in ("on", "off", "1", "0"), "dialog": lambda value: value == "1",
        "game": lambda value: value in GAMES, "figure": lambda value: value in figures,
        "as": lambda value: value == "counts", "from": lambda value: value == "form",
    }


def echoes_free_text() -> bool:
    """Does this request's address carry text the page could write back (any value
    outside its name's closed set, or a name the app does not know)?"""
    closed = _closed_values()
    for name, value in request.args.items(multi=True):
        test = closed.get(name)
        if value and (test is None or not test(value)):
            return True
    return False


class TableCompress(Compress):
    """Flask-Compress, except for a page asked for with free text in its address (see above)."""

    def after_request(self, response: Response | None) -> Response:
        if (response is not None and request.method in ("GET", "HEAD") and response.mimetype == "text/html"
                and echoes_free_text()):
            return response
        return super().after_request(response)


def init_app(app: Flask) -> None:
    app.config.setdefault("COMPRESS_ALGORITHM", ALGORITHMS)
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ALGORITHMS)
    # brotli's quality 5 costs what gzip's 6 does and is ~5% smaller; Flask-Compress's 4 is larger than gzip
    app.config.setdefault("COMPRESS_BR_LEVEL", 5)
    app.config.setdefault("COMPRESS_MIMETYPES", ["text/html", "text/css", "text/javascript", "application/javascript",
                                                 "image/svg+xml", "application/json", "application/manifest+json",
                                                 "text/csv",
                                                 "application/wasm"])  # the runtime a phone keeps (web/views/keep.py): 9.6 MB, 3.5 gzipped
    TableCompress(app)
