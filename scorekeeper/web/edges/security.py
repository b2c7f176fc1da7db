"""Security headers (a strict Content-Security-Policy and friends) and the
limits on abuse: matches started or imported, changes and new devices per address.

Every page is served with a CSP that allows only this app's own scripts,
styles and images: no inline ``<script>``, no ``style=""``, no ``on*=``
handlers anywhere in the templates (htmx's own indicator style is switched
off in base.html's htmx-config). ``Referrer-Policy: same-origin`` keeps the
secret scorer link out of other sites' logs.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from flask import Flask, Response, current_app, request

from .errors import render_error

if TYPE_CHECKING:
    from .ratelimits import Limits

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    # the wake lock keeps the phone awake during a match; nothing else is wanted
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), "
                          "interest-cohort=(), screen-wake-lock=(self)",
}

MATCHES_PER_MINUTE = 10
TOO_MANY_MATCHES = ("This device has started {limit} matches in the last minute, the most allowed. "
                    "Wait a minute, then start the match again.")
MATCHES_PER_HOUR = 2000  # a phone restoring its whole history (about 1,400 matches fill the 1 MiB upload) fits
TOO_MANY_MATCHES_HOUR = ("This network has started or imported {limit:,} matches in the last hour, the most "
                         "allowed. Try again later.")


# Honoured only where the page's origin is trustworthy (https, or this machine itself): a phone
# on the table's Wi-Fi (http://192.168.1.20:5000) ignores it and logs an error on every page.
# Not in HEADERS, which waitress's own error answers and the 304s of unchanged polls carry as
# they are, without a request to tell where the page came from.
OPENER_POLICY = ("Cross-Origin-Opener-Policy", "same-origin")


def trustworthy_origin() -> bool:
    """Whether the browser trusts this request's origin: https (a proxy's forwarded https
    counts too: sending the header to a plain-http page costs nothing) or a loopback name."""
    if request.is_secure or request.headers.get("X-Forwarded-Proto", "").lower() == "https":
        return True
    # the Host as sent ("192.168.1.20:5000", "[::1]:5000"): request.host refuses an untrusted
    # one, and the refusal's own answer comes through here too
    host = (request.environ.get("HTTP_HOST") or request.environ.get("SERVER_NAME", "")).lower()
    host = host[1:host.find("]")] if host.startswith("[") else host.split(":", 1)[0]
    return host in ("localhost", "::1") or host.endswith(".localhost") or host.startswith("127.")


def add_headers(response: Response) -> Response:
    """The headers above, where the view set none of its own (one pass over the answer's
    headers: a setdefault per header scanned them all each time, a hundredth of a save)."""
    present = {name.lower() for name, _ in response.headers.items()}
    response.headers.extend([(name, value) for name, value in HEADERS.items() if name.lower() not in present])
    if OPENER_POLICY[0].lower() not in present and trustworthy_origin():
        response.headers[OPENER_POLICY[0]] = OPENER_POLICY[1]
    if response.mimetype == "text/html" and "cache-control" not in present:
        # Back shows the page as it is now, never a copy from before the last save (the
        # browser's back-forward cache; htmx keeps no copies either, see base.html)
        response.headers["Cache-Control"] = "no-store"
    return response


SETTINGS = {  # a limit's name: the setting that holds how many (SCOREKEEPER_<setting>)
    "heavy": "HEAVY_READS_PER_MINUTE",
    "match": "MATCHES_PER_MINUTE",
    "match_hour": "MATCHES_PER_HOUR",
    "device": "NEW_DEVICES_PER_MINUTE",
    "write": "WRITES_PER_MINUTE",
}


WRITES_PER_MINUTE = 120  # a table saves a hand every few minutes; a tally tap is a write too
TOO_MANY_WRITES = ("This device has sent {limit} changes in the last minute, the most allowed. "
                   "Wait a minute, then save again: what you typed is still on your screen.")
# A 429 answer as a view returns it: the page, its status and the Retry-After header.
Refusal: TypeAlias = tuple[str, int, dict[str, str]]
MESSAGES = {"match": TOO_MANY_MATCHES, "match_hour": TOO_MANY_MATCHES_HOUR, "write": TOO_MANY_WRITES}


class NoLimits:
    """The phone's own app (``OFFLINE``): one phone, its own data, no one else to keep
    out; ``limits`` is not shipped to it. Every request has room; the limits' sizes
    still read from the settings (an import's largest file is one hour's worth)."""

    def __init__(self, app: Flask):
        self.config = app.config

    def take(self, key: str, costs: dict[str, int]) -> str | None:
        return None

    def room(self, name: str, key: str, cost: int) -> bool:
        return True

    def remaining(self, name: str, key: str) -> int:
        return self.limit(name)

    def retry_after(self, name: str, key: str) -> int:
        return 1

    def limit(self, name: str) -> int:
        return int(self.config[SETTINGS[name]])


def limits() -> Limits | NoLimits:
    return current_app.extensions["scorekeeper.limits"]


def too_many(name: str, text: str | None = None) -> Refusal:
    """The 429 page saying why (``text``, or the limit's own message) and when to try again."""
    found = limits()
    text = text or MESSAGES[name].format(limit=found.limit(name))
    body, status = render_error(429, text)
    return body, status, {"Retry-After": str(found.retry_after(name, _address()))}


def _refused(costs: dict[str, int]) -> Refusal | None:
    """None when this address has room under every limit of ``costs`` (and counts them
    now), else the 429 page of the first limit without room."""
    full = limits().take(_address(), costs)
    return None if full is None else too_many(full)


def refuse_write() -> Refusal | None:
    """None when this address may change a match now (and count it), else the 429 page."""
    return _refused({"write": 1})


NEW_DEVICES_PER_MINUTE = 30  # phones opening a link for the first time, per address (a club's Wi-Fi is one)
TOO_MANY_DEVICES = ("{limit} new phones opened links from this network in the last minute, the most allowed. "
                    "Wait a minute, then open the link again.")
MESSAGES["device"] = TOO_MANY_DEVICES


def refuse_new_device() -> Refusal | None:
    """None when one more new device may be remembered for this address now (and count
    it), else the 429 page: a script opening a link without its cookie again and again
    cannot fill the disk with devices."""
    return _refused({"device": 1})


def _address() -> str:
    return request.remote_addr or "unknown"


HEAVY_READS_PER_MINUTE = 60  # a day printed part by part, exports, the hands behind stats figures
TOO_MANY_HEAVY = ("This device has asked for {limit} printouts, exports or lists of hands in the last minute, "
                  "the most allowed. Wait a minute, then ask again.")
MESSAGES["heavy"] = TOO_MANY_HEAVY


def refuse_heavy_read() -> Refusal | None:
    """None when this address may have one more of the reads that cost the most (a part of
    a day's printout, a history export, the hands behind a stats figure) now (and count
    it), else the 429 page: each is bounded, and this bounds how many come at once."""
    return _refused({"heavy": 1})


def refuse_new_match() -> Refusal | None:
    """None when this address may start another match now (and count it, before the
    match is made), else the 429 page."""
    return _refused({"match": 1, "match_hour": 1})


def refuse_import() -> Refusal | None:
    """None when this address may send one more file to import now (and count it, whether
    the file turns out good or bad: its attempt, one of the matches a minute), else the 429
    page. Its matches count against the hourly budget only once they are to be stored
    (``refuse_matches``): a refused file costs its attempt only."""
    return _refused({"match": 1})


TOO_MANY_IN_FILE = ("This file holds {count:,} matches, but {remaining:,} more may be started or imported from "
                    "this network in the next hour ({limit:,} an hour at most). Nothing was imported: "
                    "try again later, or import a file of fewer matches.")


def _too_many_in_file(count: int) -> Refusal:
    found, address = limits(), _address()
    return too_many("match_hour", TOO_MANY_IN_FILE.format(count=count, remaining=found.remaining("match_hour", address),
                                                          limit=found.limit("match_hour")))


def refuse_file_without_room(count: int) -> Refusal | None:
    """None when this address has room for ``count`` more matches now (counting nothing: a
    file is counted when its matches are about to be stored), else the 429 page saying how
    many more it may add. Asked before the file's matches are replayed: a file too big for
    what is left of the hour costs no replay."""
    return None if limits().room("match_hour", _address(), count) else _too_many_in_file(count)


def refuse_matches(count: int) -> Refusal | None:
    """None when this address may add ``count`` matches now (and count them, checked and
    counted in one step, just before they are stored), else the 429 page saying how many
    more it may add."""
    return None if limits().take(_address(), {"match_hour": count}) is None else _too_many_in_file(count)


MAX_REPEATS = 64  # values one name may carry in a request: more than the print view takes (50) or any form sends
TOO_MANY_VALUES = "{name} is given {count:,} times in this request, but at most {limit} are read. Nothing was done."


def refuse_long_lists() -> tuple[str, int] | None:
    """before_request: a 400 naming the first query or form name repeated more than
    ``MAX_REPEATS`` times, before any view reads it (the print view de-duplicated
    21,000 ``match=`` ids one by one, 2 s of CPU, before its own cap). One pass over
    what werkzeug parsed: linear in the request's size, which waitress bounds."""
    sources = [request.args] + ([request.form] if request.method == "POST" else [])
    for source in sources:
        for name, values in source.lists():
            if len(values) > MAX_REPEATS:
                return render_error(400, TOO_MANY_VALUES.format(name=name[:40], count=len(values), limit=MAX_REPEATS))
    return None


def init_app(app: Flask) -> None:
    app.before_request(refuse_long_lists)
    app.config.setdefault("HEAVY_READS_PER_MINUTE", HEAVY_READS_PER_MINUTE)  # or SCOREKEEPER_HEAVY_READS_PER_MINUTE
    app.config.setdefault("MATCHES_PER_MINUTE", MATCHES_PER_MINUTE)  # or SCOREKEEPER_MATCHES_PER_MINUTE
    app.config.setdefault("MATCHES_PER_HOUR", MATCHES_PER_HOUR)  # or SCOREKEEPER_MATCHES_PER_HOUR
    app.config.setdefault("NEW_DEVICES_PER_MINUTE", NEW_DEVICES_PER_MINUTE)  # or SCOREKEEPER_NEW_DEVICES_PER_MINUTE
    app.config.setdefault("WRITES_PER_MINUTE", WRITES_PER_MINUTE)  # or SCOREKEEPER_WRITES_PER_MINUTE
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")  # or SCOREKEEPER_RATELIMIT_STORAGE_URI
    if app.config.get("OFFLINE"):
        app.extensions["scorekeeper.limits"] = NoLimits(app)
    else:
        from .ratelimits import Limits

        app.extensions["scorekeeper.limits"] = Limits(app)
    # the session holds the scorer grants: never sent with another site's requests, never read by scripts
    if not app.config.get("SESSION_COOKIE_SAMESITE"):
        app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.after_request(add_headers)
