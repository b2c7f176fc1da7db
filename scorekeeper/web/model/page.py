"""What every page of a match needs: the stored match (or a 404), its replay
(once per request, resumed across requests), the scoreboard context, and the
page context (pages render with ``partials``). Blueprints import this module;
it imports none of them."""
from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from flask import abort, current_app, g, session, url_for
from flask.typing import ResponseReturnValue
from werkzeug.http import quote_etag

from ... import engine, store
from ...engine import MatchError, MatchResult
from ...names import FSI, PDI, isolate_names, isolated
from ..edges import access
from ..edges.db import get_db
from ..forms import hand_forms
from . import seats, view, writes
from .replays import MatchReplay, ReplayCache

if TYPE_CHECKING:
    from ...games.base import Game, HandContext, Seating, Trick, Typed

POLL_SECONDS = 3
# A match where nothing changed for IDLE_AFTER seconds (a break, a finished match left open)
# is polled every IDLE_EVERY seconds instead: the first change after a break then shows on
# a phone within 15 s instead of 3. A hidden page does not poll at all (app.js).
IDLE_AFTER = 600
IDLE_EVERY = 15

Info = store.MatchRecord  # a stored match as the pages read it
T = TypeVar("T")


def _cache() -> ReplayCache:
    cache: ReplayCache | None = current_app.extensions.get("scorekeeper.replays")
    if cache is None:  # made once per app (setdefault's argument was made, and dropped, on every call)
        cache = current_app.extensions.setdefault("scorekeeper.replays", ReplayCache())
    return cache


def _database() -> str:
    return current_app.config.get("DATABASE") or ""


def replay_of(info: Info) -> MatchReplay:
    """The stored match's replay for this request (one per match and version): the
    scoreboard, the table guide, the form, the preview and the save all read it."""
    made = g.setdefault("replays", {})
    key = (info.id, info.version)
    if key not in made:
        made[key] = MatchReplay(_cache(), _database(), info.id, info.version, info.match)
    return made[key]


def replayed(info: Info) -> MatchResult:
    """The stored match's result (raises MatchError for a match that cannot be scored,
    which the store never holds)."""
    return replay_of(info).result()


def took(saved: MatchReplay | None) -> None:
    """A write of this request made a new version: its replay serves the answer."""
    if saved is not None:
        g.setdefault("replays", {})[(saved.match_id, saved.version)] = saved


def load(match_id: int) -> Info:
    """The match row and Match, or a 404 page: also when this device holds no grant for
    it, whether the id came in the URL, the query or a form. Every view reads a match
    through here, so no route can show a match to a device that may not see it.
    Read once per request: until a write of this request changes the match (``answer``).
    Its replay for the request (``replay_of``) is made with it: every page, form and save
    of a match starts from it (folding nothing until asked)."""
    loaded: dict[int, Info] = g.setdefault("loaded", {})
    if match_id not in loaded:
        if not access.can_read(match_id):
            abort(404)  # the same answer as for a match that does not exist
        try:
            # a match replayed at its stored version (by an earlier request or this one's
            # save) is not read hand by hand again
            loaded[match_id] = store.get_record(get_db(), match_id,
                                                lambda version: _cache().match(_database(), match_id, version))
        except store.NotFound:
            abort(404)
        replay_of(loaded[match_id])
    return loaded[match_id]


def with_match(view: Callable[..., ResponseReturnValue]) -> Callable[..., ResponseReturnValue]:
    """The view is given the match its address names (``match_id``) instead of its id:
    loaded once for the request (``load``: a 404 page when there is none, or when this
    device may not see it). Access to change it stays a decorator beside the view
    (``access.scorer_required``)."""
    @functools.wraps(view)
    def with_loaded(match_id: int, **kwargs: Any) -> ResponseReturnValue:
        return view(load(match_id), **kwargs)
    return with_loaded


def scoreboard_context(match_id: int, info: Info | None = None, entry: hand_forms.HandEntry | None = None,
                       changed: dict | None = None, notice: str | None = None, rows_from: int = 1,
                       guide_dealer: int | None = None, scorer: bool | None = None,
                       result: MatchResult | None = None) -> dict[str, Any]:
    """The whole match page: scoreboard, the table guide (for the dealer the form names,
    ``guide_dealer``, when someone dealt out of turn) plus the form for the next hand (the
    hand rows from hand ``rows_from`` on). ``scorer``: whether this device may change the
    match, when the view knows it already (a save's answer), else asked (``access.can_score``);
    ``result``: the match's replay at ``info``'s version, when the caller has it (a save's).
    What the game shows is the engine's one record of it (``engine.showing``, in the context
    as ``shown``): the page reads it."""
    info = info or load(match_id)
    try:
        result = result or replayed(info)
    except MatchError as error:  # cannot happen through the store; still never a 500
        return {"info": info, "broken": error.problems, "match_id": match_id}
    # the hands the scoreboard lists: from ``rows_from``, at most the last ``HANDS_SHOWN``
    first = max(rows_from, len(result.hands) - view.HANDS_SHOWN + 1, 1)
    shown = engine.showing(result, info.match.hands, first, guide_dealer)
    board = view.scoreboard(info, shown, changed, rows_from)
    if scorer is None:
        scorer = access.can_score(info)
    if entry is None and not result.finished and scorer:
        entry = hand_forms.make_form(info.played, result.next_place(),
                                     version=info.version, number=len(result.hands) + 1,
                                     # not finished: someone deals
                                     dealer_name=result.players[result.next_dealer or 0])
    if entry is not None and scorer:  # what the check found is in it: drawn before the page is rendered
        drawn(entry)
    return {"info": info, "result": result, "board": board, "entry": entry if scorer else None,
            "match_id": match_id, "notice": notice, "broken": None, "scorer": scorer, "shown": shown,
            "live": live_context(info, scorer), "guide": guide_shown(shown.guide, shown.players)}


def drawn(entry: hand_forms.HandEntry) -> hand_forms.HandEntry:
    """A hand form as its page writes it, made before the page is rendered (``hand_forms.draw``):
    its inputs, version, a fresh request key and its dealer's name; the template reads them."""
    dealer = None if entry.dealer_name is None else view.shown_name(entry.dealer_name)
    return hand_forms.draw(entry, access.new_request_key(), dealer)


def answer(outcome: writes.Outcome, *, saved: Callable[[writes.Saved | writes.AlreadySaved], T],
           stale: Callable[[writes.Stale], T], refused: Callable[[writes.Refused], T]) -> T:
    """A write's outcome as the view answers it, the same way on every page: ``saved``
    (now, or already: a double tap), ``stale`` (another phone changed the match since
    the form was opened), ``refused`` (not written, and why). A match gone meanwhile is
    a 404."""
    if isinstance(outcome, writes.Gone):
        abort(404)
    wrote(outcome)
    if isinstance(outcome, writes.Stale):
        return stale(outcome)
    if isinstance(outcome, writes.Refused):
        return refused(outcome)
    return saved(outcome)


def wrote(outcome: writes.Outcome) -> None:
    """A write of this request is done: unless it was refused (or the match is gone), the match
    is read again after it, and a save's replay of the version it made serves the answer. The
    services call it (``entries``); ``answer`` too, for the views that answer through it."""
    if isinstance(outcome, writes.Refused | writes.Gone):
        return
    g.pop("loaded", None)  # the match changed: read it again
    if isinstance(outcome, writes.Saved):
        took(outcome.replayed)


@dataclass(frozen=True)
class SavedAnswer:
    """What a saved hand's answer shows: the notice ("Hand 5 saved: ..."), and for htmx the match
    page's context (``scoreboard_context``, with the Undo offer): only the new hand's parts when
    ``changed_only`` (the save's replay is known, and hands came before it)."""

    notice: str
    context: dict[str, Any] | None = None
    changed_only: bool = False


def saved_answer(info: Info, number: int | None, saved: writes.Saved | None, partial: bool) -> SavedAnswer:
    """The answer to hand ``number`` saved (``saved``: the write, None when the same form was saved
    before), from the save's replay when it is known; ``partial``: for htmx (else the notice
    alone, which the page after the redirect shows)."""
    after = saved.after if saved is not None else None
    if not partial:
        return SavedAnswer(saved_notice(after if after is not None else replayed(load(info.id)), number))
    if saved is not None and saved.replayed is not None and number is not None and number > 1:
        now = dataclasses.replace(info, version=saved.replayed.version, match=saved.replayed.match)
        # (only a scorer saves: the view is ``access.scorer_required``)
        context = scoreboard_context(info.id, info=now, rows_from=number, scorer=True, result=after)
        changed_only = True
    else:
        context, changed_only = scoreboard_context(info.id, scorer=True), False
    shown: engine.Showing | None = context.get("shown")
    hand = next((h for h in shown.hands if h.number == number), None) if shown is not None else None
    if hand is None or shown is None:  # a hand before the page's rows (a form sent twice, long ago)
        notice = saved_notice(after if after is not None else replayed(load(info.id)), number)
    else:
        notice = notice_words(number, shown.isolated, hand.scores, hand.totals, hand.events)
    context.update(notice=notice, undo_offer=True, undo_key=access.new_request_key())  # Undo under the notice, its own key
    return SavedAnswer(notice, context, changed_only)


def board_etag(version: int) -> str:
    """The live board's ETag: the match version, which every write bumps."""
    return quote_etag(f"v{version}", weak=True)


def live_context(info: Info, scorer: bool = False) -> dict:
    """Where a match page polls and what it shows now: a watcher's the shared read-only
    board, a scorer's its own page (``sharing.live``: the scorer's form and links)."""
    updated = info.updated_at or ""
    url = url_for("sharing.live" if scorer else "sharing.board", match_id=info.id)
    return {"url": url, "etag": board_etag(info.version),
            "updated": updated, "updated_text": updated[11:19] + " UTC" if len(updated) >= 19 else "",
            "seconds": POLL_SECONDS,  # SCOREKEEPER_POLL_IDLE_AFTER and _EVERY change the idle ones
            "idle_after": int(current_app.config.get("POLL_IDLE_AFTER", IDLE_AFTER)),
            "idle_every": int(current_app.config.get("POLL_IDLE_EVERY", IDLE_EVERY))}


def correction_saved(match_id: int, number: int, before: MatchResult, after: MatchResult, how: str = "") -> str:
    """After a correction of hand ``number`` was saved: mark the hands whose totals
    changed for the scoreboard to highlight, and say what changed."""
    old_totals = {h.number: h.totals for h in before.hands}
    changed = [h.number for h in after.hands if old_totals.get(h.number) != h.totals]
    session["changed"] = {"match": match_id, "from": number, "hands": changed}
    totals = ", ".join(f"{p} {t}" for p, t in zip(after.players, after.totals))
    head = (f"Hand {number} corrected{how}. Totals changed from hand {changed[0]} on. Totals now: {totals}."
            if changed else f"Hand {number} corrected{how}; no totals changed.")
    return " ".join([head] + new_dealers(before, after, number))


def new_dealers(before: MatchResult, after: MatchResult, number: int) -> list[str]:
    """Later hands whose dealer a correction changed, in words: their inputs were
    entered for the old dealer, so say to check them (or that they were kept)."""

    shown = after.played.shown
    old = {h.number: h.dealer for h in before.hands}
    return [shown.new_dealer(after.place(h.number)) for h in after.hands
            if h.number > number and h.number in old and old[h.number] != h.dealer]


def dealer_offer(info: Info, number: int, hand: dict, plain: MatchResult | None) -> dict | None:
    """What correcting hand ``number`` to ``hand`` does to the later hands' dealers (a
    game whose deal follows the scores): the hands that would come round to someone
    else, whether the correction can be saved as it is (``plain``: its result, None
    when refused), and whether it can be saved with those hands kept as recorded,
    marked as dealt out of turn (``keep_ok``). None when no later dealer changes."""
    marks, keep_ok = replay_of(info).dealer_marks(number, hand, plain)
    if not marks:
        return None
    players = info.players
    return {"marks": [{"number": m.number, "recorded": players[m.recorded], "in_turn": players[m.in_turn]}
                      for m in marks], "plain_ok": plain is not None, "keep_ok": keep_ok}


def saved_notice(result: MatchResult, number: int | None, how: str = "") -> str:
    """What a save says, ready to read out to the table: the hand's points and the
    new totals ("Hand 5 saved: Ann +12, Bob -3. Totals: Ann 140, Bob 90.")."""
    if number is None or not 1 <= number <= len(result.hands):
        return f"Hand {number} saved{how}."
    hand = result.hands[number - 1]
    events = [isolate_names(engine.event_text(e), result.players) for e in hand.events]
    return notice_words(number, [isolated(p) for p in result.players], hand.scores, hand.totals, events, how)


# A name and its number stay together on one line where they fit on it, even at 200% text on a
# 320 px screen; a longer name and its number would not, and the line would then break inside
# the number ("+ / 5", "1 / 2"): it may wrap before the number instead.
NAME_KEPT_WITH_NUMBER = 10  # characters


def _before_number(name: str) -> str:
    """The space between a player's name (as ``names.isolated`` writes it) and a number."""
    return "\u00a0" if len(name.strip(FSI + PDI)) <= NAME_KEPT_WITH_NUMBER else " "


def notice_words(number: int | None, names: Sequence[str], scores: list[int], totals: list[int],
                 events: Sequence[str], how: str = "") -> str:
    """``saved_notice``'s sentence, from each player's name as plain text writes it
    (``names.isolated``: a right-to-left name never reorders its score or the sentence),
    the hand's points, the totals and its events in words (their names isolated)."""
    scores_said = ", ".join(f"{name}{_before_number(name)}{view.signed(s) or '0'}" for name, s in zip(names, scores))
    totals_said = ", ".join(f"{name}{_before_number(name)}{t}" for name, t in zip(names, totals))
    said = "".join(f" {event}." for event in events)
    return f"Hand {number} saved{how}: {scores_said}. Totals: {totals_said}.{said}"


def referee_params(game: Game, trick: Trick) -> dict:
    """The trick's facts as the referee's address carries them (the keys the game's referee
    reads): the choices it shows, set."""
    referee = game.referee
    return {} if referee is None else referee.address(trick)


def hand_context(info: Info) -> HandContext:
    """Where the game stands for the hand about to be played, from the request's replay;
    for a match that cannot be replayed, a match with no hands, the dealer unknown."""
    from ...games.base import Table

    try:
        return replayed(info).next_place()
    except MatchError:
        return info.played.empty_place(Table(tuple(info.players), info.settings))


def hand_seating(info: Info, hand: dict | None = None) -> Seating | None:
    """The game's seating (``Seating``) of the hand about to be played, with what its form holds
    so far (``hand``: a typed dealer, bids...), or None when the match is over or cannot be
    replayed. The seat picture, the table guide and the referee all start from it."""

    try:
        result = replayed(info)
    except MatchError:
        return None
    if result.next_dealer is None:
        return None
    dealer = (hand or {}).get("dealer")
    if not (isinstance(dealer, int) and not isinstance(dealer, bool) and 0 <= dealer < len(result.players)):
        dealer = result.next_dealer
    return info.played.shown.seating(result.next_place().dealing(dealer), hand)


def typed_hand(info: Info, hand: dict, place: HandContext) -> dict:
    """What the match page draws beside the next hand as it is typed (``hand``: its fields so
    far; ``place``: where its form placed it, dealt by whoever the form names), from what the
    game says of it (``Game.typed``): the referee's address set from it (None for a game without
    a referee) and the seat picture with the roles it decides (None once the match is over)."""
    typed = info.played.typed(place, hand)
    return {"referee_url": referee_url(info, typed),
            "seating": None if typed.seating is None else seats.seating_shown(typed.seating)}


def table_order(info: Info, hand: dict | None = None) -> str | None:
    """The places round the table for the hand being played, clockwise from the one who leads
    its first trick, as the referee's ``table=`` carries them ("2,0,d,1": seats, d for a hand
    nobody sits at); a place that sits the hand out plays no card and is left out."""
    return seated_order(hand_seating(info, hand))


def seated_order(seating: Seating | None) -> str | None:
    """``table_order`` of a hand's seating (None: no hand is being played)."""
    if seating is None:
        return None
    places = seating.places
    # who leads the first trick; not known yet (Third Hand before the bids): left of the dealer
    dealer = next((i for i, place in enumerate(places) if place.deals), -1)
    first = next((i for i, place in enumerate(places) if place.leads), (dealer + 1) % len(places))
    turned = places[first:] + places[:first]
    return ",".join("d" if place.seat is None else str(place.seat) for place in turned if not place.sits_out)


def referee_url(info: Info, typed: Typed) -> str | None:
    """The referee for the hand being typed in a match, set from what its form holds so far
    (``typed``: its seating and the trick context the address carries); None for a game
    without one."""
    if typed.referee_address is None:
        return None
    params: dict = {"match": info.id}
    order = seated_order(typed.seating)
    if order:  # the referee names who plays each card, starting from who leads
        params["table"] = order
    if typed.referee_address:  # the trick context of the hand as dealt: by whoever the form says dealt it
        params.update(typed.referee_address, **{"from": "form"})
    return url_for("referee.trick", game=info.game, **params)


def table_guide(info: Info, dealer: int | None = None) -> dict | None:
    """The table guide for the hand about to be dealt (its lines, dealer, number, seat picture,
    and its trick tally, None where it has none), or None when the match is over (or cannot be
    replayed). ``dealer``: who the hand's form says dealt it (out of turn)."""
    try:
        result = replayed(info)
    except MatchError:
        return None
    return guide_shown(engine.guide_at(result, dealer), result.players)


def guide_shown(guide: engine.ShownGuide | None, players: Sequence[str]) -> dict | None:
    """The table guide (``engine.guide_at``) as the page writes it: the dealer's name shown,
    the seat picture drawn (``seats.seating_shown``)."""
    if guide is None:
        return None
    return {"lines": list(guide.lines), "dealer": players[guide.dealer],
            "dealer_shown": view.shown_name(players[guide.dealer]),
            "seating": seats.seating_shown(guide.seating), "number": guide.number, "tally": guide.tally}
