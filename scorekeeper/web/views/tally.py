"""A hand trick by trick, for a game that offers it (``Shown.trick_tally``; Third
Rail, the tests' own game): the scorer taps the winner of every trick; when all are
in, the game makes the taps a hand (``TrickTally.to_hand``), saved through the same
write path as the hand form (validated by the engine and audited). Every word under
the taps (the running columns, the marked tricks, the notes, the pick beside the
tricks) is the game's; nothing here knows which game it is.

Works without JavaScript: the winners so far travel in a hidden field and every
tap is a form POST that redirects to ``GET /matches/<id>/tally?w=0,1,2``; with
htmx only the tally is swapped and ``HX-Push-Url`` puts the same address in the
address bar. Either way a reload (a locked screen, a discarded tab) resumes, and the
phone's session keeps the taps of the next hand, so leaving for the scoreboard and
tapping "Record trick by trick" again goes on from the last tap."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlencode

from flask import Blueprint, abort, flash, make_response, redirect, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_wtf import FlaskForm

from ...engine import MatchError
from ...games.base import HandContext, TallyChoice, TrickTally
from ..edges import access
from ..edges.db import get_db
from ..forms import hand_forms
from ..model import page, partials, writes

bp = Blueprint("tally", __name__)

STALE = ("This match changed since the tally was opened (someone saved on another phone). "
         "Your taps are still here: check the scoreboard, then save again.")


def _winners(raw: str, seats: int, tricks: int) -> list[int]:
    """The taps so far from the hidden field; anything mangled is dropped."""
    out: list[int] = []
    for part in (raw or "").replace(",", " ").split():
        seat = hand_forms.whole(part)
        if seat is not None and 0 <= seat < seats and len(out) < tricks:
            out.append(seat)
    return out


def _lines(error: MatchError) -> list[str]:
    """The engine's problems without "hand N: ": the tally is only ever about the hand being tapped."""
    found = [p.message for problems in error.hand_problems.values() for p in problems]
    return [p.message for p in error.header] + found or list(error.problems)


def _hand_number(info: page.Info, raw: str | None) -> int | None:
    """The recorded hand being corrected (``?hand=N``), or None for the next hand."""
    if not raw:
        return None
    number = hand_forms.whole(raw)
    if number is None or not 1 <= number <= len(info.match.hands):
        abort(404)
    return number


@dataclass
class Taps:
    """The hand being tapped: the winners so far, the pick beside them (the game's
    ``TallyChoice``: Third Rail's trump), the version of the match it was opened on,
    and the recorded hand it corrects (None: the next hand)."""

    winners: list[int]
    pick: str | None
    version: str
    number: int | None


def _pick(choice: TallyChoice | None, raw: str | None) -> str | None:
    """The pick as sent (the engine says what is wrong with a bad one), or None without a choice."""
    return (raw or None) if choice is not None else None


def _tallied_place(info: page.Info) -> HandContext:
    """Where the hand being tallied stands: the recorded hand it corrects (?hand=N), else the next."""
    source = request.form if request.method == "POST" else request.args
    result = page.replayed(info)
    return result.place(_hand_number(info, source.get("hand")) or len(result.hands) + 1)


def _taps(info: page.Info, described: TrickTally, source: Mapping[str, str]) -> Taps:
    """The taps as the request carries them (or as recorded, or as kept on this phone)."""
    players, tricks, choice = info.players, described.tricks, described.choice
    number = _hand_number(info, source.get("hand"))
    recorded = described.from_hand(info.match.hands[number - 1]) if number else None
    if number and recorded is None:
        abort(404)  # a hand recorded as counts is corrected on its edit page
    if recorded is not None and "w" not in source:  # opening a correction: every trick as recorded
        winners, pick = recorded[0][:tricks], _pick(choice, recorded[1])
    elif number is None and "w" not in source and (kept := _kept(info.id)):
        # reopened from the match page: go on from the last tap instead of trick 1
        winners, pick = _winners(kept.get("w", ""), len(players), tricks), _pick(choice, kept.get("pick"))
    else:
        winners = _winners(source.get("w", ""), len(players), tricks)
        pick = _pick(choice, source.get(choice.name) if choice is not None else None)
    return Taps(winners, pick, source.get("version") or str(info.version), number)


def _tapped(taps: Taps, posted: Mapping[str, str], seats: int, tricks: int) -> bool:
    """Apply a tap, an undo, a change or a clear to ``taps``; whether it was one."""
    winners = taps.winners
    if "undo" in posted:
        if winners:
            winners.pop()
    elif "change" in posted:  # correcting: tap a trick to give it another winner
        trick, seat = (hand_forms.whole(x) for x in (posted.get("change", "") + ":").split(":")[:2])
        if trick is not None and seat is not None and 1 <= trick <= len(winners) and 0 <= seat < seats:
            winners[trick - 1] = seat
    elif "tap" in posted:
        seat = hand_forms.whole(posted.get("tap", ""))
        if seat is not None and len(winners) < tricks and 0 <= seat < seats:
            winners.append(seat)
    elif "clear" in posted:
        winners.clear()
    else:
        return False
    return True


@bp.route("/matches/<match_id:match_id>/tally", methods=["GET", "POST"])
@access.scorer_required
@page.with_match
def tally(info: page.Info) -> ResponseReturnValue:
    match_id = info.id
    described = info.played.shown.trick_tally(_tallied_place(info))
    if described is None:
        abort(404)
    form = FlaskForm()
    taps = _taps(info, described, request.form if request.method == "POST" else request.args)
    problems: list[str] = []
    if request.method == "POST" and not form.validate():
        problems.append("This form has expired. Reload the page and try again.")
    elif request.method == "POST" and _tapped(taps, request.form, len(info.players), described.tricks):
        # the taps live in the address (?w=0,1,2), so a reload, a locked screen or a
        # discarded tab resumes the tally instead of starting again at trick 1
        target = state_url(match_id, taps, described.choice)
        if taps.number is None:
            _keep(match_id, {"w": ",".join(str(s) for s in taps.winners), "pick": taps.pick}
                  if taps.winners or taps.pick else None)
        if not partials.is_partial_request():
            return redirect(target, 303)
        response = make_response(partials.render_page_or_partial(
            "tally.html", **_context(info, described, taps, problems, form)))
        response.headers["HX-Push-Url"] = target
        return response
    elif request.method == "POST" and ("save" in request.form or "keep_dealers" in request.form):
        outcome = _save(info, described, taps, request.form.get("keep_dealers") == "1")

        def stale(_: writes.Stale) -> None:
            problems.append(STALE)
            taps.version = str(page.load(match_id).version)

        answer = page.answer(outcome, saved=lambda done: _saved(info, described, taps, done), stale=stale,
                             refused=lambda refused: problems.extend(
                                 _lines(refused.error) if refused.error else refused.problems))
        if answer is not None:
            return answer
    context = _context(info, described, taps, problems, form)
    status = 422 if problems and not partials.is_partial_request() else 200
    return partials.render_page_or_partial("tally.html", **context), status


def _save(info: page.Info, described: TrickTally, taps: Taps, keep: bool) -> writes.Outcome:
    """The tapped hand written, as the next hand or as the correction of one."""
    hand = described.to_hand(taps.winners, taps.pick)
    replayed, based_on, key = page.replay_of(info), access.posted_version(taps.version), access.posted_request_key()
    if taps.number is None:
        return writes.record_hand(get_db(), replayed, hand, based_on=based_on, request_key=key)
    return writes.correct_hand(get_db(), replayed, taps.number, hand, based_on=based_on, request_key=key,
                               keep_dealers=keep)


def _saved(info: page.Info, described: TrickTally, taps: Taps,
           done: writes.Saved | writes.AlreadySaved) -> ResponseReturnValue:
    """On the scoreboard: the new hand's notice, or what the correction changed."""
    match_id, number = info.id, taps.number
    how = f"{described.unit} by {described.unit}"  # "trick by trick", in the game's word
    if number is None:
        _keep(match_id, None)
        after = done.after if isinstance(done, writes.Saved) and done.after else page.replayed(page.load(match_id))
        flash(page.saved_notice(after, done.number or len(info.match.hands) + 1, f", {how}"), "saved")
        target = url_for("matches.show", match_id=match_id, _anchor="match-notice")
    else:
        if isinstance(done, writes.Saved) and done.before is not None and done.after is not None:
            flash(page.correction_saved(match_id, number, done.before, done.after, f" {how}"))
        else:
            flash(f"Hand {number} corrected.")
        target = url_for("matches.show", match_id=match_id, _anchor=f"hand-{number}")
    if partials.is_partial_request():
        response = make_response("", 204)
        response.headers["HX-Redirect"] = target
        return response
    return redirect(target, 303)


KEPT_TALLIES = 4  # matches whose unsaved taps this phone's session keeps (the cookie stays small)


def _kept(match_id: int) -> dict | None:
    """The taps of this match's next hand kept in this phone's session, if any."""
    kept = session.get("tallies", {}).get(str(match_id))
    return kept if isinstance(kept, dict) else None


def _keep(match_id: int, taps: dict | None) -> None:
    """Remember (or with None forget) the unsaved taps of this match's next hand in the
    session, so leaving the tally (the scoreboard, the rules) and coming back loses nothing."""
    tallies = {k: v for k, v in session.get("tallies", {}).items() if k != str(match_id)}
    if taps is not None:
        tallies[str(match_id)] = taps
    session["tallies"] = dict(list(tallies.items())[-KEPT_TALLIES:])


def state_url(match_id: int, taps: Taps, choice: TallyChoice | None) -> str:
    """``/matches/<id>/tally?w=0,1,2&version=7``: the tally so far, readable in the address bar
    (the pick under the choice's own name: ``&trump=hearts``)."""
    params = {"hand": str(taps.number)} if taps.number else {}
    if taps.winners or taps.number:
        params["w"] = ",".join(str(s) for s in taps.winners)
    if taps.pick and choice is not None:
        params[choice.name] = taps.pick
    if taps.version:
        params["version"] = taps.version
    base = url_for("tally.tally", match_id=match_id)
    return base + ("?" + urlencode(params, safe=",") if params else "")


def _columns(described: TrickTally, players: list[str], winners: list[int],
             scores: list[int] | None) -> list[dict]:
    """Each player's row under the taps: a cell per column of the game's, the column that
    settles showing the hand's score once it is known (and what the engine added, in the
    column's word, where that differs from the running count)."""
    counted = described.count(winners)
    rows = []
    for seat, name in enumerate(players):
        cells = []
        for column, values in zip(described.columns, counted):
            value, extra = values[seat], None
            if column.settles is not None and scores is not None:
                value, extra = scores[seat], scores[seat] - values[seat]
            cells.append({"label": column.label, "value": value, "settles": column.settles is not None,
                          "counted": values[seat], "extra": extra or None, "word": column.settles})
        rows.append({"name": name, "cells": cells})
    return rows


def _leader(info: page.Info, ctx: HandContext, dealer: int | None) -> dict:
    """Who leads the first trick, as the game seats the hand (its seat picture's leader),
    and whether that is the dealer's left."""
    if dealer is None:
        return {"leader": None, "leads_left": False}
    seating = info.played.shown.seating(ctx.dealing(dealer))
    seat = next((p.seat for p in seating.places if p.leads and p.seat is not None), None)
    return {"leader": None if seat is None else ctx.players[seat], "leads_left": seat == ctx.table.left_of(dealer)}


def _context(info: page.Info, described: TrickTally, taps: Taps, problems: list[str], form: FlaskForm) -> dict:
    replayed = page.replay_of(info)
    result = replayed.result()
    players, match, number, winners = result.players, info.match, taps.number, taps.winners
    tricks = described.tricks
    history = [{"number": n, "name": players[seat], "seat": seat, "marked": described.marked(n)}
               for n, seat in enumerate(winners, start=1)]
    done = len(winners) == tricks
    preview = None
    scores: list[int] | None = None
    dealers = None
    prefix = replayed.upto(len(match.hands) if number is None else number - 1)
    dealer = match.hands[number - 1].get("dealer", prefix.next_dealer) if number else prefix.next_dealer
    if done:
        hand = described.to_hand(winners, taps.pick)
        shown = len(match.hands) + 1 if number is None else number
        after = None
        try:
            after = replayed.with_hand(shown, hand)
            scores = list(after.hands[shown - 1].scores)
            preview = {"scores": scores, "totals": after.totals,
                       "explanation": after.hands[shown - 1].explanation}
        except MatchError as error:
            problems = problems + _lines(error)
        if number is not None:
            dealers = page.dealer_offer(info, number, hand, after)
            if dealers and not dealers["plain_ok"]:
                problems = []  # the offer says why, and how to save
    next_number = len(winners) + 1
    return {
        "info": info, "match_id": info.id, "form": form, "players": players, "winners": winners,
        "w": " ".join(str(s) for s in winners), "tricks": tricks, "tally": described,
        "columns": [c.label for c in described.columns],
        "rows": _columns(described, list(players), winners, scores),
        "history": history, "done": done, "preview": preview, "problems": problems, "version": taps.version,
        "next_number": next_number, "next_marked": not done and described.marked(next_number),
        "mark": described.mark, "notes": described.notes,
        "finished": result.finished and number is None, "dealer": None if dealer is None else players[dealer],
        **_leader(info, prefix.next_place(), dealer),
        "choice": described.choice, "pick": taps.pick, "number": number, "dealers": dealers,
        "hand_no": number or len(match.hands) + 1,
    }
