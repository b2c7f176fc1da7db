"""The rules as this app applies them, per game (``/rules/<game>``) and for one
match with its own settings (``/matches/<id>/rules``). The text lives in
``templates/rules/<game>.html``; every number a setting controls is filled in
from the settings, so a match's page shows that match's variant."""
from __future__ import annotations

from flask import Blueprint, abort
from flask.typing import ResponseReturnValue

from ...games import GAMES
from ...games.base import Game
from ...store import MatchRecord
from ..model import page, partials, view

bp = Blueprint("rules", __name__)


def _context(game: Game, settings: dict, info: MatchRecord | None) -> dict:
    # the place of a match of these settings before its first hand: the match's players, or for
    # the game's own page stand-ins (its words read the settings alone)
    extra = game.shown.rules_context(game.unplayed_place(settings, info.players if info else None))
    return {"game": game, "key": game.key, "s": settings, "shown": view.settings_shown(game, settings),
            "info": info, **extra}


@bp.get("/rules/<game>")
def rules(game: str) -> ResponseReturnValue:
    if game not in GAMES:
        abort(404)
    return partials.render_page_or_partial("rules.html", **_context(GAMES[game], GAMES[game].defaults(), None))


@bp.get("/matches/<match_id:match_id>/rules")
def match_rules(match_id: int) -> ResponseReturnValue:

    info = page.load(match_id)
    settings = info.played.defaults()
    settings.update(info.settings)
    return partials.render_page_or_partial("rules.html", **_context(info.played, settings, info))
