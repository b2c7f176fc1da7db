"""Security headers (a strict Content-Security-Policy and friends) and the
limits on abuse: matches started or imported, changes and new devices per address.

Every page is served with a CSP that allows only this app's own scripts,
styles and images: no inline ``<script>``, no ``style=""``, no ``on*=``
handlers anywhere in the templates (htmx's own indicator style is switched
off in base.html's htmx-config). ``Referrer-Policy: same-origin`` keeps the
secret scorer link out of other sites' logs.
"""
from __future__ import annotations

import math
import threading
import time
from typing import Any, TypeAlias

from flask import Flask, Response, current_app, request
from limits import RateLimitItemPerHour, RateLimitItemPerMinute
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from .errors import render_error

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
    "Cross-Origin-Opener-Policy": "same-origin",
}

MATCHES_PER_MINUTE = 10
TOO_MANY_MATCHES = ("This device has started {limit} matches in the last minute, the most allowed. "
                    "Wait a minute, then start the match again.")
MATCHES_PER_HOUR = 2000  # a phone restoring its whole history (about 1,400 matches fill the 1 MiB upload) fits
TOO_MANY_MATCHES_HOUR = ("This network has started or imported {limit:,} matches in the last hour, the most "
                         "allowed. Try again later.")


def add_headers(response: Response) -> Response:
    """The headers above, where the view set none of its own (one pass over the answer's
    headers: a setdefault per header scanned them all each time, a hundredth of a save)."""
    present = {name.lower() for name, _ in response.headers.items()}
    response.headers.extend([(name, value) for name, value in HEADERS.items() if name.lower() not in present])
    if response.mimetype == "text/html" and "cache-control" not in present:
        # Back shows the page as it is now, never a copy from before the last save (the
        # browser's back-forward cache; htmx keeps no copies either, see base.html)
        response.headers["Cache-Control"] = "no-store"
    return response


class BoundedMemoryStorage(MemoryStorage):
    """limits' in-process storage, with its memory bounded. limits 5.8 keeps an empty list
    for every key it has ever seen (100,000 addresses left 17 MiB behind for good) and, while
    hits come in, sweeps every key every 10 ms in a new thread (100,000 hits on distinct addresses
    took 6 s, 2 s here). Here a key whose entries have all expired is dropped, in a sweep at most
    once a second. (Both hooks are limits' private names: tests/web/test_abuse_limits.py fails if
    they go.)"""

    SWEEP_SECONDS = 1.0

    def __init__(self, uri: str | None = None, **options: Any) -> None:
        self.swept = 0.0
        super().__init__(uri, **options)

    def _MemoryStorage__schedule_expiry(self) -> None:  # the base class's private hook, called on every hit
        if time.time() - self.swept >= self.SWEEP_SECONDS and not self.timer.is_alive():
            self.swept = time.time()
            self.timer = threading.Timer(0.01, self._MemoryStorage__expire_events)
            self.timer.daemon = True
            self.timer.start()

    def _MemoryStorage__expire_events(self) -> None:  # the base class's private sweep, run by the timer above
        now = time.time()
        for key in list(self.events):
            with self.locks[key]:
                events = self.events.get(key) or []
                kept = [entry for entry in events if entry.expiry > now]  # newest first, a few per key
                if kept:
                    self.events[key] = kept
                else:
                    self.events.pop(key, None)
                    self.locks.pop(key, None)
        for key in [key for key, when in self.expirations.items() if when <= now]:
            self.storage.pop(key, None)
            self.expirations.pop(key, None)


class Limits:
    """Every limit on abuse, counted per address with ``limits``' moving window: at most N in
    any 60 s (or hour). The storage is a setting (``RATELIMIT_STORAGE_URI``, ``memory://`` by
    default; a ``redis://`` URI lets several server processes share one count). A request is
    counted when it is accepted, before its work, in one step with the check: requests sent
    at the same moment cannot all pass a check made before any of them is counted."""

    def __init__(self, app: Flask):
        uri = str(app.config["RATELIMIT_STORAGE_URI"])
        self.storage = BoundedMemoryStorage() if uri.startswith("memory://") else storage_from_string(uri)
        self.window = MovingWindowRateLimiter(self.storage)
        self.items = {name: RateLimitItemPerHour(int(app.config[setting])) if setting.endswith("_HOUR")
                      else RateLimitItemPerMinute(int(app.config[setting]))
                      for name, setting in SETTINGS.items()}
        self.lock = threading.Lock()  # the limits of one request are checked and counted together

    def take(self, key: str, costs: dict[str, int]) -> str | None:
        """Count ``costs`` (limit name: how many) for ``key`` when every limit has room for
        them and return None; else count nothing and return the first limit without room."""
        with self.lock:
            for name, cost in costs.items():
                if not self.window.test(self.items[name], name, key, cost=cost):
                    return name
            for name, cost in costs.items():
                if not self.window.hit(self.items[name], name, key, cost=cost):
                    return name  # another process (a shared storage) took the room meanwhile
        return None

    def room(self, name: str, key: str, cost: int) -> bool:
        """Has ``key`` room for ``cost`` more under this limit now? (Counts nothing.)"""
        return bool(self.window.test(self.items[name], name, key, cost=cost))

    def remaining(self, name: str, key: str) -> int:
        return max(0, self.window.get_window_stats(self.items[name], name, key).remaining)

    def retry_after(self, name: str, key: str) -> int:
        """Seconds until this limit has room for one more."""
        reset = self.window.get_window_stats(self.items[name], name, key).reset_time
        return max(1, math.ceil(reset - time.time()))

    def limit(self, name: str) -> int:
        return self.items[name].amount


SETTINGS = {  # a limit's name: the setting that holds how many (SCOREKEEPER_<setting>)
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


def limits() -> Limits:
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


def init_app(app: Flask) -> None:
    app.config.setdefault("MATCHES_PER_MINUTE", MATCHES_PER_MINUTE)  # or SCOREKEEPER_MATCHES_PER_MINUTE
    app.config.setdefault("MATCHES_PER_HOUR", MATCHES_PER_HOUR)  # or SCOREKEEPER_MATCHES_PER_HOUR
    app.config.setdefault("NEW_DEVICES_PER_MINUTE", NEW_DEVICES_PER_MINUTE)  # or SCOREKEEPER_NEW_DEVICES_PER_MINUTE
    app.config.setdefault("WRITES_PER_MINUTE", WRITES_PER_MINUTE)  # or SCOREKEEPER_WRITES_PER_MINUTE
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")  # or SCOREKEEPER_RATELIMIT_STORAGE_URI
    app.extensions["scorekeeper.limits"] = Limits(app)
    # the session holds the scorer grants: never sent with another site's requests, never read by scripts
    if not app.config.get("SESSION_COOKIE_SAMESITE"):
        app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.after_request(add_headers)
