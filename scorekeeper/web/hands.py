"""Record a hand (with a live preview), edit or undo one, the audit log, and
each hand's "why". Scores come only from ``engine.replay``."""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for

from .. import store
from ..engine import Match, MatchError, replay
from ..games import GAMES
from . import access, hand_forms, page, partials, seats, view
from .chart import running_totals_svg
from .db import get_db

bp = Blueprint("hands", __name__, url_prefix="/matches/<match_id:match_id>")

STALE = ("This match changed since this form was opened (someone saved on another phone, or the form "
         "was sent twice). Your entry is still here: check the scoreboard, then save again.")


def _with_hand(match: Match, hands: list[dict]) -> Match:
    return Match(game=match.game, players=match.players, settings=match.settings,
                 first_dealer=match.first_dealer, hands=hands, date=match.date, note=match.note)


def typed_seating(info: dict, hand: dict) -> dict | None:
    """The seat picture of the hand being typed, with what its fields say so far."""
    seating = page.hand_seating(info, hand)
    return None if seating is None else seats.seating_shown(seating)


def check_candidate(info: dict, form, number: int, final: bool = False) -> dict:
    """Run the engine on the match with the form's hand as hand ``number``
    (a new last hand, or a replacement). Returns what the preview shows."""
    form.validate()
    hand, missing = hand_forms.form_to_hand(form)
    errors = hand_forms.field_errors(form)
    still = hand_forms.missing_summary(form, missing)
    counter = getattr(form, "card_counter", None)
    counted = [{"name": form.players[seat], "points": points, "field": f"{counter.into}_{seat}"}
               for seat, points in sorted(getattr(form, "counted", {}).items())] if counter else []
    out = {"hand": hand, "missing": missing, "still": still, "errors": errors, "general": [], "preview": None,
           "groups": form.groups, "number": number, "counted": counted,
           "counted_into": form.word(counter.into) if counter else ""}
    if final and missing:  # on save, every blank at once
        out["general"].append(f"Still to fill in: {still}.")
    if number > len(info["match"].hands):  # the referee follows the hand as it is typed (its trump...)
        out["referee_url"] = page.referee_url(info, hand)
        out["seating"] = typed_seating(info, hand)  # and the seat picture (who holds the contract...)
    if errors:
        return out
    match = info["match"]
    hands = list(match.hands)
    if number > len(hands):
        hands.append(hand)
    else:
        hands[number - 1] = hand
    # A new last hand only extends the stored match: score just that hand; a
    # replacement goes on from the hands before it (replayed for the form's dealer).
    resume = page.replayed(info) if number > len(match.hands) else getattr(form, "prefix", None)
    try:
        result = replay(_with_hand(match, hands), resume=resume)
    except MatchError as error:
        if missing and not final:
            return out  # still typing: only say what is still to fill in
        known = {g.name for g in form.groups}
        # refused only for hands after this one (a correction changing their dealer)
        out["later_only"] = not error.header and bool(error.hand_problems) and number not in error.hand_problems
        for problem in error.hand_problems.get(number, []):
            if missing and problem.is_blank:
                continue  # said once, with every other blank, in "Still to fill in"
            if problem.field is not None and problem.field in known:
                errors.setdefault(problem.field, []).append(hand_forms.plain(form, problem, in_place=True))
            else:
                out["general"].append(hand_forms.plain(form, problem))
        out["general"] += other_problems(form, error, number)
        return out
    scored = result.hands[number - 1]
    out["preview"] = {
        "scores": list(zip(result.players, scored.scores)),
        "totals": list(zip(result.players, result.totals)),
        "dealer": result.players[scored.dealer],
        # the game's own one-line summary: who declares, holds, took the Wheel... before Save
        "summary": view.hand_summary(match.game, hand, result.context(number), scored.extra),
        "explanation": scored.explanation,
        "warnings": scored.warnings,
        "finished": result.finished,
        "winners": [result.players[s] for s in result.winners],
        "edit": number <= len(match.hands),
    }
    return out


def other_problems(form, error: MatchError, number: int | None = None) -> list[str]:
    """The engine's problems that are not about hand ``number``, in the form's words."""
    lines = [hand_forms.plain(form, p) for p in error.header]
    for other, problems in sorted(error.hand_problems.items()):
        if other != number:
            lines += [f"hand {other}: {hand_forms.plain(form, p)}" for p in problems]
    return lines or ([] if error.hand_problems else list(error.problems))


def _hand_form(info: dict, number: int, formdata=None, hand=None):
    """The form for hand ``number`` (dealer as the engine says it comes round)."""
    match = info["match"]
    result = page.replayed(info) if number > len(match.hands) else replay(_with_hand(match, match.hands[:number - 1]))
    dealer = result.next_dealer
    if number <= len(match.hands) and "dealer" in match.hands[number - 1]:
        dealer = match.hands[number - 1]["dealer"]
    form = hand_forms.make_form(match.game, result.next_context().dealing(dealer if isinstance(dealer, int) else None),
                                formdata=formdata, hand=hand, version=info["version"])
    form.dealer_name = result.players[dealer] if isinstance(dealer, int) and 0 <= dealer < len(result.players) else None
    form.number = number
    form.prefix = result  # the hands before this one, for the check to go on from
    return form


def _apply_check(form, check: dict) -> None:
    form.problems = check["errors"]
    form.general = check["general"]


@bp.post("/hands/preview")
@access.scorer_required
@access.preview
def preview(match_id: int):
    info = page.load(match_id)
    number = len(info["match"].hands) + 1
    form = _hand_form(info, number, formdata=request.form)
    return render_template("partial/preview.html", check=check_candidate(info, form, number), match_id=match_id)


def _saved(match_id: int, number: int | None, after=None, saved: dict | None = None):
    """The answer to a saved hand (also to the same form sent again). Given the
    save's result ``after`` and ``saved``, the info of the match as that save
    left it, an htmx answer carries only what the save changed; the page after
    a redirect resumes from ``after`` too."""
    if after is not None and saved is not None:
        page.remember(match_id, saved["version"], after)
    notice = page.saved_notice(after if after is not None else page.replayed(page.load(match_id)), number)
    # the saved form's key: the draft app.js kept of it on the phone is done with
    key = access.posted_request_key()
    if partials.is_partial_request():
        if saved is not None and number is not None and number > 1:
            return _changed_only(match_id, saved, number, notice, key)
        context = page.scoreboard_context(match_id, notice=notice)
        context["undo_offer"] = True
        return partials.render_page_or_partial("match.html", saved_key=key, **context)
    session["saved_key"] = key
    flash(notice, "saved")  # the match page offers Undo under it
    # the notice (points and totals), then the totals, the guide and the next hand's form
    return redirect(url_for("matches.show", match_id=match_id, _anchor="match-notice"), 303)


def _changed_only(match_id: int, info: dict, number: int, notice: str, key: str | None = None):
    """Out-of-band swaps into the match page for one new hand: its row, the
    totals and banner, the table guide, the next hand's form, the notice. The
    chart is redrawn when it is scrolled into view (it grows with the match)."""
    context = page.scoreboard_context(match_id, info=info, notice=notice, rows_from=number)
    context["undo_offer"] = True
    # nothing replaces the form's target: only the swaps by id
    return render_template("partial/saved.html", number=number, saved_key=key, **context), 200, {"HX-Reswap": "none"}


def _stale_record(match_id: int, based_on: int | None):
    """Another phone changed the match since this form was opened: say what
    changed, keep the user's entry in a form for the next hand, save nothing."""
    info = page.load(match_id)
    message = access.stale_message(match_id, based_on, info["players"])
    number = len(info["match"].hands) + 1
    form = None
    if not page.replayed(info).finished:
        form = _hand_form(info, number, formdata=request.form)
        form.version.data = str(info["version"])
        # Saving the same hand again would record it twice: offer to drop it instead.
        form.problems, form.general = {}, message[:-1] + [
            f"Your entry is still below as hand {number}, nothing was overwritten. If it was the same hand, "
            "discard yours; save it again only if this is a different hand."]
        form.discard_url = url_for("matches.show", match_id=match_id, _anchor="record")
    context = page.scoreboard_context(match_id, info=info, hand_form=form)
    if form is None:
        context["notice"] = " ".join(message[:-1] + ["The game is over: your entry was not saved."])
    status = 200 if partials.is_partial_request() else 409
    return partials.render_page_or_partial("match.html", **context), status


@bp.post("/hands")
@access.scorer_required
def record(match_id: int):
    info = page.load(match_id)
    key = access.posted_request_key()
    done = store.saved_request(get_db(), match_id, key) if key else None
    if done:  # a double tap or a re-sent form: already saved, save nothing more
        return _saved(match_id, done["hand"])
    number = len(info["match"].hands) + 1
    form = _hand_form(info, number, formdata=request.form)
    based_on = access.posted_version(form.version.data)
    if based_on is not None and based_on != info["version"]:
        return _stale_record(match_id, based_on)
    check = check_candidate(info, form, number, final=True)
    if check["preview"] is not None:
        def on_saved(written: page.Written):
            if written.again:
                return _saved(match_id, written.hand)
            saved = None if based_on is None else dict(
                info, version=based_on + 1, match=_with_hand(info["match"], info["match"].hands + [check["hand"]]))
            return _saved(match_id, number, written.result[1], saved)

        def on_refused(error: MatchError) -> None:  # the engine refused on the final check
            check["general"] = other_problems(form, error)

        answer = page.answer_write(
            lambda: store.add_hand(get_db(), match_id, check["hand"], expected_version=based_on, request_key=key,
                                   known=page.replayed(info)),
            saved=on_saved, stale=lambda _: _stale_record(match_id, based_on), refused=on_refused)
        if answer is not None:
            return answer
    if form is not None:
        _apply_check(form, check)
    context = page.scoreboard_context(match_id, info=info, hand_form=form)
    if form is None:
        context["notice"] = STALE
    status = 200 if partials.is_partial_request() else 422
    return partials.render_page_or_partial("match.html", **context), status


def _hand_number(info: dict, number: int) -> None:
    if not 1 <= number <= len(info["match"].hands):
        abort(404)


@bp.post("/hands/<int:number>/preview")
@access.scorer_required
@access.preview
def edit_preview(match_id: int, number: int):
    info = page.load(match_id)
    _hand_number(info, number)
    form = _hand_form(info, number, formdata=request.form)
    check = check_candidate(info, form, number)
    check["dealers"] = dealer_changes(info, number, check)
    return render_template("partial/preview.html", check=check, match_id=match_id)


def dealer_changes(info: dict, number: int, check: dict) -> dict | None:
    """What a correction of hand ``number`` does to the later hands' dealers (a game
    whose deal follows the scores): the hands that would come round to someone else,
    whether the correction can be saved as it is, and whether it can be saved with
    those hands kept as recorded (marked as dealt out of turn). None when no later
    dealer changes or the hand itself still has problems."""
    match = info["match"]
    if number >= len(match.hands) or check["errors"] or check["missing"]:
        return None
    if check["preview"] is None and not check.get("later_only"):
        return None  # the hand's own problems come first
    return page.dealer_offer(info, number, check["hand"], check["preview"] is not None)


def _tally_of(info: dict):
    """The match's trick-by-trick tally (``Game.trick_tally``), if its game has one."""
    return GAMES[info["game"]].shown.trick_tally(info["settings"], len(info["players"]))


def _edit_page(info: dict, form, number: int, original: dict, status: int = 200, as_counts: bool = False):
    tally = _tally_of(info)
    by_tally = tally.from_hand(original) if tally else None
    context = {"info": info, "form": form, "number": number, "match_id": info["id"], "original": original,
               "by_tally": by_tally is not None, "as_counts": as_counts, "posted": request.method == "POST",
               "tally_url": url_for("tally.tally", match_id=info["id"], hand=number) if by_tally else None,
               "tricks_recorded": len(by_tally[0]) if by_tally else 0}
    return partials.render_page_or_partial("edit_hand.html", **context), status


@bp.route("/hands/<int:number>/edit", methods=["GET", "POST"])
@access.scorer_required
def edit(match_id: int, number: int):
    info = page.load(match_id)
    _hand_number(info, number)
    original = info["match"].hands[number - 1]
    tally = _tally_of(info)
    # A hand recorded trick by trick is corrected trick by trick (the tally, filled in),
    # or turned into counts on purpose (?as=counts): never shown as a string of seats.
    as_counts = bool(tally and tally.from_hand(original) is not None and request.args.get("as") == "counts")
    shown = tally.as_counts(original) if as_counts and tally else original
    if request.method == "GET":
        form = _hand_form(info, number, hand=shown)
        form.problems, form.general = {}, []
        return _edit_page(info, form, number, original, as_counts=as_counts)
    key = access.posted_request_key()
    done = store.saved_request(get_db(), match_id, key) if key else None
    if done:  # the same correction sent twice: it is saved once
        flash(f"Hand {number} corrected.")
        return redirect(url_for("matches.show", match_id=match_id, _anchor=f"hand-{number}"), 303)
    form = _hand_form(info, number, formdata=request.form)
    based_on = access.posted_version(form.version.data)
    if based_on is not None and based_on != info["version"]:
        form.version.data = str(info["version"])
        form.problems = {}
        form.general = access.stale_message(match_id, based_on, info["players"], "Your correction")
        return _edit_page(info, form, number, original, 409, as_counts)
    keep = request.form.get("keep_dealers") == "1"
    check = check_candidate(info, form, number, final=True)
    dealers = dealer_changes(info, number, check)
    if keep and dealers and dealers["keep_ok"] and check["preview"] is None:
        check["preview"], check["general"] = {"keep": True}, []  # refused only for the later dealers: kept
    if check["preview"] is not None:
        def on_saved(written: page.Written):
            session["saved_key"] = key  # the correction's draft on the phone is done with
            if written.again:
                flash(f"Hand {number} corrected.")
            else:
                before, after = written.result
                flash(page.correction_saved(match_id, number, before, after, based_on,
                                            " as counts" if as_counts else ""))
            return redirect(url_for("matches.show", match_id=match_id, _anchor=f"hand-{number}"), 303)

        def on_stale(_: store.StaleVersion) -> None:
            check["general"] = access.stale_message(match_id, based_on, info["players"], "Your correction")
            form.version.data = str(page.load(match_id)["version"])

        def on_refused(error: MatchError) -> None:
            check["general"] = other_problems(form, error)

        answer = page.answer_write(
            lambda: store.edit_hand(get_db(), match_id, number, check["hand"], expected_version=based_on,
                                    request_key=key, known=page.replayed(info), keep_dealers=keep),
            saved=on_saved, stale=on_stale, refused=on_refused)
        if answer is not None:
            return answer
    _apply_check(form, check)
    form.dealers = dealers
    return _edit_page(info, form, number, original, 422, as_counts)


@bp.route("/undo", methods=["GET", "POST"])
@access.scorer_required
def undo(match_id: int):
    info = page.load(match_id)
    match = info["match"]
    if not match.hands:
        flash("There is no hand to undo.")
        return redirect(url_for("matches.show", match_id=match_id), 303)
    result = page.replayed(info)
    last = result.hands[-1]
    summary = view.hand_summary(match.game, match.hands[-1], result.context(last.number), last.extra)
    if request.method == "POST":
        from flask_wtf import FlaskForm
        form = FlaskForm()
        if form.validate():
            key = access.posted_request_key()
            based_on = access.posted_version(request.form.get("version"))
            def on_saved(written: page.Written) -> None:
                if not written.again and based_on is not None:
                    page.remember(match_id, based_on + 1, written.result[1])
                flash(f"Hand {written.hand or last.number} undone. It is kept in the match log.")

            def on_stale(_: store.StaleVersion) -> None:
                changed = access.describe_changes(match_id, based_on, info["players"])
                flash(" ".join(["Nothing was undone:", *(changed or ["the match changed on another phone."]),
                                "Check the scoreboard, then undo again if you still want to."]))

            page.answer_write(
                lambda: store.undo_last(get_db(), match_id, expected_version=based_on, request_key=key, known=result),
                saved=on_saved, stale=on_stale, refused=lambda error: flash("Could not undo: " + "; ".join(error.problems)))
            return redirect(url_for("matches.show", match_id=match_id), 303)
    return partials.render_page_or_partial("undo.html", info=info, last=last, summary=summary,
                                       dealer=result.players[last.dealer], players=result.players,
                                       match_id=match_id)


@bp.get("/log")
def log(match_id: int):
    info = page.load(match_id)
    entries = store.audit_log(get_db(), match_id)
    players = info["players"]
    # a logged hand's place in the match may have changed since: only the table is known
    unplaced = page.hand_context(info).table
    for entry in entries:
        for key in ("before", "after"):
            hand = entry[key]
            entry[key + "_summary"] = (view.hand_summary(info["game"], hand,
                                                         GAMES[info["game"]].first_context(unplaced, None))
                                       if isinstance(hand, dict) and entry["action"] in ("save", "edit", "undo") else None)
    entries.reverse()
    known = {s.name: s for s in GAMES[info["game"]].settings}
    return partials.render_page_or_partial("log.html", info=info, entries=entries, players=players, match_id=match_id,
                                           game_settings=known)


@bp.get("/hands/<int:number>/why")
def why(match_id: int, number: int):
    info = page.load(match_id)
    _hand_number(info, number)
    result = page.replayed(info)
    hand = result.hands[number - 1]
    return partials.render_page_or_partial("why.html", info=info, hand=hand, players=result.players,
                                       summary=view.hand_summary(info["game"], info["match"].hands[number - 1],
                                                                 result.context(number), hand.extra),
                                       match_id=match_id)


@bp.get("/chart")
def chart(match_id: int):
    """The running-totals chart alone: a saved hand's answer leaves it to load here."""
    info = page.load(match_id)
    try:
        result = page.replayed(info)
    except MatchError:  # cannot happen through the store; still never a 500
        return ""
    if not result.hands:
        return ""
    board = {"players": result.players, "chart": running_totals_svg(result.players, [r.totals for r in result.hands])}
    return render_template("partial/match_chart.html", board=board)
