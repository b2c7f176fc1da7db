"""On the phone's own app only, kept from a server (``PHONE_SERVER``): where its matches stand with the server
(phone_sync.py keeps it), said on the home page and on each match's page, and the
table's choice when another phone recorded on the server meanwhile: both versions shown,
hand by hand from where they part; continue with the server's (its scorer link) or keep
this phone's hands as a copy of the match (sent as a new match)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Flask, current_app, flash, redirect, request, url_for
from flask.typing import ResponseReturnValue

from ... import phone_sync, store
from ...engine import Match, MatchError, replay
from ...matchfile import parse
from ..edges import access
from ..edges.db import get_db
from ..edges.errors import render_error
from ..model.view import signed

bp = Blueprint("sent", __name__)


@dataclass(frozen=True)
class Version:
    """One side's hands from where the two versions part, as the table reads them."""

    name: str
    hands: list[tuple[int, str]]  # (number, each player's points that hand)
    totals: str


def _version(name: str, match: Match, first: int) -> Version:
    result = replay(match)
    hands = [(n, ", ".join(f"{p} {signed(s)}" for p, s in zip(result.players, result.hands[n - 1].scores)))
             for n in range(first, len(result.hands) + 1)]
    return Version(name, hands, ", ".join(f"{p} {t}" for p, t in zip(result.players, result.totals)))


def versions(mine: Match, server_doc: Any) -> list[Version]:
    """This phone's and the server's hands from the first one they differ in."""
    try:
        theirs = parse(server_doc)
        replay(theirs)
    except MatchError:
        return [_version("On this phone", mine, 1)]
    first = 1
    while first <= min(len(mine.hands), len(theirs.hands)) and mine.hands[first - 1] == theirs.hands[first - 1]:
        first += 1
    return [_version("On this phone", mine, first), _version("On the server", theirs, first)]


def where(match_id: int, hands: int) -> phone_sync.Where:
    return phone_sync.where(current_app.config["PHONE_FOLDER"], get_db(), match_id, hands)


def waiting() -> tuple[int, int, int]:
    return phone_sync.waiting(current_app.config["PHONE_FOLDER"], get_db())


@bp.get("/take")
def take() -> ResponseReturnValue:
    """From the server's match page: keep a copy of that match (its scorer link) here."""
    token = request.args.get("scorer", "")
    if not access.KEY_PATTERN.match(token):
        return render_error(400, "This is not a scorer link's key: open “Keep a copy on this phone” from the "
                                 "match's page on the server again.")
    phone_sync.want_copy(current_app.config["PHONE_FOLDER"], token)
    flash("A copy of the match will be kept on this phone as soon as the server answers: it is listed below "
          "then, and this phone can go on scoring it with no network.")
    return redirect(url_for("matches.index"), 303)


@bp.post("/matches/<match_id:match_id>/keep-copy")
@access.scorer_required
def keep_copy(match_id: int) -> ResponseReturnValue:
    store.get_record(get_db(), match_id)
    phone_sync.keep_as_copy(current_app.config["PHONE_FOLDER"], match_id)
    flash("This phone's hands will be sent as a copy of the match, a new match on the server with its own "
          "links, as soon as the server is in reach.")
    return redirect(url_for("matches.show", match_id=match_id), 303)


@bp.post("/matches/<match_id:match_id>/take-server")
@access.scorer_required
def take_server(match_id: int) -> ResponseReturnValue:
    store.get_record(get_db(), match_id)
    try:
        phone_sync.take_server_version(current_app.config["PHONE_FOLDER"], get_db(), match_id)
    except KeyError:
        flash("There is no server version to take: this match has no conflict with the server.")
    except (MatchError, store.LimitReached) as error:
        flash("This phone's app cannot score the server's version: " + " ".join(error.problems))
    else:
        flash("This phone goes on with the server's version; its own hands that differed are in the match log.")
    return redirect(url_for("matches.show", match_id=match_id), 303)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    app.jinja_env.globals.update(sync_where=where, sync_waiting=waiting, sync_versions=versions)
