"""Who may change a match, and the keys that make a write happen once.

A device holds the scorer grant for a match when it started or imported it, or
opened its scorer link (the grant lives in the signed session). Every view that
changes a match, or shows a form to change it, is marked ``@scorer_required``
beside its route; ``guard`` refuses it with 403 to any other device. Forms carry
the match version they were based on and a request key: a save based on an old
version is refused and told what changed, a form sent twice saves once.
"""
from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Callable

from flask import Flask, current_app, g, request, session

from .. import store
from .db import get_db
from .errors import render_error
from .security import refuse_write
from .view import signed

WATCHER_ONLY = ("This is a watcher link: you can follow the score but not change it. "
                "Ask the scorer for the scorer link.")
MAX_GRANTS = 100  # matches one device remembers scoring (the session cookie stays small)
_KEY = re.compile(r"[A-Za-z0-9_-]{8,64}\Z")


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
    return (scorer_token is not None and isinstance(grants, dict)
            and grants.get(str(match_id)) == _tag(scorer_token))


def can_score(info: dict | None) -> bool:
    """May this device change the match? Never on the watcher link's page."""
    if not info or g.get("watching"):
        return False
    return has_grant(info["id"], info.get("scorer_token"))


def can_read(match_id: int) -> bool:
    """May this device see the match (its page, log, print view, exports, board)?
    For a view whose URL has no ``match_id`` (printing several matches at once)."""
    return True  # every match is readable until device records land (issue 10, in progress)


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


def guard():
    """before_request: a view marked ``scorer_required`` needs this device's grant
    for the match in its URL."""
    match_id = (request.view_args or {}).get("match_id")
    view = current_app.view_functions.get(request.endpoint or "")
    if match_id is None or not getattr(view, "scorer_required", False):
        return None
    try:
        tokens = store.get_tokens(get_db(), match_id)
    except store.NotFound:
        return None  # the view answers 404
    if not has_grant(match_id, tokens["scorer_token"]):
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
            points = ", ".join(f"{p} {signed(a - b)}" for p, a, b in zip(players, after, before))
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


def init_app(app: Flask) -> None:
    """Before CSRFProtect, so a watcher is told why rather than about tokens."""
    app.before_request(guard)
    app.jinja_env.globals.update(can_score=can_score, new_request_key=new_request_key)
