"""A hand trick by trick, for a game that offers it (``Game.trick_tally``; Third
Rail): the scorer taps the winner of every trick; when
all are in, the hand is saved in the ``winners`` form through ``store.add_hand``
(the same path as the hand form: validated by the engine and audited).

Works without JavaScript: the winners so far travel in a hidden field and every
tap is a form POST that redirects to ``GET /matches/<id>/tally?w=0,1,2``; with
htmx only the tally is swapped and ``HX-Push-Url`` puts the same address in the
address bar. Either way a reload (a locked screen, a discarded tab) resumes, and the
phone's session keeps the taps of the next hand, so leaving for the scoreboard and
tapping "Record trick by trick" again goes on from the last tap."""
from __future__ import annotations

from dataclasses import replace
from urllib.parse import urlencode

from flask import Blueprint, abort, flash, make_response, redirect, request, session, url_for
from flask_wtf import FlaskForm

from .. import store
from ..engine import MatchError, replay
from ..games import GAMES
from ..games.cards import SUIT_SIGNS
from . import access, hand_forms, page, partials
from .db import get_db

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


def _hand_number(info: dict, raw: str | None) -> int | None:
    """The recorded hand being corrected (``?hand=N``), or None for the next hand."""
    if not raw:
        return None
    number = hand_forms.whole(raw)
    if number is None or not 1 <= number <= len(info["match"].hands):
        abort(404)
    return number


@bp.route("/matches/<match_id:match_id>/tally", methods=["GET", "POST"])
@access.scorer_required
def tally(match_id: int):

    info = page.load(match_id)
    match = info["match"]
    result = page.replayed(info)
    players = result.players
    described = GAMES[info["game"]].shown.trick_tally(result.settings, len(players))
    if described is None:
        abort(404)
    tricks = described.tricks
    form = FlaskForm()
    source = request.form if request.method == "POST" else request.args
    number = _hand_number(info, source.get("hand"))
    recorded = described.from_hand(match.hands[number - 1]) if number else None
    if number and recorded is None:
        abort(404)  # a hand recorded as counts is corrected on its edit page
    if recorded is not None and "w" not in source:  # opening a correction: every trick as recorded
        winners, trump = recorded[0][:tricks], recorded[1]
    elif number is None and "w" not in source and (kept := _kept(match_id)):
        # reopened from the match page: go on from the last tap instead of trick 1
        winners, trump = _winners(kept.get("w", ""), len(players), tricks), kept.get("trump") or None
    else:
        winners = _winners(source.get("w", ""), len(players), tricks)
        trump = source.get("trump") or None
    version = source.get("version") or str(info["version"])
    problems: list[str] = []
    tapped = False  # a tap, undo or clear: the new state goes into the address
    if request.method == "POST" and form.validate():
        tapped = any(k in request.form for k in ("undo", "tap", "clear", "change"))
        if "undo" in request.form and winners:
            winners.pop()
        elif "change" in request.form:  # correcting: tap a trick to give it another winner
            trick, seat = (hand_forms.whole(x) for x in (request.form.get("change", "") + ":").split(":")[:2])
            if trick is not None and seat is not None and 1 <= trick <= len(winners) and 0 <= seat < len(players):
                winners[trick - 1] = seat
        elif (seat := hand_forms.whole(request.form.get("tap", ""))) is not None and len(winners) < tricks:
            if 0 <= seat < len(players):
                winners.append(seat)
        elif "clear" in request.form:
            winners = []
        elif "save" in request.form or "keep_dealers" in request.form:
            hand = described.to_hand(winners, trump)
            keep = request.form.get("keep_dealers") == "1"

            def on_saved(written: page.Written):
                if number is None:
                    _keep(match_id, None)
                    after = written.result[1] if written.result else page.replayed(page.load(match_id))
                    flash(page.saved_notice(after, written.hand or len(match.hands) + 1, ", trick by trick"), "saved")
                    target = url_for("matches.show", match_id=match_id, _anchor="match-notice")
                elif written.again:
                    flash(f"Hand {number} corrected.")
                    target = url_for("matches.show", match_id=match_id, _anchor=f"hand-{number}")
                else:
                    before, after = written.result
                    flash(page.correction_saved(match_id, number, before, after, access.posted_version(version),
                                                " trick by trick"))
                    target = url_for("matches.show", match_id=match_id, _anchor=f"hand-{number}")
                if partials.is_partial_request():
                    response = make_response("", 204)
                    response.headers["HX-Redirect"] = target
                    return response
                return redirect(target, 303)

            def on_stale(_: store.StaleVersion) -> None:
                nonlocal version
                problems.append(STALE)
                version = str(page.load(match_id)["version"])

            if number is None:
                def write():
                    return store.add_hand(get_db(), match_id, hand, expected_version=access.posted_version(version),
                                          request_key=access.posted_request_key())
            else:
                def write():
                    return store.edit_hand(get_db(), match_id, number, hand,
                                           expected_version=access.posted_version(version),
                                           request_key=access.posted_request_key(), keep_dealers=keep)
            answer = page.answer_write(write, saved=on_saved, stale=on_stale,
                                       refused=lambda error: problems.extend(_lines(error)))
            if answer is not None:
                return answer
    elif request.method == "POST":
        problems.append("This form has expired. Reload the page and try again.")
    if tapped and not problems:
        # the taps live in the address (?w=0,1,2), so a reload, a locked screen or a
        # discarded tab resumes the tally instead of starting again at trick 1
        target = state_url(match_id, winners, trump, version, number)
        if number is None:
            _keep(match_id, {"w": ",".join(str(s) for s in winners), "trump": trump} if winners or trump else None)
        if not partials.is_partial_request():
            return redirect(target, 303)
        context = _context(info, result, described, winners, trump, version, problems, form, number)
        response = make_response(partials.render_page_or_partial("tally.html", **context))
        response.headers["HX-Push-Url"] = target
        return response
    context = _context(info, result, described, winners, trump, version, problems, form, number)
    status = 422 if problems and not partials.is_partial_request() else 200
    return partials.render_page_or_partial("tally.html", **context), status


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


def state_url(match_id: int, winners: list[int], trump: str | None, version: str, number: int | None = None) -> str:
    """``/matches/<id>/tally?w=0,1,2&version=7``: the tally so far, readable in the address bar."""
    params = {"hand": str(number)} if number else {}
    if winners or number:
        params["w"] = ",".join(str(s) for s in winners)
    if trump:
        params["trump"] = trump
    if version:
        params["version"] = version
    base = url_for("tally.tally", match_id=match_id)
    return base + ("?" + urlencode(params, safe=",") if params else "")


def _context(info, result, described, winners, trump, version, problems, form, number=None) -> dict:
    players = result.players
    tricks = described.tricks
    match = info["match"]
    points, other = described.count(winners)
    history = [{"number": n, "name": players[seat], "seat": seat, "scoring": described.is_scoring(n)}
               for n, seat in enumerate(winners, start=1)]
    done = len(winners) == tricks
    preview = None
    dealers = None
    if number is None:
        prefix = result
    else:
        prefix = replay(replace(match, hands=match.hands[:number - 1]))
    dealer = match.hands[number - 1].get("dealer", prefix.next_dealer) if number else prefix.next_dealer
    if done:
        hand = described.to_hand(winners, trump)
        hands = match.hands + [hand] if number is None else \
            match.hands[:number - 1] + [hand] + match.hands[number:]
        shown = len(match.hands) + 1 if number is None else number
        try:
            after = replay(replace(match, hands=hands), resume=result if number is None else None)
            preview = {"scores": after.hands[shown - 1].scores, "totals": after.totals,
                       "explanation": after.hands[shown - 1].explanation}
        except MatchError as error:
            problems = problems + _lines(error)
        if number is not None:
            dealers = page.dealer_offer(info, number, hand, preview is not None)
            if dealers and not dealers["plain_ok"]:
                problems = []  # the offer says why, and how to save
    next_number = len(winners) + 1
    return {
        "info": info, "match_id": info["id"], "form": form, "players": players, "winners": winners,
        "w": " ".join(str(s) for s in winners), "tricks": tricks, "points": points, "other": other,
        "history": history, "done": done, "preview": preview, "problems": problems, "version": version,
        "next_number": next_number, "next_scoring": not done and described.is_scoring(next_number),
        "finished": result.finished and number is None, "dealer": None if dealer is None else players[dealer],
        "leader": None if dealer is None else players[(dealer + 1) % len(players)],
        "trump_on": described.trump_on, "trump": trump, "suits": described.suits,
        "signs": SUIT_SIGNS,
        "bonus": described.bonus, "number": number, "dealers": dealers,
        "hand_no": number or len(match.hands) + 1,
    }

