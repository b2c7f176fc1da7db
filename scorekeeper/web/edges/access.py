"""Who may open a match, who may change it, and the keys that make a write happen once.

Private by default: a match is reached only through its links. Each device (a
browser) is remembered by a long-lived random cookie; the server keeps, for each
device, the matches it started, imported or opened through a link (its history),
and whether it may score them or only watch (``store.grant``). Every view with a
match id in its URL needs this device's grant for that match: without one it
answers 404, exactly as for a match that does not exist, so ids cannot be probed.
Every view that changes a match, or shows a form to change it, is marked
``@scorer_required`` beside its route and refused with 403 to a watching device.
Forms carry the match version they were based on and a request key: a save based
on an old version is refused and told what changed, a form sent twice saves once.
"""
from __future__ import annotations

import hashlib
import re
import secrets
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from flask import Flask, Response, abort, current_app, g, make_response, request, session

from ... import store
from ...store import MatchRecord
from ..model.view import signed
from .db import get_db
from .errors import render_error
from .security import refuse_new_device, refuse_write

WATCHER_ONLY = ("This is a watcher link: you can follow the score but not change it. "
                "Ask the scorer for the scorer link.")
DEVICE_COOKIE = "scorekeeper_device"
DEVICE_DAYS = 400  # the longest a browser keeps a cookie; renewed on every page this device opens
_DEVICE = re.compile(r"[A-Za-z0-9_-]{22,64}\Z")
_KEY = re.compile(r"[A-Za-z0-9_-]{8,64}\Z")
KEY_PATTERN = _KEY  # a request key as forms and phones send it


# --- this device ------------------------------------------------------------------

def device(create: bool = False) -> str | None:
    """This device's key in the database (a digest of its cookie), or None when it has
    no cookie the server issued (none, or one it never handed out, or one since replaced).
    ``create``: the device is about to be given a match, so it gets a new cookie (sent
    with this response): a fresh device without one; else the new value replaces the one
    it sent (``store.replace_device``), and the grants given from now on go to the new
    value only. A cookie value copied into another browser (the planter's own, put into
    a victim's) therefore never opens a match given after the copy: the browser given it
    holds the new value, and the old one opens nothing once the new one is used."""
    if "device" not in g:
        cookie = request.cookies.get(DEVICE_COOKIE, "")
        # a well-formed value the server never issued is ignored, not adopted: adopting it
        # would let whoever planted it in this browser read everything scored here
        key = store.device_of(get_db(), store.device_key(cookie)) if _DEVICE.match(cookie) else None
        g.device_cookie = cookie if key else None
        g.device = key
    if create and not g.get("device_cookie_new"):
        replaced = g.device
        g.device_cookie = secrets.token_urlsafe(24)
        g.device = store.device_key(g.device_cookie)
        g.device_cookie_new = True
        g.pop("access", None)  # what this request may open is the new value's from now on
        if replaced is not None:
            store.replace_device(get_db(), replaced, g.device)
    return g.device


def keep_device_cookie(response: Response) -> Response:
    """after_request: send a new device its cookie, and renew a known device's on each
    page it opens, so a device that plays every few months is still remembered."""
    cookie = g.get("device_cookie")
    if g.get("device_cookie_new") and not store.device_known(get_db(), g.device):
        return response  # nothing was kept for it (the start was refused): the cookie would name no device
    renew = g.get("device_cookie_new") or (cookie and request.method == "GET" and response.status_code == 200
                                           and "HX-Request" not in request.headers)
    if cookie and renew:
        response.set_cookie(DEVICE_COOKIE, cookie, max_age=DEVICE_DAYS * 24 * 3600, httponly=True,
                            samesite="Lax", secure=request.is_secure)
    return response


# --- who may see and score ----------------------------------------------------------

def grant(match_id: int, score: bool = False, how: str = "") -> None:
    """This device may now open the match, and score it when ``score``, from any page."""
    if access_to(match_id) in ("score", "watch" if not score else "score"):
        return  # a watcher reopening its link, or a scorer opening the watcher link, writes nothing
    if device() is None:
        refused = refuse_new_device()
        if refused:
            abort(make_response(refused))
    store.grant(get_db(), device(create=True) or "", match_id, score=score, watch=not score, how=how)
    g.pop("access", None)


def access_to(match_id: int) -> str | None:
    """"score", "watch" or None for this device and the match (once per request)."""
    cache = g.setdefault("access", {})
    if match_id not in cache:
        try:
            cache[match_id] = store.access_of(get_db(), device(), match_id)
        except store.NotFound:
            cache[match_id] = None
    return cache[match_id]


def can_read(match_id: int) -> bool:
    """May this device see the match (its page, log, print view, exports, board)?
    ``page.load`` asks it of every match a view reads, whatever carried the id."""
    return access_to(match_id) is not None


def can_score(info: MatchRecord | None) -> bool:
    """May this device change the match? Never on the watcher link's page."""
    if not info or g.get("watching"):
        return False
    return access_to(info.id) == "score"


def scorer_required(view: Callable) -> Callable:
    """A page that changes the match (or shows a form to change it): refused with
    403 to a device without the scorer grant. Checked by ``guard`` before the
    CSRF check, so a watcher is told why rather than about tokens."""
    view.scorer_required = True  # type: ignore[attr-defined]
    return view


def preview(view: Callable) -> Callable:
    """A POST that only shows what a save would do: it changes nothing, so it is not
    counted against the device's writes per minute (it runs at every keystroke)."""
    view.preview = True  # type: ignore[attr-defined]
    return view


def _carry_session_grants() -> None:
    """A browser that scored matches before devices were remembered held its grants in
    the session (a digest of each scorer token): move them to its device record."""
    grants = session.pop("scorer", None)
    if not isinstance(grants, dict):
        return
    for key, tag in grants.items():
        try:
            tokens = store.get_tokens(get_db(), int(key))
        except (ValueError, store.NotFound):
            continue
        if tag == hashlib.sha256(tokens["scorer_token"].encode()).hexdigest()[:16]:
            grant(int(key), score=True, how="scored before")


def guard() -> tuple[str, int] | tuple[str, int, dict[str, str]] | None:
    """before_request: any view with a match id in its URL needs this device's grant for
    that match (404 without, like a match that does not exist); a view marked
    ``scorer_required`` needs the scorer grant (403 to a watcher)."""
    if "scorer" in session:
        _carry_session_grants()
    match_id = (request.view_args or {}).get("match_id")
    if match_id is None:
        return None
    allowed = access_to(match_id)
    if allowed is None:
        abort(404)
    view = current_app.view_functions.get(request.endpoint or "")
    if not getattr(view, "scorer_required", False):
        return None
    if allowed != "score":
        return render_error(403, WATCHER_ONLY)
    if request.method == "POST" and not getattr(view, "preview", False):
        return refuse_write()
    return None


# --- one save per form ---------------------------------------------------------------

def new_request_key() -> str:
    """A fresh key for a form being rendered: saving the same form twice (a
    double tap, a re-sent request) finds its key in the audit log and saves once."""
    return uuid.uuid4().hex


def posted_request_key() -> str | None:
    return _request_key(request.form.get("request_key", ""))


def _request_key(raw: object) -> str | None:
    return raw if isinstance(raw, str) and _KEY.match(raw) else None


@dataclass(frozen=True)
class Posted:
    """What a form that changes the match carries beside its fields: its request key (the
    same form sent twice is saved once) and the match version it was drawn for."""

    request_key: str | None
    version: int | None


def posted(form: Mapping[str, str]) -> Posted:
    """A posted form's key and version, read once by the service that writes it."""
    return Posted(_request_key(form.get("request_key", "")), posted_version(form.get("version")))


def posted_version(raw: object) -> int | None:
    """The match version a form was based on (None if the form has none)."""
    if raw in (None, ""):
        return None
    text = str(raw).strip()
    # a mangled (or absurd) version never matches
    return int(text) if text.isascii() and text.isdigit() and len(text) < 18 else -1


DESCRIBED_CHANGES = 10  # changes told in words at most; a match's log may hold 5,000


def describe_changes(match_id: int, since_version: int | None, players: list[str], typing: bool = True,
                     mine: str | None = None) -> list[str]:
    """What another phone changed since the form was opened, in words (``typing``: the
    reader was typing meanwhile). The write sent with request key ``mine`` was this
    phone's own and is left out."""
    if since_version is None or not 0 <= since_version < 2**62:
        return []
    lines = []
    db = get_db()
    earlier = store.count_changes_since(db, match_id, since_version) - DESCRIBED_CHANGES
    if earlier > 0:  # an old version (or since=0 on a long match): the latest changes, and how many before
        lines.append(f"{earlier:,} earlier change{'' if earlier == 1 else 's'} (see the match log), then:")
    for entry in store.changes_since(db, match_id, since_version, last=DESCRIBED_CHANGES):
        if mine and entry.get("request_key") == mine:
            continue
        before, after = entry["totals_before"], entry["totals_after"]
        hand = entry["hand"]
        if entry["action"] == "save" and before and after:
            points = ", ".join(f"{p} {signed(a - b)}" for p, a, b in zip(players, after, before))
            while_ = " while you were typing" if typing else ""
            lines.append(f"Hand {hand} was saved on another phone{while_}: {points}.")
        elif entry["action"] == "edit" and after:
            totals = ", ".join(f"{p} {t}" for p, t in zip(players, after))
            lines.append(f"Hand {hand} was corrected on another phone; totals now {totals}.")
        elif entry["action"] == "undo":
            lines.append(f"Hand {hand} was undone on another phone.")
        elif entry["action"] == "details":
            lines.append("The date or note was changed on another phone.")
        elif entry["action"] == "setup":
            lines.append("The players' names, the settings or the first dealer were changed on another phone.")
        elif entry["action"] == "server" and after:  # the phone's copy took the server's hands (phone_sync.py)
            totals = ", ".join(f"{p} {t}" for p, t in zip(players, after))
            lines.append(f"Another phone recorded on the server: this phone took its hands from hand {hand} on; "
                         f"totals now {totals}.")
    return lines


def stale_message(match_id: int, since_version: int | None, players: list[str], what: str = "Your entry") -> list[str]:
    lines = describe_changes(match_id, since_version, players) or [
        "This match changed on another phone since this form was opened."]
    return lines + [f"{what} is still below, nothing was overwritten: check it and save again."]


def init_app(app: Flask) -> None:
    """Before CSRFProtect, so a watcher is told why rather than about tokens."""
    app.before_request(guard)
    app.after_request(keep_device_cookie)
    app.jinja_env.globals.update(can_score=can_score, new_request_key=new_request_key)
