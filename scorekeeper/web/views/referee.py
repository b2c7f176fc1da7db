"""The referee at the table: who won that trick (``/referee/<game>``), the table
guide for the next hand (a template global the match page includes), and the
rules page and Third Rail trick tally (``rules.py`` and ``tally.py`` add their
routes to this blueprint).

Nothing here decides a trick: every winner and reason comes from the game
module's ``referee.judge``, and every card, choice and hint from its ``referee``
part; this module only builds the card picker around them.
"""
from __future__ import annotations

from typing import TypeAlias

from flask import Blueprint, abort, make_response, redirect, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.datastructures import MultiDict

from ...engine import MatchError
from ...games import GAMES
from ...games.base import Game, Referee, Trick, ordinal
from ...store import MatchRecord
from ..forms import hand_forms
from ..model import page, partials

# The referee's query: the request's arguments, or a copy with the lead moved on.
Args: TypeAlias = MultiDict[str, str]

bp = Blueprint("referee", __name__)

def slot_name(index: int) -> str:
    """A card's place in a trick by play order: "Led", "2nd", "3rd"... (any number of seats)."""
    return "Led" if index == 0 else ordinal(index + 1)


def defaults_from_match(game: Game, info: MatchRecord | None) -> Trick:
    """The trick before the address says more: in a match, the hand being played (its place
    in the match's replay), of which only the match's player count and settings are known
    (its trump is the table's to say: the hand form sends what it holds, see
    ``page.referee_url``); outside a match, the place of a match of the game's defaults.
    Never the last recorded hand: it is over."""
    if not info:
        return referee_of(game).trick({}, game.unplayed_place(), in_match=False)
    return referee_of(game).trick({}, page.hand_context(info), in_match=True)


def read_context(game: Game, info: MatchRecord | None, args: Args) -> tuple[Trick, list[str]]:
    """The trick from the form, falling back to the match's defaults."""
    ctx = defaults_from_match(game, info)
    problems = referee_of(game).read(ctx, args)
    return ctx, problems


def read_slots(args: Args, count: int) -> list[str]:
    return [(args.get(f"c{i + 1}") or "").strip() for i in range(count)]


def apply_action(args: Args, slots: list[str]) -> list[str]:
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


def _match_info(game: Game) -> MatchRecord | None:
    raw = request.args.get("match", "")
    if not raw:
        return None
    match_id = hand_forms.whole(raw)
    if match_id is None:
        abort(404)
    info = page.load(match_id)  # this device's grant, as for the match's own pages
    if info.played is not game:
        abort(404)
    return info


def play_order(info: MatchRecord | None, args: Args, count: int) -> list[str] | None:
    """Who plays the cards of a trick, in order, by name: the places of ``table=`` (or of the
    hand's seating) turned to start at ``lead=``; None outside a match, or when the places do
    not make a trick of ``count`` cards."""
    if not info:
        return None
    raw = (args.get("table") or "")[:60]
    parts = raw.split(",") if raw else (page.table_order(info) or "").split(",")
    players = info.players
    seats = [int(p) for p in parts if p.isascii() and p.isdigit() and len(p) < 3]
    # every place at most once; a seat may be missing: it sits the hand out (``Place.sits_out``)
    if (len(parts) != count or len(set(seats)) != len(seats) or not all(s < len(players) for s in seats)
            or parts.count("d") > 1 or len(seats) + parts.count("d") != len(parts)):
        return None
    # a hand nobody sits at goes by the name the game's seat picture gives it
    seatless = seatless_name(info) if "d" in parts else ""
    if "d" in parts and not seatless:
        return None
    names = [seatless if p == "d" else players[int(p)] for p in parts]
    lead = hand_forms.whole(args.get("lead") or "0")
    lead = lead if lead is not None and 0 <= lead < count else 0
    return names[lead:] + names[:lead]


def seatless_name(info: MatchRecord) -> str:
    """The name of the place nobody sits at in the hand being played ("" when there is none,
    or the match is over)."""
    seating = page.hand_seating(info)
    return next((place.name for place in seating.places if place.seat is None), "") if seating else ""


# --- routes ---------------------------------------------------------------------------

@bp.get("/referee")
def choose() -> ResponseReturnValue:
    return partials.render_page_or_partial("referee_index.html", games=GAMES)


def game_of(key: str) -> Game:
    """The game the address names (``/referee/<game>``): the one place the referee looks a
    key up. An unknown game, or one without a referee, has no referee page."""
    found = GAMES.get(key)
    if found is None or found.referee is None:
        abort(404)
    return found


def referee_of(game: Game) -> Referee:
    """The game's referee (``game_of`` let in only a game that has one)."""
    if game.referee is None:
        abort(404)
    return game.referee


# the match page's table guide is the page model's: a page whose view did not build it asks here
bp.add_app_template_global(page.table_guide, "table_guide_for")


@bp.get("/referee/<game>")
def trick(game: str) -> ResponseReturnValue:
    return judged(game_of(game))


def judged(game: Game) -> ResponseReturnValue:
    """The referee page of ``game``: the trick so far, and who wins it once it is whole."""
    info = _match_info(game)
    args = request.args
    ctx, problems = read_context(game, info, args)
    count = referee_of(game).slots(ctx)
    before = read_slots(args, count)
    args = next_lead(game, info, args, ctx, before)
    slots = apply_action(args, before)
    acted = any(k in args for k in ("add", "undo", "clear"))
    if acted and not partials.is_partial_request():
        # JavaScript off: show the trick at a plain address, so reloading repeats nothing
        return redirect(url_for("referee.trick", game=game.key, **canonical(info, ctx, game, slots, args)), 303)
    result = None
    unpicked = [c.label for c in referee_of(game).setup(ctx).choices
                if c.required and not ctx.facts.get(c.name)]
    if not problems and all(slots) and unpicked:
        problems.append(f"Pick this hand's {words_and([label.lower() for label in unpicked])} above first: "
                        "who wins depends on it.")
    elif not problems and all(slots):
        try:
            best, reason = referee_of(game).judge(slots, ctx)
        except ValueError as error:
            problems.append(str(error)[:1].upper() + str(error)[1:])
        else:
            order = play_order(info, args, count)
            verdict = (f"{order[best][:1].upper()}{order[best][1:]} wins the trick" if order
                       else f"{slot_name(best)} card wins")
            result = {"index": best, "verdict": verdict, "face": referee_of(game).face(slots[best]),
                      "reason": reason}
    elif "judge" in args and not problems:
        picked = sum(1 for c in slots if c)
        problems.append(f"Pick all {count} cards of the trick first: {picked} of {count} so far.")
    context = page_context(game, info, ctx, slots, result, problems, play_order(info, args, count), args)
    response = make_response(partials.render_page_or_partial("referee.html", **context))
    if result and partials.is_partial_request():
        response.headers["HX-Reswap"] = "outerHTML show:#referee:top"
    return response


def next_lead(game: Game, info: MatchRecord | None, args: Args, ctx: Trick, slots: list[str]) -> Args:
    """A card tapped after a whole trick, or New trick, starts the next one, which the last
    trick's winner leads: ``lead`` moves to that place (the arguments as given otherwise;
    Undo corrects the trick on the table, so its leader stays)."""
    if not (info and all(slots) and (args.get("add") or "clear" in args)):
        return args
    order = play_order(info, args, len(slots))
    try:
        best, _ = referee_of(game).judge(slots, ctx)
    except (ValueError, KeyError, TypeError):
        return args
    if order is None:
        return args
    lead = hand_forms.whole(args.get("lead") or "0") or 0
    moved = args.copy()
    moved["lead"] = str((lead + best) % len(slots))
    return moved


def canonical(info: MatchRecord | None, ctx: Trick, game: Game, slots: list[str], args: Args | None = None) -> dict:
    params: dict = {}
    if info:
        params["match"] = info.id
        for key in ("table", "lead"):
            if args is not None and args.get(key):
                params[key] = args[key][:60]
    params.update(page.referee_params(game, ctx))
    for i, card in enumerate(slots):
        if card:
            params[f"c{i + 1}"] = card
    return params


def slot_label(order: list[str] | None, index: int) -> str:
    """A card's place in the trick: who played it in a match ("Bob leads", "Cy"), else "Led", "2nd"..."""
    if order is None:
        return slot_name(index)
    name = order[index][:1].upper() + order[index][1:]
    return f"{name} leads" if index == 0 else name


def next_prompt(order: list[str] | None, index: int) -> str:
    """What to tap next: "Tap the card Bob led." / "Tap the card played 2nd."."""
    if order is None:
        return "Tap the card led." if index == 0 else f"Tap the card played {slot_name(index)}."
    return f"Tap the card {order[index]} {'led' if index == 0 else 'played'}."


def words_and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _hand_in_progress(info: MatchRecord | None, ctx: Trick, game: Game) -> dict | None:
    """For the "This hand" box in a match: which hand is being played, who deals it,
    and where its trick context came from (the hand form as typed, or not known yet)."""
    if not info:
        return None
    try:
        result = page.replayed(info)
    except MatchError:
        return None
    setup = referee_of(game).setup(ctx)
    unpicked = [c.label.lower() for c in setup.choices if c.required and not ctx.facts.get(c.name)]
    return {"number": len(result.hands) + 1 if result.next_dealer is not None else None,
            "dealer": None if result.next_dealer is None else result.players[result.next_dealer],
            "unpicked": words_and(unpicked) if unpicked else "",
            "from_form": request.args.get("from") == "form" and not unpicked,
            "asks": any(c.required for c in setup.choices)}


def page_context(game: Game, info: MatchRecord | None, ctx: Trick, slots: list[str], result: dict | None,
                 problems: list[str], order: list[str] | None = None, args: Args | None = None) -> dict:
    referee = referee_of(game)
    decks = referee.decks(ctx)
    single_deck = decks == 1
    # a complete trick is over: its cards may lead the next one (a tap starts a new trick)
    used = {c for c in slots if c} if single_deck and not all(slots) else set()
    lead = (hand_forms.whole((args.get("lead") if args is not None else None) or "0") or 0) if order else 0
    return {
        "game": game.key,
        "title": game.title,
        "info": info,
        "ctx": ctx,
        "setup": referee.setup(ctx),
        "from_match": referee.from_match,
        "order": order,
        "table": ((args.get("table") if args is not None else None) or (page.table_order(info) if info else None) or "")[:60] if order else "",
        "lead": lead,
        # the "Led by" choice: every place, in the table's order, by its index there
        "leaders": [((i + lead) % len(order), name) for i, name in enumerate(order)] if order else [],
        "slots": [{"name": f"c{i + 1}", "label": slot_label(order, i), "code": c,
                   "face": referee.face(c) if c else None,
                   "unknown": bool(c) and referee.face(c) is None,
                   "winner": result is not None and result["index"] == i} for i, c in enumerate(slots)],
        "next_slot": next((next_prompt(order, i) for i, c in enumerate(slots) if not c), None),
        "any_played": any(slots),
        "complete": all(slots),
        "options": referee.options(decks),
        "groups": referee.groups(decks),
        "used": used,
        "result": result,
        "problems": problems,
        "decks": decks,
        "action": url_for("referee.trick", game=game.key),
        "in_progress": _hand_in_progress(info, ctx, game),
    }
