"""Record a hand (with a live preview), edit or undo one, the audit log, and
each hand's "why". Scores come only from ``engine.replay``."""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict

from ... import engine, store
from ...engine import MatchError
from ...games.base import TrickTally
from ..edges import access
from ..edges.db import get_db
from ..edges.errors import render_error
from ..forms import hand_forms
from ..model import entries, page, partials, view, writes
from ..model.chart import running_totals_svg

bp = Blueprint("hands", __name__, url_prefix="/matches/<match_id:match_id>")

STALE = ("This match changed since this form was opened (someone saved on another phone, or the form "
         "was sent twice). Your entry is still here: check the scoreboard, then save again.")


def _apply_check(entry: hand_forms.HandEntry, check: entries.Check) -> None:
    entry.problems = check.errors
    entry.general = check.general


@bp.post("/hands/preview")
@access.scorer_required
@access.preview
@page.with_match
def preview(info: page.Info) -> ResponseReturnValue:
    shown = entries.preview(info, len(info.match.hands) + 1, request.form)
    return render_template("partial/preview.html", check=shown.check, typed=shown.typed, match_id=info.id)


@bp.post("/hands/form")
@access.scorer_required
@access.preview
@page.with_match
def record_form(info: page.Info) -> ResponseReturnValue:
    """The next hand's form again for the dealer chosen in it (someone dealt out of turn),
    saving nothing: with JavaScript its part of the page (what was typed goes back in from
    the phone's draft), without it the whole page with what was typed ("Use this dealer")."""
    match_id = info.id
    number = len(info.match.hands) + 1
    if page.replayed(info).finished:
        return redirect(url_for("matches.show", match_id=match_id), 303)
    if partials.is_partial_request():
        # drawn for that dealer with nothing else typed: app.js puts back the rest
        chosen = MultiDict({"dealer": request.form.get("dealer", "")})
        entry = entries.form_for(info, number, formdata=chosen)
        entry.form.version.data = str(info.version)
        page.drawn(entry)
        # the table guide above the form follows the dealer too (out of band)
        return render_template("partial/match_record.html", entry=entry, info=info, match_id=match_id,
                               guide_dealer=hand_forms.whole(chosen["dealer"]), guide_oob=True)
    entry = entries.form_for(info, number, formdata=request.form)
    entry.form.validate()
    entry.problems = {}
    context = page.scoreboard_context(match_id, info=info, entry=entry,
                                      guide_dealer=hand_forms.whole(request.form.get("dealer", "")))
    return partials.render_page_or_partial("match.html", **context)


def _saved(info: page.Info, number: int | None, saved: writes.Saved | None, key: str | None) -> ResponseReturnValue:
    """The answer to a saved hand (also to the same form sent again). Given the save
    (``saved``) and the replay of the version it made, an htmx answer carries only
    what the save changed; the page after a redirect resumes from it too. ``key``: the
    saved form's, the draft app.js kept of it on the phone is done with."""
    answer = page.saved_answer(info, number, saved, partials.is_partial_request())
    if answer.context is None:
        session["saved_key"] = key
        flash(answer.notice, "saved")  # the match page offers Undo under it
        # the notice (points and totals), then the totals, the guide and the next hand's form
        return redirect(url_for("matches.show", match_id=info.id, _anchor="match-notice"), 303)
    if answer.changed_only:
        # Out-of-band swaps into the match page for one new hand: its row, the totals and
        # banner, the table guide, the next hand's form, the notice (nothing replaces the form's
        # target). The chart is redrawn when it is scrolled into view (it grows with the match).
        return (render_template("partial/saved.html", number=number, saved_key=key, **answer.context), 200,
                {"HX-Reswap": "none"})
    return partials.render_page_or_partial("match.html", saved_key=key, **answer.context)


def _stale_record(info: page.Info, based_on: int | None) -> ResponseReturnValue:
    """Another phone changed the match since this form was opened: say what
    changed, keep the user's entry in a form for the next hand, save nothing."""
    match_id = info.id
    message = access.stale_message(match_id, based_on, info.players)
    number = len(info.match.hands) + 1
    entry = None
    if not page.replayed(info).finished:
        entry = entries.form_for(info, number, formdata=request.form)
        entry.form.version.data = str(info.version)
        # Saving the same hand again would record it twice: offer to drop it instead.
        entry.problems, entry.general = {}, message[:-1] + [
            f"Your entry is still below as hand {number}, nothing was overwritten. If it was the same hand, "
            "discard yours; save it again only if this is a different hand."]
        entry.discard_url = url_for("matches.show", match_id=match_id, _anchor="record")
    context = page.scoreboard_context(match_id, info=info, entry=entry)
    if entry is None:
        context["notice"] = " ".join(message[:-1] + ["The game is over: your entry was not saved."])
    status = 200 if partials.is_partial_request() else 409
    return partials.render_page_or_partial("match.html", **context), status


@bp.post("/hands")
@access.scorer_required
@page.with_match
def record(info: page.Info) -> ResponseReturnValue:
    match_id = info.id
    number = len(info.match.hands) + 1
    filled = request.form.get("fill_blank")
    if filled:  # "0 for the rest" without JavaScript: the form again with them typed in, nothing saved
        return _filled_in(info, number, filled)
    saving = entries.save_new(info, request.form)
    match saving.outcome:
        case writes.Saved() | writes.AlreadySaved() as done:
            return _saved(info, done.number, _or_none(done), saving.request_key)
        case writes.Stale(expected=expected):  # the entry again, on the match as the other phone left it
            return _stale_record(page.load(match_id), expected)
        case writes.Refused() as refused:
            return _refused_record(info, saving.entry, saving.check, refused)
    abort(404)  # the match is gone


def _filled_in(info: page.Info, number: int, group: str) -> ResponseReturnValue:
    """The match page with the next hand's form as posted, every blank box of ``group`` given
    the number the game offers for it (``FieldGroup.fill_blank``)."""
    entry = entries.form_for(info, number, formdata=request.form)
    found = next((g for g in entry.groups if g.name == group and g.described.fill_blank is not None), None)
    posted = request.form.copy()
    posted.pop("fill_blank", None)
    if found is not None:
        for fname in found.fields:
            if not (posted.get(fname) or "").strip():
                posted[fname] = str(found.described.fill_blank)
    entry = entries.form_for(info, number, formdata=posted)
    check = entries.check(info, entry, number)
    _apply_check(entry, check)
    context = page.scoreboard_context(info.id, info=info, entry=entry)
    return partials.render_page_or_partial("match.html", **context)


def _or_none(done: writes.Saved | writes.AlreadySaved) -> writes.Saved | None:
    return done if isinstance(done, writes.Saved) else None


def _refused_record(info: page.Info, entry: hand_forms.HandEntry, check: entries.Check,
                    refused: writes.Refused) -> ResponseReturnValue:
    """The hand form again, with what is wrong beside each field."""
    if refused.error is not None and check.ready:  # the store's own final check refused it
        check.general = entries.other_problems(entry, refused.error)
    elif refused.error is None and refused.problems:
        check.general = list(refused.problems)
    _apply_check(entry, check)
    context = page.scoreboard_context(info.id, info=info, entry=entry)
    status = 200 if partials.is_partial_request() else 422
    return partials.render_page_or_partial("match.html", **context), status


def _hand_number(info: page.Info, number: int) -> None:
    if not 1 <= number <= len(info.match.hands):
        abort(404)


@bp.post("/hands/<int:number>/preview")
@access.scorer_required
@access.preview
@page.with_match
def edit_preview(info: page.Info, number: int) -> ResponseReturnValue:
    _hand_number(info, number)
    shown = entries.preview(info, number, request.form)
    return render_template("partial/preview.html", check=shown.check, match_id=info.id)


def _tally_of(info: page.Info, number: int) -> TrickTally | None:
    """Hand ``number``'s trick-by-trick tally (``Game.trick_tally``), if its game has one."""
    return info.played.shown.trick_tally(page.replayed(info).place(number))


def _as_counts(info: page.Info, number: int) -> bool:
    """A hand recorded trick by trick is corrected trick by trick (the tally, filled in),
    or turned into counts on purpose (?as=counts): never shown as a string of seats."""
    tally = _tally_of(info, number)
    original = info.match.hands[number - 1]
    return bool(tally and tally.from_hand(original) is not None and request.args.get("as") == "counts")


def _edit_page(info: page.Info, entry: hand_forms.HandEntry, number: int, status: int = 200) -> ResponseReturnValue:
    page.drawn(entry)
    tally = _tally_of(info, number)
    original = info.match.hands[number - 1]
    by_tally = tally.from_hand(original) if tally else None
    context = {"info": info, "entry": entry, "number": number, "match_id": info.id, "original": original,
               "by_tally": by_tally is not None, "as_counts": _as_counts(info, number),
               "posted": request.method == "POST",
               "tally_url": url_for("tally.tally", match_id=info.id, hand=number) if by_tally else None,
               "tricks_recorded": len(by_tally[0]) if by_tally else 0, "tally": tally}
    return partials.render_page_or_partial("edit_hand.html", **context), status


@bp.route("/hands/<int:number>/edit", methods=["GET", "POST"])
@access.scorer_required
@page.with_match
def edit(info: page.Info, number: int) -> ResponseReturnValue:
    _hand_number(info, number)
    as_counts = _as_counts(info, number)
    if request.method == "GET":
        original = info.match.hands[number - 1]
        tally = _tally_of(info, number)
        shown = tally.as_counts(original) if as_counts and tally else original
        return _edit_page(info, entries.form_for(info, number, hand=shown), number)
    saving = entries.save_correction(info, number, request.form, keep_dealers=request.form.get("keep_dealers") == "1")
    match saving.outcome:
        case writes.Saved() | writes.AlreadySaved() as done:
            return _corrected(info, number, done, saving.request_key, " as counts" if as_counts else "")
        case writes.Stale() as stale:
            return _stale_correction(info, saving.entry, number, stale)
        case writes.Refused() as refused:
            return _refused_correction(info, saving.entry, saving.check, refused)
    abort(404)  # the match (or the hand) is gone


def _stale_correction(info: page.Info, entry: hand_forms.HandEntry, number: int,
                      stale: writes.Stale) -> ResponseReturnValue:
    """Another phone changed the match since the correction was opened: the entry stays, nothing saved."""
    entry.form.version.data = str(stale.current)
    entry.problems, entry.dealers = {}, None
    entry.general = access.stale_message(info.id, stale.expected, info.players, "Your correction")
    return _edit_page(info, entry, number, 409)


def _refused_correction(info: page.Info, entry: hand_forms.HandEntry, check: entries.Check,
                        refused: writes.Refused) -> ResponseReturnValue:
    """The correction again, with what is wrong beside each field (and the later dealers it changes)."""
    if refused.error is not None and check.ready:  # the store's own final check refused it
        check.general = entries.other_problems(entry, refused.error)
    elif refused.error is None and refused.problems:  # nothing more fits in the match
        check.general = list(refused.problems)
    _apply_check(entry, check)
    return _edit_page(info, entry, check.number, 422)


def _corrected(info: page.Info, number: int, done: writes.Saved | writes.AlreadySaved, key: str | None,
               how: str = "") -> ResponseReturnValue:
    """After a correction: say what changed, on the scoreboard at the hand."""
    session["saved_key"] = key  # the correction's draft on the phone is done with
    if isinstance(done, writes.Saved) and done.before is not None and done.after is not None:
        flash(page.correction_saved(info.id, number, done.before, done.after, how))
    else:
        flash(f"Hand {number} corrected.")
    return redirect(url_for("matches.show", match_id=info.id, _anchor=f"hand-{number}"), 303)


@bp.route("/undo", methods=["GET", "POST"])
@access.scorer_required
@page.with_match
def undo(info: page.Info) -> ResponseReturnValue:
    match_id = info.id
    match = info.match
    if not match.hands:
        flash("There is no hand to undo.")
        return redirect(url_for("matches.show", match_id=match_id), 303)
    result = page.replayed(info)
    last = result.hands[-1]
    if request.method == "POST" and FlaskForm().validate():
        based_on = access.posted_version(request.form.get("version"))
        outcome = writes.undo_last(get_db(), page.replay_of(info), based_on=based_on,
                                   request_key=access.posted_request_key())
        if isinstance(outcome, writes.Saved):
            # the hand comes back in the form as a draft to correct (or clear): said by the page
            session["undone"] = {"match": match_id, "number": last.number, "hand": match.hands[-1]}
        flash(page.answer(
            # (the form below says the hand is back as a draft, where app.js puts it back: not said here,
            # which a phone without JavaScript also reads)
            outcome, saved=lambda done: f"Hand {done.number or last.number} undone. It is kept in the match log.",
            stale=lambda stale: " ".join(["Nothing was undone:", *(access.describe_changes(
                match_id, stale.expected, info.players) or ["the match changed on another phone."]),
                "Check the scoreboard, then undo again if you still want to."]),
            refused=lambda refused: "Could not undo: " + "; ".join(refused.problems)))
        return redirect(url_for("matches.show", match_id=match_id), 303)
    summary = engine.hand_summary(info.played, match.hands[-1], result.place(last.number), last.extra)
    return partials.render_page_or_partial("undo.html", info=info, last=last, summary=summary,
                                           dealer=result.players[last.dealer], players=result.players,
                                           match_id=match_id)


LOG_SHOWN = 100  # changes on one page of the match log (it keeps up to 5,000)


@bp.get("/log")
@page.with_match
def log(info: page.Info) -> ResponseReturnValue:
    match_id = info.id
    raw = request.args.get("page", "1")
    number = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 6 and int(raw) >= 1 else 1
    entries, total = store.audit_page(get_db(), match_id, number, LOG_SHOWN)
    pages = max(1, -(-total // LOG_SHOWN))
    if number > pages:  # an old link past the end: the last page
        number = pages
        entries, total = store.audit_page(get_db(), match_id, number, LOG_SHOWN)
    players = info.players
    result = page.replayed(info)
    for entry in entries:
        for key in ("before", "after"):
            hand = entry[key]
            # described where that hand stands in the match now (its number, its dealer...)
            entry[key + "_summary"] = (engine.hand_summary(info.played, hand, result.logged_place(entry["hand"]))
                                       if isinstance(hand, dict) and entry["action"] in ("save", "edit", "undo")
                                       and isinstance(entry["hand"], int) else None)
            entry[key + "_numbers"] = (view.hand_numbers(info.played, hand, result.logged_place(entry["hand"]),
                                                         entry[key + "_summary"])
                                       if entry[key + "_summary"] is not None else None)
    known = {s.name: s for s in info.played.settings}
    return partials.render_page_or_partial("log.html", info=info, entries=entries, players=players, match_id=match_id,
                                           game_settings=known, page=number, pages=pages, total=total)


def earlier_page(number: int) -> int:
    """The page of earlier hands that holds hand ``number``."""
    return (number - 1) // view.HANDS_SHOWN + 1


@bp.get("/hands")
@page.with_match
def earlier(info: page.Info) -> ResponseReturnValue:
    """The hands of a long match ``HANDS_SHOWN`` at a time (``page=1``: the first), for
    the hands the scoreboard no longer lists."""
    result = page.replayed(info)
    pages = max(1, earlier_page(len(result.hands)))
    raw = request.args.get("page", "1")
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 6 and 1 <= int(raw) <= pages):
        return render_error(400, f"page must be a number from 1 to {pages}, got \"{raw[:20]}\".")
    number = int(raw)
    first = (number - 1) * view.HANDS_SHOWN + 1
    rows = view.hand_rows(info, result, first, min(len(result.hands), first + view.HANDS_SHOWN - 1))
    board = {"players": result.players, "players_shown": [view.shown_name(name) for name in result.players], "rows": rows}
    return partials.render_page_or_partial("earlier_hands.html", info=info, board=board, match_id=info.id,
                                           page=number, pages=pages, scorer=access.can_score(info))


@bp.get("/hands/<int:number>/why")
@page.with_match
def why(info: page.Info, number: int) -> ResponseReturnValue:
    match_id = info.id
    _hand_number(info, number)
    result = page.replayed(info)
    hand = result.hands[number - 1]
    return partials.render_page_or_partial("why.html", info=info, hand=hand, players=result.players,
                                       summary=engine.hand_summary(info.played, info.match.hands[number - 1],
                                                                 result.place(number), hand.extra),
                                       match_id=match_id)


@bp.get("/chart")
@page.with_match
def chart(info: page.Info) -> ResponseReturnValue:
    """The running-totals chart alone: a saved hand's answer leaves it to load here."""
    try:
        result = page.replayed(info)
    except MatchError:  # cannot happen through the store; still never a 500
        return ""
    if not result.hands:
        return ""
    board = {"players": result.players, "chart": running_totals_svg(result.players, [r.totals for r in result.hands])}
    return render_template("partial/match_chart.html", board=board)
