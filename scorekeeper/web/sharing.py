"""Scorer and watcher links, who may change a match, and the live scoreboard.

Every match has two unguessable tokens (``store.new_token``):

- the **scorer link** ``/s/<scorer_token>`` grants this device (its signed
  Flask session) the right to record, edit and undo, then opens the match;
- the **watcher link** ``/w/<watcher_token>`` opens the match read-only: no
  forms, no edit or undo controls; the scoreboard refreshes itself.

Whoever starts or imports a match is its scorer on that device. Reading a
match is not secret on this server (the history page lists every match), so a
device without a grant sees ``/matches/<id>`` read-only, like a watcher. Every
write (any POST on a match, and the edit, undo, date/note and tally pages)
goes through ``guard`` and is refused with 403 for a non-scorer.

A watcher's page polls ``/matches/<id>/board`` every 3 s with the ETag of the
version it shows; an unchanged match answers ``304 Not Modified`` after one
primary-key SELECT of the version.
"""
from __future__ import annotations

import functools
import hashlib
import io
import re
import threading
import uuid
from collections import OrderedDict
from urllib.parse import urlsplit

import segno
from flask import (Blueprint, Flask, abort, current_app, g, make_response, redirect, render_template, request,
                   session, url_for)
from markupsafe import Markup

from .. import store
from . import view
from .db import get_db
from .errors import render_error

bp = Blueprint("sharing", __name__)

WATCHER_ONLY = ("This is a watcher link: you can follow the score but not change it. "
                "Ask the scorer for the scorer link.")
MAX_GRANTS = 100  # matches one device remembers scoring (the session cookie stays small)
POLL_SECONDS = 3
# pages that show a form changing the match: refused to a watcher even on GET
GUARDED_PAGES = {"hands.edit", "hands.undo", "matches.details", "referee.tally"}
_KEY = re.compile(r"[A-Za-z0-9_-]{8,64}\Z")
_LOOPBACK = {"localhost", "127.0.0.1", "::1"}


# --- who may score ------------------------------------------------------------------

def _tag(scorer_token: str) -> str:
    """What the session keeps for a grant: a digest of the scorer token, so a
    grant dies with its match (a new database reusing the id is not granted)."""
    return hashlib.sha256(scorer_token.encode()).hexdigest()[:16]


def grant(match_id: int, scorer_token: str) -> None:
    grants = dict(session.get("scorer") or {})
    grants.pop(str(match_id), None)
    grants[str(match_id)] = _tag(scorer_token)
    while len(grants) > MAX_GRANTS:
        grants.pop(next(iter(grants)))
    session["scorer"] = grants
    session.permanent = True


def grant_new_match(match_id: int) -> None:
    """The device that started (or imported) a match scores it."""
    grant(match_id, store.get_tokens(get_db(), match_id)["scorer_token"])


def has_grant(match_id: int, scorer_token: str | None) -> bool:
    grants = session.get("scorer") or {}
    return bool(scorer_token) and isinstance(grants, dict) and grants.get(str(match_id)) == _tag(scorer_token)


def can_score(info: dict | None) -> bool:
    """May this device change the match? Never on the watcher link's page."""
    if not info or g.get("watching"):
        return False
    return has_grant(info["id"], info.get("scorer_token"))


def guard():
    """before_request: refuse any change to a match from a device without a grant."""
    match_id = (request.view_args or {}).get("match_id")
    if match_id is None:
        return None
    if request.method in ("GET", "HEAD", "OPTIONS") and request.endpoint not in GUARDED_PAGES:
        return None
    try:
        tokens = store.get_tokens(get_db(), match_id)
    except store.NotFound:
        return None  # the view answers 404
    if not has_grant(match_id, tokens["scorer_token"]):
        return render_error(403, WATCHER_ONLY)
    return None


# --- one save per form ---------------------------------------------------------------

def new_request_key() -> str:
    """A fresh key for a form being rendered: saving the same form twice (a
    double tap, a re-sent request) finds its key in the audit log and saves once."""
    return uuid.uuid4().hex


def posted_request_key() -> str | None:
    raw = request.form.get("request_key", "")
    return raw if isinstance(raw, str) and _KEY.match(raw) else None


def posted_version(raw) -> int | None:
    """The match version a form was based on (None if the form has none)."""
    if raw in (None, ""):
        return None
    text = str(raw).strip()
    # a mangled (or absurd) version never matches
    return int(text) if text.isascii() and text.isdigit() and len(text) < 18 else -1


def describe_changes(match_id: int, since_version: int | None, players: list[str]) -> list[str]:
    """What another phone changed since the form was opened, in words."""
    if since_version is None or not 0 <= since_version < 2**62:
        return []
    lines = []
    for entry in store.changes_since(get_db(), match_id, since_version):
        before, after = entry["totals_before"], entry["totals_after"]
        hand = entry["hand"]
        if entry["action"] == "save" and before and after:
            points = ", ".join(f"{p} {view.signed(a - b)}" for p, a, b in zip(players, after, before))
            lines.append(f"Hand {hand} was saved on another phone while you were typing: {points}.")
        elif entry["action"] == "edit" and after:
            totals = ", ".join(f"{p} {t}" for p, t in zip(players, after))
            lines.append(f"Hand {hand} was corrected on another phone; totals now {totals}.")
        elif entry["action"] == "undo":
            lines.append(f"Hand {hand} was undone on another phone.")
        elif entry["action"] == "details":
            lines.append("The date or note was changed on another phone.")
    return lines


def stale_message(match_id: int, since_version: int | None, players: list[str], what: str = "Your entry") -> list[str]:
    lines = describe_changes(match_id, since_version, players) or [
        "This match changed on another phone since this form was opened."]
    return lines + [f"{what} is still below, nothing was overwritten: check it and save again."]


# --- links and QR codes -----------------------------------------------------------------

def base_url() -> str:
    """scheme://host:port as this device reached the server: a phone on the
    LAN gets the LAN address. Opened on the server itself (localhost), the
    links use the LAN address when ``scorekeeper serve`` listens on all
    interfaces, so the QR codes work for the phones at the table."""
    parts = urlsplit(request.host_url)
    lan = current_app.config.get("LAN_ADDRESS")
    if parts.hostname in _LOOPBACK and lan:
        return f"{parts.scheme}://{lan}" + (f":{parts.port}" if parts.port else "")
    return request.host_url.rstrip("/")


@functools.lru_cache(maxsize=512)
def qr_svg(url: str, title: str) -> Markup:
    """The URL as an inline SVG QR code: classes only, no style attribute (CSP)."""
    code = segno.make(url, error="m")
    out = io.BytesIO()
    code.save(out, kind="svg", scale=4, border=3, xmldecl=False, svgns=True, nl=False, omitsize=True,
              svgclass="qr", lineclass="qr-line", title=title, dark="#000", light="#fff")
    return Markup(out.getvalue().decode())


def share_links(info: dict) -> dict:
    """What the Share section shows: the watcher link always, the scorer
    link only to a device that may score."""
    base = base_url()
    watcher = base + url_for("sharing.watcher_link", token=info["watcher_token"])
    out = {"watcher_url": watcher, "watcher_qr": qr_svg(watcher, "Watcher link QR code"),
           "scorer_url": None, "scorer_qr": None,
           # no LAN address known: these links only work on this computer
           "loopback": urlsplit(base).hostname in _LOOPBACK, "host": urlsplit(base).hostname}
    if can_score(info):
        scorer = base + url_for("sharing.scorer_link", token=info["scorer_token"])
        out["scorer_url"] = scorer
        out["scorer_qr"] = qr_svg(scorer, "Scorer link QR code")
    return out


def etag(version: int) -> str:
    return f'W/"v{version}"'


def live_context(info: dict) -> dict:
    """For a read-only page: where to poll and what it shows now."""
    updated = info.get("updated_at") or ""
    return {"url": url_for("sharing.board", match_id=info["id"]), "etag": etag(info["version"]),
            "updated": updated, "updated_text": updated[11:19] + " UTC" if len(updated) >= 19 else "",
            "seconds": POLL_SECONDS}


# --- routes ---------------------------------------------------------------------------

def _match_for(kind: str, token: str) -> int:
    try:
        return store.match_for_token(get_db(), kind, token)
    except store.NotFound:
        abort(404)


@bp.get("/s/<token>")
def scorer_link(token: str):
    match_id = _match_for("scorer", token)
    grant(match_id, token)
    session["notice"] = "This phone can now record and correct hands in this match."
    response = redirect(url_for("matches.show", match_id=match_id), 303)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/w/<token>")
def watcher_link(token: str):
    from .matches import scoreboard_context

    match_id = _match_for("watcher", token)
    g.watching = True
    context = scoreboard_context(match_id)
    return view.render_page_or_partial("match.html", **context)


class BoardCache:
    """Rendered read-only scoreboards by (match, version): every watcher of a
    table gets the same page, so a new hand is replayed and rendered once, not
    once per watcher. A version never changes meaning, so nothing goes stale."""

    def __init__(self, size: int = 256):
        self.size = size
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key):
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        return None

    def put(self, key, value) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


@bp.get("/matches/<int:match_id>/board")
def board(match_id: int):
    """The read-only scoreboard for polling: 304 when the version is unchanged."""
    from .matches import scoreboard_context

    try:
        version = store.get_version(get_db(), match_id)
    except store.NotFound:
        abort(404)
    tag = etag(version)
    if tag in request.headers.get("If-None-Match", ""):
        response = make_response("", 304)
    else:
        cache: BoardCache = current_app.extensions["scorekeeper.boards"]
        html = cache.get((match_id, version))
        if html is None:
            g.watching = True
            context = scoreboard_context(match_id)
            html = render_template("partial/match.html", **context)
            if context["info"]["version"] == version:  # not changed between the two reads
                cache.put((match_id, version), html)
            tag = etag(context["info"]["version"])
        response = make_response(html)
    response.headers["ETag"] = tag
    response.headers["Cache-Control"] = "no-store"
    return response


def init_app(app: Flask) -> None:
    """Before CSRFProtect, so a watcher is told why rather than about tokens."""
    app.before_request(guard)
    app.extensions["scorekeeper.boards"] = BoardCache()
    app.jinja_env.globals.update(can_score=can_score, share_links=share_links, new_request_key=new_request_key)
