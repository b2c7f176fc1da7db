"""History list, starting a match, the scoreboard, and a match's date and note."""
from __future__ import annotations

import random
from typing import Any

from flask import Blueprint, flash, get_flashed_messages, redirect, render_template, request, session, url_for
from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict
from wtforms import BooleanField, Form, HiddenField, IntegerField, RadioField, SelectField, StringField, TextAreaField
from wtforms.validators import Optional
from wtforms.widgets import DateInput

from .. import store
from ..engine import Match, MatchError
from ..games import GAMES, words
from ..matchfile import NOTE_LIMIT
from . import access, hand_forms, page, partials, security, view
from .db import get_db

bp = Blueprint("matches", __name__)

MAX_SEATS = max(g.max_players for g in GAMES.values()) if GAMES else 6
CONTRACT_NOTE = ("House defaults — the published table was lost, "
                 "change them if your table plays other values.")


# --- forms ----------------------------------------------------------------------

class EditDetailsForm(FlaskForm):
    version = HiddenField()
    date = StringField("Date", widget=DateInput())
    note = TextAreaField("Note", render_kw={"maxlength": NOTE_LIMIT, "rows": 2,
                                             "placeholder": "Where, what was at stake…"})


def _choice_label(value) -> str:
    return str(value).replace("_", " ")


def setting_fields(game_key: str) -> tuple[dict, list[dict]]:
    """WTForms fields for a game's settings, and how to show them."""
    game = GAMES[game_key]
    attrs, shown = {}, []
    for s in game.settings:
        fname = f"setting_{s.name}"
        item: dict[str, Any] = {"name": s.name, "label": s.label or _choice_label(s.name), "help": s.help, "kind": s.kind,
                "fields": [fname], "note": CONTRACT_NOTE if s.kind == "table" else ""}
        if s.kind in ("int", "int_or_null"):
            render: dict[str, Any] = {"inputmode": "numeric"}
            if s.minimum is not None:
                render["min"] = s.minimum
            if s.maximum is not None:
                render["max"] = s.maximum
            if s.kind == "int_or_null":
                render["placeholder"] = "off"
            attrs[fname] = hand_forms.WholeNumberField(item["label"], default=s.default, validators=[Optional()],
                                                       render_kw=render)
        elif s.kind == "choice":
            attrs[fname] = SelectField(item["label"], default=s.default,
                                       choices=[(c, _choice_label(c)) for c in s.choices])
        elif s.kind == "bool":
            attrs[fname] = BooleanField(item["label"], default=bool(s.default))
        elif s.kind == "table":
            item["fields"] = []
            for key in s.choices:
                kname = f"setting_{s.name}_{key}"
                default = (s.default or {}).get(key) if isinstance(s.default, dict) else None
                attrs[kname] = hand_forms.WholeNumberField(str(key), default=default, validators=[Optional()],
                                                           render_kw={"inputmode": "numeric", "min": s.minimum or 0})
                item["fields"].append(kname)
        else:
            continue
        shown.append(item)
    return attrs, shown


def start_match_form(game_key: str, formdata=None):
    """A StartMatchForm for one game (its seats and settings)."""
    game = GAMES[game_key]
    attrs: dict = {
        "game": RadioField("Game", choices=[(k, g.title or k) for k, g in GAMES.items()], default=game_key),
        "shown_game": HiddenField(default=game_key),
        "first_dealer": SelectField("First dealer", default="random", choices=[("random", "Draw at random")] + [
            (str(i), f"Player {i + 1}") for i in range(game.max_players)]),
        "date": StringField("Date", widget=DateInput(), default=store.today),
        "note": TextAreaField("Note (optional)", render_kw={"maxlength": NOTE_LIMIT, "rows": 2,
                                                            "placeholder": "Where, what is at stake…"}),
    }
    for i in range(game.max_players):
        render = {"maxlength": 40, "autocomplete": "off", "autocapitalize": "words", "list": "known-players"}
        attrs[f"player_{i}"] = StringField(f"Player {i + 1}", render_kw=render)
    settings_attrs, shown = setting_fields(game_key)
    attrs.update(settings_attrs)
    form_class = type("StartMatchForm", (FlaskForm,), attrs)
    form = form_class(formdata=formdata)  # None: defaults only, never the posted data
    form.game_key = game_key
    form.game_obj = game
    form.settings_shown = shown
    form.player_fields = [f"player_{i}" for i in range(game.max_players)]
    form.general_errors = []
    form.setting_errors = {}
    return form


def read_start_form(form) -> tuple[Match, dict, list[int]]:
    """A Match from the start form, or None and the problems by place."""
    game = form.game_obj
    names, seats = [], []
    for i, fname in enumerate(form.player_fields):
        value = (form[fname].data or "").strip()
        if value or game.min_players == game.max_players:
            names.append(value)
            seats.append(i)
    settings: dict[str, Any] = {}
    for item in form.settings_shown:
        if item["kind"] == "table":
            settings[item["name"]] = {f[len(f"setting_{item['name']}_"):]:
                                      form[f].data for f in item["fields"]}
        elif item["kind"] == "bool":
            settings[item["name"]] = bool(form[item["fields"][0]].data)
        else:
            settings[item["name"]] = form[item["fields"][0]].data
    problems: dict = {"players": [], "first_dealer": [], "general": [], "date": [], "note": []}
    raw_dealer = form.first_dealer.data
    if raw_dealer == "random" or raw_dealer in (None, ""):
        first_dealer = random.randrange(len(names)) if names else 0
    elif hand_forms.whole(raw_dealer) in seats:
        first_dealer = seats.index(int(raw_dealer))
    else:
        first_dealer = 0
        problems["first_dealer"].append("first dealer: that seat has no player; pick someone at the table")
    date = (form.date.data or "").strip() or store.today()
    note = (form.note.data or "").strip() or None
    match = Match(game=game.key, players=names, settings=settings, first_dealer=first_dealer, date=date, note=note)
    for fname in form.player_fields + [f for item in form.settings_shown for f in item["fields"]]:
        for message in form[fname].errors:
            problems["general"].append(message)
    return match, problems, seats


def place_problems(form, error: MatchError, problems: dict, seats: list[int]) -> None:
    """Put the engine's problems next to the fields they are about."""
    shown = {item["name"] for item in form.settings_shown}
    for problem in error.header:
        setting = problem.field.split(".")[1] if problem.field and problem.field.startswith("settings.") else None
        if problem.field == "players" and problem.seat is not None and problem.seat < len(seats):
            problems.setdefault(f"player_{seats[problem.seat]}", []).append(words.reason(problem))
        elif setting in shown:
            form.setting_errors.setdefault(setting, []).append(problem.message)
        elif problem.field == "players":
            problems["players"].append(words.reason(problem))
        elif problem.field in ("first_dealer", "date", "note"):
            problems[problem.field].append(problem.message)
        else:
            problems["general"].append(problem.message)
    if not error.header:  # refused for the whole match (too many hands), not a field
        problems["general"] += error.problems


class PlayAgainForm(FlaskForm):
    """Play again: the same game, players, seats and settings; the first dealer one
    seat left of the last match's first dealer unless the table picks another."""
    first_dealer = SelectField("First dealer", coerce=str)


def play_again_form(info: dict) -> PlayAgainForm:
    """The Play again form for a match (its players; the dealer one seat left)."""
    players = info["players"]
    form = PlayAgainForm(formdata=None, prefix="again")
    form.first_dealer.choices = [(str(seat), name) for seat, name in enumerate(players)]
    form.first_dealer.data = str((info["first_dealer"] + 1) % len(players))
    return form


def linked_matches(match_id: int) -> dict:
    """The match this one plays again and the ones started from it, that this device may open."""
    links = store.linked_matches(get_db(), match_id)
    previous = links["previous"] if links["previous"] and access.can_read(links["previous"]) else None
    return {"previous": previous, "next": [m for m in links["next"] if access.can_read(m)]}


bp.add_app_template_global(play_again_form)
bp.add_app_template_global(linked_matches)


# --- views ------------------------------------------------------------------------

PER_PAGE = 20  # matches on one page of the history


class SearchMatchesForm(Form):
    """The history's search box (a GET form: no CSRF token, nothing changes)."""
    q = StringField("Player", render_kw={"maxlength": 40, "autocomplete": "off", "placeholder": "A player's name",
                                         "type": "search"})
    page = IntegerField(default=1)


def _status(m: dict) -> str:
    """A history line's status, from the match's summary (no replay)."""
    names = m["players"]
    if m["finished"]:
        return "Won by " + ", ".join(names[s] for s in m["winners"] or [])
    if m["hands"] and m["totals"]:
        top = view.standings(names, m["totals"])
        leaders = [r["name"] for r in top if r["place"] == 1]
        return ("Tied: " if len(leaders) > 1 else "Leader: ") + ", ".join(leaders) + f" ({max(m['totals'])})"
    return "No hands yet"


@bp.get("/")
def index():
    """This device's history: the matches it started, imported or opened through a link."""
    form = SearchMatchesForm(request.args)
    search = (form.q.data or "")[:40] if isinstance(form.q.data, str) else ""
    number = form.page.data if form.validate() and form.page.data and 0 < form.page.data < 10**6 else 1
    matches, total = store.device_history(get_db(), access.device(), search, number, PER_PAGE)
    pages = max(1, -(-total // PER_PAGE))
    if number > pages:  # an old link past the end: the last page
        number = pages
        matches, total = store.device_history(get_db(), access.device(), search, number, PER_PAGE)
    for m in matches:
        m["status"] = _status(m)
    return partials.render_page_or_partial("index.html", matches=matches, form=form, search=search, total=total,
                                           page=number, pages=pages)


def _game_from_request(default: str | None = None) -> str:
    key = request.values.get("game") or default or next(iter(GAMES))
    return key if key in GAMES else next(iter(GAMES))


@bp.get("/matches/new")
def new_match():
    """The start form; ``player_0``... in the query fill the seats (a chip of a known table)."""
    form = start_match_form(_game_from_request())
    for fname in form.player_fields:
        name = request.args.get(fname)
        if isinstance(name, str) and name.strip():
            form[fname].data = name.strip()[:40]
    return partials.render_page_or_partial("new_match.html", form=form, problems={}, games=GAMES)


def known_players() -> dict:
    """The names and last tables this device has kept score for (the start form offers them)."""
    return store.known_players(get_db(), access.device())


bp.add_app_template_global(known_players)


def _without_settings(formdata) -> MultiDict:
    """The posted form less the settings (so a new game's defaults show) and shown_game."""
    return MultiDict([(k, v) for k, v in formdata.items(multi=True)
                      if not k.startswith("setting_") and k != "shown_game"])


def _reset_settings(form) -> None:
    for item in form.settings_shown:
        for f in item["fields"]:
            form[f].data = form[f].default
            form[f].raw_data = None


@bp.post("/matches/new/fields")
def new_match_fields():
    """htmx: the seats and settings of the game just chosen (names kept)."""
    key = _game_from_request()
    # names kept; the settings shown are the new game's defaults, not the old game's values
    form = start_match_form(key, formdata=_without_settings(request.form))
    _reset_settings(form)
    form.shown_game.data = key
    form.game.data = key
    return render_template("partial/match_fields.html", form=form, problems={})


@bp.post("/matches/new")
def create_match():
    key = _game_from_request()
    form = start_match_form(key, formdata=request.form)
    problems: dict = {}
    if request.form.get("shown_game") != key:
        # JavaScript off and the game changed: show this game's seats and settings first
        form = start_match_form(key, formdata=_without_settings(request.form))
        _reset_settings(form)
        form.shown_game.data = key
        form.general_errors = [f"Now check the players and settings for {form.game_obj.title}, then start."]
        return partials.render_page_or_partial("new_match.html", form=form, problems={}, games=GAMES), 200
    if form.validate():
        match, problems, seats = read_start_form(form)
        if not any(problems.values()):
            refused = security.refuse_new_match()
            if refused:
                return refused
            try:
                # whoever starts a match scores it on this device
                match_id = store.create_match(get_db(), match, device=access.device(create=True))
            except MatchError as error:
                place_problems(form, error, problems, seats)
            else:
                security.note_new_match()
                return redirect(url_for("matches.show", match_id=match_id), 303)
    else:
        _, problems, _ = read_start_form(form)
        if not problems.get("general"):
            problems["general"] = [m for errs in form.errors.values() for m in errs]
    return partials.render_page_or_partial("new_match.html", form=form, problems=problems, games=GAMES), 422


@bp.get("/matches/<match_id:match_id>")
def show(match_id: int):
    changed = session.pop("changed", None)
    if changed and changed.get("match") != match_id:
        changed = None
    notice = " ".join(str(message) for message in get_flashed_messages()) or None
    context = page.scoreboard_context(match_id, changed=changed, notice=notice)
    return partials.render_page_or_partial("match.html", **context)


@bp.route("/matches/<match_id:match_id>/details", methods=["GET", "POST"])
@access.scorer_required
def details(match_id: int):
    info = page.load(match_id)
    form = EditDetailsForm(data={"date": info["date"], "note": info["note"] or "", "version": info["version"]}) \
        if request.method == "GET" else EditDetailsForm()
    problems: list[str] = []
    if request.method == "POST":
        if form.validate():
            def on_saved(_: page.Written):
                flash("Date and note saved.")
                return redirect(url_for("matches.show", match_id=match_id), 303)

            def on_stale(stale: store.StaleVersion) -> None:
                problems.extend(access.stale_message(match_id, stale.expected, info["players"], "Your change"))
                form.version.data = str(stale.current)

            answer = page.answer_write(
                lambda: store.update_details(get_db(), match_id, (form.date.data or "").strip() or None, form.note.data,
                                             expected_version=access.posted_version(form.version.data),
                                             request_key=access.posted_request_key()),
                saved=on_saved, stale=on_stale, refused=lambda error: problems.extend(error.problems))
            if answer is not None:
                return answer
        else:
            problems = [m for errs in form.errors.values() for m in errs]
    status = 422 if problems else 200
    return partials.render_page_or_partial("details.html", info=info, form=form, problems=problems,
                                       match_id=match_id), status


@bp.route("/matches/<match_id:match_id>/again", methods=["GET", "POST"])
@access.scorer_required
def play_again(match_id: int):
    """Start the next match of this table: same game, players, seats and settings,
    linked to this one; for the phones that keep its score. GET shows the form alone
    (without JavaScript, after a refused form)."""
    info = page.load(match_id)
    form = play_again_form(info)
    problems: list[str] = []
    if request.method == "POST":
        form = PlayAgainForm(prefix="again")
        form.first_dealer.choices = play_again_form(info).first_dealer.choices
        if form.validate():
            refused = security.refuse_new_match()
            if refused:
                return refused
            match = Match(game=info["game"], players=list(info["players"]), settings=dict(info["settings"]),
                          first_dealer=int(form.first_dealer.data), date=store.today())
            try:
                new_id = store.create_match(get_db(), match, device=access.device(create=True), previous=match_id)
            except MatchError as error:  # the stored match replays, so this cannot happen; still never a 500
                problems = error.problems
            else:
                security.note_new_match()
                return redirect(url_for("matches.show", match_id=new_id), 303)
        else:
            problems = ["First dealer: pick one of the players at the table."] if form.first_dealer.errors \
                else [m for errs in form.errors.values() for m in errs]
    status = 422 if problems else 200
    return partials.render_page_or_partial("again.html", info=info, form=form, problems=problems,
                                           match_id=match_id), status
