"""The referee at the table: who won that trick (``/referee/<game>``), the table
guide for the next hand (a template global the match page includes), and the
rules page and Third Rail trick tally (``rules.py`` and ``tally.py`` add their
routes to this blueprint).

Nothing here decides a trick: every winner and reason comes from the game
module's ``trick_winner``; this module only builds the card picker around it.
"""
from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, abort, make_response, redirect, request, url_for

from .. import store
from ..engine import MatchError
from ..games import GAMES, dummy_spades, third_hand, third_rail, third_wheel
from ..games.base import Table
from ..games.cards import SIGNS, SUIT_SIGNS, SUITS as LETTER_SUIT, label
from . import view
from .db import get_db

bp = Blueprint("referee", __name__)

RED = {"H", "D"}
FRENCH = tuple(LETTER_SUIT.values())  # spades, hearts, diamonds, clubs
SLOT_NAMES = ("Led", "2nd", "3rd", "4th", "5th", "6th")


@dataclass(frozen=True)
class Face:
    """One card as the picker shows it."""

    code: str  # the value the engine takes: "AS", "10H", "The Author"
    label: str  # for a <select>: "A♠", "The Author (2, Moons/Knots)"
    rank: str  # big on the face: "A", "10", "2"
    sign: str  # suit symbol(s) or suit names
    colour: str  # "red", "black" or "decktet"
    name: str = ""  # Decktet card name


def standard_face(code: str) -> Face:
    rank, letter = code[:-1], code[-1]
    return Face(code, label(code), rank, SIGNS[letter], "red" if letter in RED else "black")


def decktet_face(card: third_wheel.Card) -> Face:
    suits = "/".join(s.title() for s in card.suits)
    return Face(card.name, third_wheel.card_label(card.name), str(card.rank), suits, "decktet", card.name)


def face_of(game: str, code: str) -> Face | None:
    """The face of a card code, or None when the game has no such card."""
    if game == "third_wheel":
        card = third_wheel.CARDS.get(code)
        return decktet_face(card) if card else None
    # one deck holds every card (two Third Rail decks only leave some out), so any
    # card of the game has a face: a 2 picked for 3-4 players must not show "?"
    if len(code) >= 2 and code[-1] in SIGNS and code in deck_codes(game, 1):
        return standard_face(code)
    return None


def deck_codes(game: str, decks: int = 1) -> list[str]:
    if game == "third_hand":
        return list(third_hand.TRICK_CARDS)
    if game == "dummy_spades":
        return list(dummy_spades.TRICK_CARDS)
    if game == "third_rail":
        return third_rail.cards_in_deck(decks)
    return list(third_wheel.TRICK_CARDS)


def deck_groups(game: str, decks: int) -> list[tuple[str, str, list[Face]]]:
    """The tap grid: (heading, colour, faces) groups, in the order players sort a hand."""
    if game == "third_wheel":
        groups = []
        for rank in range(1, 11):
            cards = [decktet_face(c) for c in third_wheel.DECK if c.rank == rank]
            title = {1: "Aces (1)", 10: "Crowns (10)"}.get(rank, f"Rank {rank}")
            groups.append((title, "decktet", cards))
        return groups
    codes = deck_codes(game, decks)
    if game == "third_rail":  # King high, Ace low: show high to low like the others
        codes = [c for letter in "SHDC" for c in reversed(codes) if c[-1] == letter]
    elif game == "third_hand":
        codes = [c for letter in "SHDC" for c in reversed(codes) if c[-1] == letter]
    return [(f"{SIGNS[letter]} {LETTER_SUIT[letter]}", "red" if letter in RED else "black",
             [standard_face(c) for c in codes if c[-1] == letter]) for letter in "SHDC"]


# --- what the trick is judged under -----------------------------------------------

@dataclass
class Context:
    """The game's trick context: trump, high/low, high rank, players (Third Rail)."""

    trump: str | None = None
    mode: str | None = None
    high: str | None = None
    players: int | None = None
    trump_fixed: bool = False  # a Third Rail match without the trump variation


def defaults_from_match(game: str, info: dict | None) -> Context:
    """The app's best knowledge of the current hand: the last recorded hand's
    trump / mode / high rank, the match's player count and trump setting."""
    ctx = Context()
    hands = info["match"].hands if info else []
    last = hands[-1] if hands else {}
    if game == "third_hand":
        ctx.trump = last.get("trump") if last.get("trump") in third_hand.TRUMPS else "spades"
        bids = last.get("bids")
        ctx.high = third_hand.high_rank_for(bids) if isinstance(bids, list) and len(bids) == 2 else "K"
    elif game == "third_wheel":
        ctx.trump = last.get("trump") if last.get("trump") in third_wheel.SUITS else "moons"
        ctx.mode = last.get("mode") if last.get("mode") in third_wheel.MODES else "high"
    elif game == "third_rail":
        ctx.players = len(info["players"]) if info else 4
        if info and not info["settings"].get("trump"):
            ctx.trump, ctx.trump_fixed = None, True
        else:
            ctx.trump = last.get("trump") if last.get("trump") in third_rail.SUITS else None
    return ctx


def read_context(game: str, info: dict | None, args) -> tuple[Context, list[str]]:
    """The context from the form, falling back to the match's defaults."""
    ctx = defaults_from_match(game, info)
    problems: list[str] = []
    if game in ("third_hand", "third_wheel") and "trump" in args:
        ctx.trump = args.get("trump")
    if game == "third_wheel" and "mode" in args:
        ctx.mode = args.get("mode")
    if game == "third_hand" and "high" in args:
        ctx.high = args.get("high")
    if game == "third_rail":
        if "players" in args and not info:
            raw = args.get("players", "")
            if raw.isdecimal() and 3 <= int(raw) <= 6:
                ctx.players = int(raw)
            else:
                problems.append(f"players: Third Rail is for 3 to 6 players, got \"{raw[:10]}\"")
        if "trump" in args and not ctx.trump_fixed:
            ctx.trump = args.get("trump") or None
    return ctx, problems


def slot_count(game: str, ctx: Context) -> int:
    return {"third_hand": 2, "third_wheel": 3, "dummy_spades": 4}.get(game) or ctx.players or 4


def decks_of(game: str, ctx: Context) -> int:
    return third_rail.decks_for(ctx.players or 4) if game == "third_rail" else 1


def judge(game: str, cards: list[str], ctx: Context) -> tuple[int, str]:
    """The engine's ruling; ValueError for a trick that cannot happen."""
    if game == "third_hand":
        return third_hand.trick_winner(cards, ctx.trump, ctx.high)
    if game == "third_wheel":
        return third_wheel.trick_winner(cards, ctx.trump, ctx.mode)
    if game == "dummy_spades":
        return dummy_spades.trick_winner(cards)
    return third_rail.trick_winner(cards, ctx.trump, decks_of(game, ctx))


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
    if not raw.isdecimal():
        abort(404)
    try:
        info = store.get_info(get_db(), int(raw))
    except store.NotFound:
        abort(404)
    if info["game"] != game:
        abort(404)
    return info


# --- routes ---------------------------------------------------------------------------

@bp.get("/referee")
def choose():
    return view.render_page_or_partial("referee_index.html", games=GAMES)


@bp.get("/referee/<game>")
def trick(game: str):
    if game not in GAMES:
        abort(404)
    info = _match_info(game)
    args = request.args
    ctx, problems = read_context(game, info, args)
    count = slot_count(game, ctx)
    slots = apply_action(args, read_slots(args, count))
    acted = any(k in args for k in ("add", "undo", "clear"))
    if acted and not view.is_partial_request():
        # JavaScript off: show the trick at a plain address, so reloading repeats nothing
        return redirect(url_for("referee.trick", game=game, **canonical(info, ctx, game, slots)), 303)
    result = None
    if not problems and all(slots):
        try:
            best, reason = judge(game, slots, ctx)
        except ValueError as error:
            problems.append(str(error)[:1].upper() + str(error)[1:])
        else:
            result = {"index": best, "place": SLOT_NAMES[best], "face": face_of(game, slots[best]),
                      "reason": reason}
    elif "judge" in args and not problems:
        picked = sum(1 for c in slots if c)
        problems.append(f"Pick all {count} cards of the trick first: {picked} of {count} so far.")
    context = page_context(game, info, ctx, slots, result, problems)
    response = make_response(view.render_page_or_partial("referee.html", **context))
    if result and view.is_partial_request():
        response.headers["HX-Reswap"] = "outerHTML show:#referee:top"
    return response


def canonical(info, ctx: Context, game: str, slots: list[str]) -> dict:
    params: dict = {}
    if info:
        params["match"] = info["id"]
    if ctx.trump and game != "dummy_spades":
        params["trump"] = ctx.trump
    if ctx.mode:
        params["mode"] = ctx.mode
    if ctx.high:
        params["high"] = ctx.high
    if game == "third_rail" and not info:
        params["players"] = ctx.players
    for i, card in enumerate(slots):
        if card:
            params[f"c{i + 1}"] = card
    return params


def page_context(game: str, info, ctx: Context, slots: list[str], result, problems) -> dict:
    decks = decks_of(game, ctx)
    options = [face_of(game, c) or standard_face(c) for c in deck_codes(game, decks)] if game != "third_wheel" \
        else [decktet_face(c) for c in third_wheel.DECK]
    single_deck = decks == 1
    # a complete trick is over: its cards may lead the next one (a tap starts a new trick)
    used = {c for c in slots if c} if single_deck and not all(slots) else set()
    return {
        "game": game,
        "title": GAMES[game].title,
        "info": info,
        "ctx": ctx,
        "slots": [{"name": f"c{i + 1}", "label": SLOT_NAMES[i], "code": c, "face": face_of(game, c) if c else None,
                   "unknown": bool(c) and face_of(game, c) is None,
                   "winner": bool(result) and result["index"] == i} for i, c in enumerate(slots)],
        "next_slot": next((SLOT_NAMES[i] for i, c in enumerate(slots) if not c), None),
        "any_played": any(slots),
        "complete": all(slots),
        "options": options,
        "groups": deck_groups(game, decks),
        "used": used,
        "result": result,
        "problems": problems,
        "decks": decks,
        "trumps": third_wheel.SUITS if game == "third_wheel" else FRENCH,
        "ranks": third_hand.RANKS,
        "suit_signs": SUIT_SIGNS,
        "action": url_for("referee.trick", game=game),
    }


# --- the table guide on the match page ---------------------------------------------------

@bp.app_template_global()
def table_guide_for(info: dict) -> dict | None:
    """The guide for the hand about to be dealt, or None when the match is over
    (or cannot be replayed)."""
    try:
        result = view.replayed(info)
    except MatchError:
        return None
    if result.next_dealer is None:
        return None
    game = GAMES[result.game]
    table = Table(tuple(result.players), result.settings)
    return {"lines": game.table_guide(table, result.next_dealer), "dealer": result.players[result.next_dealer],
            "number": len(result.hands) + 1}


from . import rules, tally  # noqa: E402,F401  (their routes live on this blueprint)
