"""Security headers (a strict Content-Security-Policy and friends) and the
limit on how many matches one address may start per minute.

Every page is served with a CSP that allows only this app's own scripts,
styles and images: no inline ``<script>``, no ``style=""``, no ``on*=``
handlers anywhere in the templates (htmx's own indicator style is switched
off in base.html's htmx-config). ``Referrer-Policy: same-origin`` keeps the
secret scorer link out of other sites' logs.
"""
from __future__ import annotations

import threading
import time
from collections import deque

from flask import Flask, Response, current_app, request

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


def add_headers(response: Response) -> Response:
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    if response.mimetype == "text/html":
        # Back shows the page as it is now, never a copy from before the last save (the
        # browser's back-forward cache; htmx keeps no copies either, see base.html)
        response.headers.setdefault("Cache-Control", "no-store")
    return response


class RateLimiter:
    """At most ``limit`` events per ``window`` seconds for each key (an
    address), in memory: ``scorekeeper serve`` is one process."""

    def __init__(self, limit: int, window: float = 60.0):
        self.limit = limit
        self.window = window
        self._events: dict[str, deque] = {}
        self._lock = threading.Lock()

    def _recent(self, key: str, now: float) -> deque:
        events = self._events.setdefault(key, deque())
        while events and events[0] <= now - self.window:
            events.popleft()
        return events

    def allowed(self, key: str) -> bool:
        with self._lock:
            now = time.monotonic()
            recent = self._recent(key, now)
            if not recent:
                self._events.pop(key, None)
            return len(recent) < self.limit

    def note(self, key: str) -> None:
        with self._lock:
            self._recent(key, time.monotonic()).append(time.monotonic())

    def retry_after(self, key: str) -> int:
        with self._lock:
            recent = self._recent(key, time.monotonic())
            if len(recent) < self.limit:
                return 0
            return max(1, int(recent[0] + self.window - time.monotonic()) + 1)


WRITES_PER_MINUTE = 120  # a table saves a hand every few minutes; a tally tap is a write too
TOO_MANY_WRITES = ("This device has sent {limit} changes in the last minute, the most allowed. "
                   "Wait a minute, then save again: what you typed is still on your screen.")


def _refused(limiter_name: str, message: str, count: bool = True):
    """None when this address is under the limit (and, when ``count``, counts this one),
    else the 429 page saying why and when to try again."""
    limiter: RateLimiter = current_app.extensions[limiter_name]
    address = _address()
    if not limiter.allowed(address):
        body, status = render_error(429, message.format(limit=limiter.limit))
        return body, status, {"Retry-After": str(limiter.retry_after(address))}
    if count:
        limiter.note(address)
    return None


def refuse_write():
    """None when this address may change a match now (and count it), else the 429 page."""
    return _refused("scorekeeper.write_limiter", TOO_MANY_WRITES)


NEW_DEVICES_PER_MINUTE = 30  # phones opening a link for the first time, per address (a club's Wi-Fi is one)
TOO_MANY_DEVICES = ("{limit} new phones opened links from this network in the last minute, the most allowed. "
                    "Wait a minute, then open the link again.")


def refuse_new_device():
    """None when one more new device may be remembered for this address now (and count
    it), else the 429 page: a script opening a link without its cookie again and again
    cannot fill the disk with devices."""
    return _refused("scorekeeper.device_limiter", TOO_MANY_DEVICES)


def _address() -> str:
    return request.remote_addr or "unknown"


def refuse_new_match():
    """None when this address may start another match now, else the 429 page (a start
    is counted once it succeeded: ``note_new_match``)."""
    return _refused("scorekeeper.match_limiter", TOO_MANY_MATCHES, count=False)


def note_new_match() -> None:
    limiter: RateLimiter = current_app.extensions["scorekeeper.match_limiter"]
    limiter.note(_address())


def init_app(app: Flask) -> None:
    app.config.setdefault("MATCHES_PER_MINUTE", MATCHES_PER_MINUTE)  # or SCOREKEEPER_MATCHES_PER_MINUTE
    app.extensions["scorekeeper.match_limiter"] = RateLimiter(int(app.config["MATCHES_PER_MINUTE"]))
    app.config.setdefault("NEW_DEVICES_PER_MINUTE", NEW_DEVICES_PER_MINUTE)  # or SCOREKEEPER_NEW_DEVICES_PER_MINUTE
    app.extensions["scorekeeper.device_limiter"] = RateLimiter(int(app.config["NEW_DEVICES_PER_MINUTE"]))
    app.config.setdefault("WRITES_PER_MINUTE", WRITES_PER_MINUTE)  # or SCOREKEEPER_WRITES_PER_MINUTE
    app.extensions["scorekeeper.write_limiter"] = RateLimiter(int(app.config["WRITES_PER_MINUTE"]))
    # the session holds the scorer grants: never sent with another site's requests, never read by scripts
    if not app.config.get("SESSION_COOKIE_SAMESITE"):
        app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.after_request(add_headers)
