"""The referee at the table: who won that trick (``/referee/<game>``), the table
guide for the next hand (a template global the match page includes), and the
rules page and Third Rail trick tally (``rules.py`` and ``tally.py`` add their
routes to this blueprint).

Nothing here decides a trick: every winner and reason comes from the game
module's ``judge``, and every card, choice and hint from its ``referee_*``
methods; this module only builds the card picker around them.
"""
from __future__ import annotations

from flask import Blueprint, abort, make_response, redirect, request, url_for

from ..engine import MatchError
from ..games import GAMES
from ..games.base import Table
from . import hand_forms, page, partials, seats

bp = Blueprint("referee", __name__)

SLOT_NAMES = ("Led", "2nd", "3rd", "4th", "5th", "6th")


def defaults_from_match(game: str, info: dict | None) -> dict:
    """The trick context before the address says more: in a match, the hand being
    played, of which only the match's player count and settings are known (its trump is
    the table's to say: the hand form sends what it holds, see ``page.referee_url``);
    outside a match, the game's defaults. Never the last recorded hand: it is over."""
    if not info:
        return GAMES[game].referee_context({}, None, None)
    return GAMES[game].referee_context({}, len(info["players"]), info["settings"])


def read_context(game: str, info: dict | None, args) -> tuple[dict, list[str]]:
    """The context from the form, falling back to the match's defaults."""
    ctx = defaults_from_match(game, info)
    problems = GAMES[game].referee_read(ctx, args, in_match=bool(info))
    return ctx, problems


def read_slots(args, count: int) -> list[str]:
    return [(args.get(f"c{i + 1}") or "").strip() for i in range(count)]


def apply_action(args, slots: list[str]) -> list[str]:
    """A tap on a card fills the first empty slot (a full trick starts a new one);
    "undo" empties the last filled slot; "clear" starts again."""
    slots = list(slots)
    if "clear" in args:
        return [""] * len(slots)
    if "undo" in args:
        filled = [i for i, c in enumerate(slots) if c]
        if filled:
            slots[filled[-1]] = ""
        return slots
    card = (args.get("add") or "").strip()
    if card:
        if all(slots):
            slots = [""] * len(slots)
        slots[slots.index("")] = card
    return slots


def _match_info(game: str) -> dict | None:
    raw = request.args.get("match", "")
    if not raw:
        return None
    match_id = hand_forms.whole(raw)
    if match_id is None:
        abort(404)
    info = page.load(match_id)  # this device's grant, as for the match's own pages
    if info["game"] != game:
        abort(404)
    return info


# --- routes ---------------------------------------------------------------------------

@bp.get("/referee")
def choose():
    return partials.render_page_or_partial("referee_index.html", games=GAMES)


@bp.get("/referee/<game>")
def trick(game: str):
    if game not in GAMES:
        abort(404)
    info = _match_info(game)
    args = request.args
    ctx, problems = read_context(game, info, args)
    count = GAMES[game].referee_slots(ctx)
    slots = apply_action(args, read_slots(args, count))
    acted = any(k in args for k in ("add", "undo", "clear"))
    if acted and not partials.is_partial_request():
        # JavaScript off: show the trick at a plain address, so reloading repeats nothing
        return redirect(url_for("referee.trick", game=game, **canonical(info, ctx, game, slots)), 303)
    result = None
    unpicked = [c.label for c in GAMES[game].referee_setup(ctx, in_match=bool(info)).choices
                if c.required and not ctx.get(c.name)]
    if not problems and all(slots) and unpicked:
        problems.append(f"Pick this hand's {words_and([label.lower() for label in unpicked])} above first: "
                        "who wins depends on it.")
    elif not problems and all(slots):
        try:
            best, reason = GAMES[game].judge(slots, ctx)
        except ValueError as error:
            problems.append(str(error)[:1].upper() + str(error)[1:])
        else:
            result = {"index": best, "place": SLOT_NAMES[best], "face": GAMES[game].referee_face(slots[best]),
                      "reason": reason}
    elif "judge" in args and not problems:
        picked = sum(1 for c in slots if c)
        problems.append(f"Pick all {count} cards of the trick first: {picked} of {count} so far.")
    context = page_context(game, info, ctx, slots, result, problems)
    response = make_response(partials.render_page_or_partial("referee.html", **context))
    if result and partials.is_partial_request():
        response.headers["HX-Reswap"] = "outerHTML show:#referee:top"
    return response


def canonical(info, ctx: dict, game: str, slots: list[str]) -> dict:
    params: dict = {}
    if info:
        params["match"] = info["id"]
    params.update(page.referee_params(game, ctx, bool(info)))
    for i, card in enumerate(slots):
        if card:
            params[f"c{i + 1}"] = card
    return params


def words_and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _hand_in_progress(info: dict | None, ctx: dict, game: str) -> dict | None:
    """For the "This hand" box in a match: which hand is being played, who deals it,
    and where its trick context came from (the hand form as typed, or not known yet)."""
    if not info:
        return None
    try:
        result = page.replayed(info)
    except MatchError:
        return None
    setup = GAMES[game].referee_setup(ctx, in_match=True)
    unpicked = [c.label.lower() for c in setup.choices if c.required and not ctx.get(c.name)]
    return {"number": len(result.hands) + 1 if result.next_dealer is not None else None,
            "dealer": None if result.next_dealer is None else result.players[result.next_dealer],
            "unpicked": words_and(unpicked) if unpicked else "",
            "from_form": request.args.get("from") == "form" and not unpicked,
            "asks": any(c.required for c in setup.choices)}


def page_context(game: str, info, ctx: dict, slots: list[str], result, problems) -> dict:
    described = GAMES[game]
    decks = described.referee_decks(ctx)
    single_deck = decks == 1
    # a complete trick is over: its cards may lead the next one (a tap starts a new trick)
    used = {c for c in slots if c} if single_deck and not all(slots) else set()
    return {
        "game": game,
        "title": described.title,
        "info": info,
        "ctx": ctx,
        "setup": described.referee_setup(ctx, in_match=bool(info)),
        "from_match": described.referee_from_match,
        "slots": [{"name": f"c{i + 1}", "label": SLOT_NAMES[i], "code": c,
                   "face": described.referee_face(c) if c else None,
                   "unknown": bool(c) and described.referee_face(c) is None,
                   "winner": bool(result) and result["index"] == i} for i, c in enumerate(slots)],
        "next_slot": next((SLOT_NAMES[i] for i, c in enumerate(slots) if not c), None),
        "any_played": any(slots),
        "complete": all(slots),
        "options": described.referee_options(decks),
        "groups": described.referee_groups(decks),
        "used": used,
        "result": result,
        "problems": problems,
        "decks": decks,
        "action": url_for("referee.trick", game=game),
        "in_progress": _hand_in_progress(info, ctx, game),
    }


# --- the table guide on the match page ---------------------------------------------------

@bp.app_template_global()
def table_guide_for(info: dict) -> dict | None:
    """The guide for the hand about to be dealt, or None when the match is over
    (or cannot be replayed)."""
    try:
        result = page.replayed(info)
    except MatchError:
        return None
    if result.next_dealer is None:
        return None
    game = GAMES[result.game]
    table = Table(tuple(result.players), result.settings)
    return {"lines": game.table_guide(table, result.next_dealer), "dealer": result.players[result.next_dealer],
            "seating": seats.seating_shown(game.seating(table, result.next_dealer)),
            "number": len(result.hands) + 1,
            "tally": game.trick_tally(result.settings, len(result.players)) is not None}


