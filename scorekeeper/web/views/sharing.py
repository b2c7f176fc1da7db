"""Scorer and watcher links, who may change a match, and the live scoreboard.

Every match has two unguessable tokens (``store.new_token``):

- the **scorer link** ``/s/<scorer_token>`` grants this device (remembered by its
  cookie) the right to record, edit and undo, then opens the match;
- the **watcher link** ``/w/<watcher_token>`` opens the match read-only: no
  forms, no edit or undo controls; the scoreboard refreshes itself.

Whoever starts or imports a match is its scorer on that device (see
``access``). Opening either link adds the match to this device's history; a
device that has opened neither never sees the match (404). A scorer can issue a
new link of either kind (``renew``): the old one opens nothing any more and every
grant it gave ends; a new scorer link takes the whole match from every other device
that could score (see ``store.renew_link``).

A watcher's page polls ``/matches/<id>/board`` every 3 s with the ETag of the
version it shows; an unchanged match answers ``304 Not Modified`` after one
primary-key SELECT of the version. A scorer's page polls ``/matches/<id>/live`` the
same way (its own page: the form, the edit and undo links).
"""
from __future__ import annotations

import functools
import io
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from urllib.parse import urlsplit

import segno
from flask import (
    Blueprint,
    Flask,
    abort,
    current_app,
    flash,
    g,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_wtf import FlaskForm
from markupsafe import Markup
from wtforms import RadioField

from ... import store
from ...store import MatchRecord
from ..edges import access
from ..edges.db import get_db
from ..model import page, partials, view, writes
from ..model.links import LOOPBACK, base_url

bp = Blueprint("sharing", __name__)



# --- links and QR codes -----------------------------------------------------------------

@functools.lru_cache(maxsize=512)
def qr_svg(url: str, title: str) -> Markup:
    """The URL as an inline SVG QR code: classes only, no style attribute (CSP)."""
    code = segno.make(url, error="m")
    out = io.BytesIO()
    code.save(out, kind="svg", scale=4, border=3, xmldecl=False, svgns=True, nl=False, omitsize=True,
              svgclass="qr", lineclass="qr-line", title=title, dark="#000", light="#fff")
    return Markup(out.getvalue().decode())


def share_links(info: MatchRecord) -> dict:
    """What the Share section shows: the watcher link always, the scorer
    link only to a device that may score."""
    base = base_url()
    watcher = base + url_for("sharing.watcher_link", token=info.watcher_token)
    out = {"watcher_url": watcher, "watcher_qr": qr_svg(watcher, "Watcher link QR code"),
           "scorer_url": None, "scorer_qr": None,
           # no LAN address known: these links only work on this computer
           "loopback": urlsplit(base).hostname in LOOPBACK, "host": urlsplit(base).hostname}
    if access.can_score(info):
        scorer = base + url_for("sharing.scorer_link", token=info.scorer_token)
        out["scorer_url"] = scorer
        out["scorer_qr"] = qr_svg(scorer, "Scorer link QR code")
    return out


# --- routes ---------------------------------------------------------------------------

def _match_for(kind: str, token: str) -> int:
    try:
        return store.match_for_token(get_db(), kind, token)
    except store.NotFound:
        abort(404)


@bp.get("/s/<token>")
def scorer_link(token: str) -> ResponseReturnValue:
    match_id = _match_for("scorer", token)
    access.grant(match_id, score=True, how="scorer link")
    flash("This phone can now record and correct hands in this match.")
    response = redirect(url_for("matches.show", match_id=match_id), 303)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/w/<token>")
def watcher_link(token: str) -> ResponseReturnValue:
    match_id = _match_for("watcher", token)
    access.grant(match_id, how="watcher link")  # its pages (why, log, print) and live board open from now on
    g.watching = True
    context = page.scoreboard_context(match_id)
    return partials.render_page_or_partial("match.html", **context)


class RenewLinkForm(FlaskForm):
    kind = RadioField("Link", choices=[("scorer", "Scorer link"), ("watcher", "Watcher link")], default="scorer")


RENEWED = {
    "scorer": "New scorer link made: the old one no longer opens this match. "
              "{ended} Share the new one from “Share this match” with anyone who should keep the score.",
    "watcher": "New watcher link made: the old one no longer opens this match. "
               "{ended} Share the new one from “Share this match”.",
}


def _ended(count: int) -> str:
    if not count:
        return "No other phone had opened it only through the old link."
    return f"{count} other phone{'' if count == 1 else 's'} that came in through it can no longer see this match."


@bp.post("/matches/<match_id:match_id>/links/renew")
@access.scorer_required
def renew(match_id: int) -> ResponseReturnValue:
    """End a scorer or watcher link (a phone was lost, a link went to the wrong
    group) and make a new one; this device keeps its own access."""
    form = RenewLinkForm()
    if not form.validate():
        abort(400)
    outcome = writes.renew_link(get_db(), match_id, form.kind.data, access.device() or "",
                                request_key=access.posted_request_key())
    notice = page.answer(outcome, stale=lambda _: None, refused=lambda refused: " ".join(refused.problems),
                         saved=lambda done: RENEWED[form.kind.data].format(ended=_ended(done.ended))
                         if isinstance(done, writes.Saved) else None)  # a double tap: renewed once
    if notice:
        flash(notice)
    return redirect(url_for("matches.show", match_id=match_id), 303)


class BoardCache:
    """Rendered read-only scoreboards by (match, version): every watcher of a
    table gets the same page, so a new hand is replayed and rendered once, not
    once per watcher. A version never changes meaning, so nothing goes stale. Bounded
    in entries and in bytes (the least recently used go first), so a long match's big
    boards cannot fill the server's memory."""

    def __init__(self, size: int = 256, max_bytes: int = 16 * 1024 * 1024):
        self.size, self.max_bytes, self.bytes = size, max_bytes, 0
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> str | None:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        return None

    def put(self, key: Hashable, value: str) -> None:
        with self._lock:
            if key in self._items:
                self.bytes -= len(self._items[key])
            self._items[key] = value
            self.bytes += len(value)
            self._items.move_to_end(key)
            while self._items and (len(self._items) > self.size or self.bytes > self.max_bytes):
                self.bytes -= len(self._items.popitem(last=False)[1])


@bp.get("/matches/<match_id:match_id>/board")
def board(match_id: int) -> ResponseReturnValue:
    """The read-only scoreboard for polling: 304 when the version is unchanged."""
    return _polled(match_id, "partial/match.html", page.scoreboard_context)


@bp.get("/matches/<match_id:match_id>/screen")
def screen(match_id: int) -> ResponseReturnValue:
    """The big screen for the middle of the table (a tablet, a TV): the totals and places,
    who deals next, the last hand and the seat picture, large, updating by itself. Open to
    whoever may open the match (a watcher too); it changes nothing."""
    g.watching = True
    return render_template("screen.html", **screen_context(match_id))


@bp.get("/matches/<match_id:match_id>/screen/live")
def screen_live(match_id: int) -> ResponseReturnValue:
    """The big screen's poll: 304 when the version is unchanged, as for the watcher's board."""
    return _polled(match_id, "partial/screen.html", screen_context)


def screen_context(match_id: int) -> dict:
    context = page.scoreboard_context(match_id)
    if not context["broken"]:
        context["live"] = page.live_context(context["info"])
        context["live"]["url"] = url_for("sharing.screen_live", match_id=match_id)
    return context


def _polled(match_id: int, template: str, make_context: Callable[[int], dict]) -> ResponseReturnValue:
    """A page part that polls with the version it shows as its ETag: 304 after one
    primary-key SELECT when nothing changed, else rendered once per (match, version)
    and part, whoever asks (every watcher of a table gets the same)."""
    try:
        version = store.get_version(get_db(), match_id)
    except store.NotFound:
        abort(404)
    if request.if_none_match.contains_weak(f"v{version}"):
        response = make_response("", 304)
    elif template == "partial/match.html" and (update := _board_update(match_id, version)) is not None:
        response = make_response(update)
        response.headers["HX-Reswap"] = "none"  # only the parts swapped in by id
    else:
        cache: BoardCache = current_app.extensions["scorekeeper.boards"]
        html = cache.get((match_id, version, template))
        if html is None:
            g.watching = True
            context = make_context(match_id)
            html = render_template(template, **context)
            if context["info"].version == version:  # not changed between the two reads
                cache.put((match_id, version, template), html)
            version = context["info"].version
        response = make_response(html)
    response.set_etag(f"v{version}", weak=True)
    response.headers["Cache-Control"] = "no-store"
    return response


def _board_update(match_id: int, version: int) -> str | None:
    """What a watcher's board needs when the one change since the version it shows was a
    hand saved after at least one other (``partial/board_update.html``: the new row, the
    totals, the guide; its size does not grow with the match), rendered once per version
    and served to every watcher; None when the whole board must be drawn (no version
    named, several changes, a correction or undo, the first hand, the match over)."""
    since = _etag_version()
    if since is None or since != version - 1:
        return None
    cache: BoardCache = current_app.extensions["scorekeeper.boards"]
    key = (match_id, version, "partial/board_update.html")
    html = cache.get(key)
    if html is not None:
        return html
    changes = store.changes_since(get_db(), match_id, since)
    if len(changes) != 1 or changes[0]["action"] != "save" or changes[0]["version"] != version:
        return None
    number = changes[0]["hand"]
    if not isinstance(number, int) or number < 2:
        return None  # the page had no hand rows to add to
    g.watching = True
    context = page.scoreboard_context(match_id, rows_from=number)
    if context["broken"] or context["info"].version != version or context["board"]["finished"] \
            or context["board"]["last_number"] != number:
        return None
    parts = _new_hands_only(context, number - 1)  # a long match: its last hands move on
    if parts is None:
        return None
    html = render_template("partial/board_update.html", **parts, **context)
    cache.put(key, html)
    return html


def _etag_version() -> int | None:
    """The match version named by the request's If-None-Match (``W/"v12"``), if any: ASCII
    digits only, and few enough to be a version (5,000 digits were a 500, "²" too)."""
    for tag in request.if_none_match.as_set(include_weak=True):
        digits = tag[1:]
        if tag.startswith("v") and digits.isascii() and digits.isdigit() and len(digits) < 18:
            return int(digits)
    return None


@bp.get("/matches/<match_id:match_id>/live")
@access.scorer_required
def live(match_id: int) -> ResponseReturnValue:
    """A scorer's page polls here as a watcher's polls ``board``: 304 while the match is
    unchanged, else the scorer's page as it is now. What this phone was typing is kept on
    the phone (app.js puts it back into the new form); the notice says what changed:
    this phone's own save whose answer was lost (its form's request ``key``), then what
    other phones did since the version the page showed (the ETag, or ``since``)."""
    try:
        version = store.get_version(get_db(), match_id)
    except store.NotFound:
        abort(404)
    since = request.args.get("since", type=int)
    if since is None and request.if_none_match.contains_weak(f"v{version}"):
        response = make_response("", 304)
    else:
        # a poll names the version its page shows (the ETag); ``since`` comes from a draft's
        # check of a save whose answer was lost, which redraws the whole page
        asked = since
        since = _etag_version() if since is None else since
        key = (request.args.get("key") or "")[:64] or None
        info = page.load(match_id)
        mine = store.saved_request(get_db(), match_id, key) if key else None
        if mine and since is not None and mine["version"] <= since:
            mine = None  # saved before the page was drawn: the page knew
        lines = access.describe_changes(match_id, since, info.players, typing=False, mine=key)
        if mine and mine["action"] == "save":
            lines.insert(0, page.saved_notice(page.replayed(info), mine["hand"]))
        notice = " ".join(lines) or None
        held = _hands_held(match_id, since, info) if asked is None and partials.is_partial_request() else None
        parts = None
        if held is not None:
            context = page.scoreboard_context(match_id, info=info, notice=notice, rows_from=held + 1)
            parts = _new_hands_only(context, held)
        if parts is None:
            context = page.scoreboard_context(match_id, info=info, notice=notice)
        context.update(saved_key=key if mine else None, checked_key=key, quiet=not mine)
        if parts is not None:
            response = make_response(render_template("partial/saved.html", number=context["board"]["last_number"],
                                                     **parts, **context))
            response.headers["HX-Reswap"] = "none"  # only the parts swapped in by id
        else:
            response = make_response(render_template("partial/match.html", **context))
        version = info.version
    response.set_etag(f"v{version}", weak=True)
    response.headers["Cache-Control"] = "no-store"
    return response


# More changes than this since the version a scorer's page shows: the whole page is drawn
# again (a phone asleep through a break), not a long list of parts.
PARTS_AFTER = 10


def _hands_held(match_id: int, since: int | None, info: page.Info) -> int | None:
    """How many hands a scorer's page drawn at version ``since`` holds, when every change
    since then was a hand saved after them (one version each, in order) and it held at
    least one (the hand rows to add to); else None: the whole page is drawn again (a
    correction or an undo, a change of players or settings, a version too old)."""
    if since is None or not 0 < info.version - since <= PARTS_AFTER:
        return None
    changes = store.changes_since(get_db(), match_id, since)
    held = len(info.match.hands) - len(changes)
    if held < 1 or [(c["action"], c["version"], c["hand"]) for c in changes] != [
            ("save", since + n, held + n) for n in range(1, len(changes) + 1)]:
        return None
    return held


def _new_hands_only(context: dict, held: int) -> dict | None:
    """What a scorer's page holding ``held`` hands needs besides the new rows to look as the
    whole page would (``partial/saved.html``): the rows that fall out of its last
    ``HANDS_SHOWN`` and the earlier-hands line. None when only the whole page will do: the
    match over (its banner and Play again move), or the page about to show its first
    earlier-hands line."""
    board = context.get("board")
    if context["broken"] or board is None or board["finished"]:
        return None
    shown = view.HANDS_SHOWN
    first_held, first_now = max(1, held - shown + 1), max(1, board["last_number"] - shown + 1)
    if first_now > first_held == 1:
        return None  # the line naming the earlier hands is not on the page yet
    return {"dropped": list(range(first_held, min(first_now, held + 1))), "window_first": first_now}


def init_app(app: Flask) -> None:
    app.extensions["scorekeeper.boards"] = BoardCache()
    app.jinja_env.globals.update(share_links=share_links, renew_link_form=RenewLinkForm)
