"""History list, starting a match, the scoreboard, a match's date and note, its
players' names, settings and first dealer, and deleting (and restoring) a match."""
from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, flash, get_flashed_messages, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict
from wtforms import BooleanField, Form, HiddenField, IntegerField, RadioField, SelectField, StringField, TextAreaField
from wtforms.validators import Optional
from wtforms.widgets import DateInput

from ... import store
from ...engine import Match, MatchError, MatchResult, replay
from ...games import GAMES, words
from ...games.base import Game
from ...matchfile import NOTE_LIMIT
from ...names import isolated
from ..edges import access, security
from ..edges.db import get_db
from ..forms import hand_forms
from ..model import page, partials, view, writes

bp = Blueprint("matches", __name__)

# --- forms ----------------------------------------------------------------------

class EditDetailsForm(FlaskForm):
    version = HiddenField()
    date = StringField("Date", widget=DateInput())
    note = TextAreaField("Note", render_kw={"maxlength": NOTE_LIMIT, "rows": 2,
                                             "placeholder": "Where, what was at stake…"})


def _form_value(value: Any) -> str:
    """A setting's value as its field holds it in the browser (a ticked box: "y")."""
    if isinstance(value, bool):
        return "y" if value else ""
    return str(value)


@dataclass
class SettingShown:
    """One setting of a game as the form shows it: its inputs (``fields``; a table of
    values has one per key) and how to show them (``kind``: choice, int, int_or_null,
    bool or table)."""

    name: str
    label: str
    help: str
    kind: str
    fields: list[str]
    note: str = ""
    applies_when: dict[str, str] | None = None  # {"field", "value"}: shown only while that field holds that value


@dataclass
class SetupEntry:
    """A start (or change of setup) form and what its page needs beside it: the game,
    its settings as shown, the seats' inputs, and what was found wrong."""

    form: FlaskForm
    game: Game
    settings_shown: list[SettingShown]
    player_fields: list[str]
    general_errors: list[str] = field(default_factory=list)
    setting_errors: dict[str, list[str]] = field(default_factory=dict)

    def fields(self) -> list[str]:
        """Every input of the seats and settings, to collect their messages."""
        return self.player_fields + [f for item in self.settings_shown for f in item.fields]


def setting_fields(game: Game) -> tuple[dict[str, Any], list[SettingShown]]:
    """WTForms fields for a game's settings, and how to show them."""
    attrs: dict[str, Any] = {}
    shown: list[SettingShown] = []
    for s in game.settings:
        fname = f"setting_{s.name}"
        item = SettingShown(s.name, s.label, s.help, s.kind, [fname], s.note,
                            # offered only while another setting has a given value (the form hides it otherwise)
                            None if s.applies_when is None else
                            {"field": f"setting_{s.applies_when[0]}", "value": _form_value(s.applies_when[1])})
        if s.kind == "int" and s.minimum is not None and s.maximum is not None and s.maximum - s.minimum <= 4:
            # a few numbers to pick from ("First scoring trick": 2 or 3): a choice, not a box
            attrs[fname] = SelectField(item.label, default=s.default, coerce=int,
                                       choices=[(n, str(n)) for n in range(s.minimum, s.maximum + 1)])
            item.kind = "choice"
        elif s.kind in ("int", "int_or_null"):
            # a number that may be below zero ("ends at -200") gets the keyboard with a minus key
            # (no inputmode): an iPhone's numeric keypad has none
            negative = s.minimum is None or s.minimum < 0
            render: dict[str, Any] = {} if negative else {"inputmode": "numeric"}
            if s.minimum is not None:
                render["min"] = s.minimum
            if s.maximum is not None:
                render["max"] = s.maximum
            if s.kind == "int_or_null":
                render["placeholder"] = "off"
            attrs[fname] = hand_forms.WholeNumberField(item.label, default=s.default, validators=[Optional()],
                                                       render_kw=render)
        elif s.kind == "choice":
            attrs[fname] = SelectField(item.label, default=s.default,
                                       choices=[(c, s.choice_label(c)) for c in s.choices])
        elif s.kind == "bool":
            attrs[fname] = BooleanField(item.label, default=bool(s.default))
        elif s.kind == "text":
            attrs[fname] = StringField(item.label, default=s.default, render_kw={
                "maxlength": s.maximum or 40, "autocomplete": "off", "autocapitalize": "words"})
        elif s.kind == "table":
            item.fields = []
            for key in s.choices:
                kname = f"setting_{s.name}_{key}"
                default = (s.default or {}).get(key) if isinstance(s.default, dict) else None
                attrs[kname] = hand_forms.WholeNumberField(str(key), default=default, validators=[Optional()],
                                                           render_kw={"inputmode": "numeric", "min": s.minimum or 0})
                item.fields.append(kname)
        else:
            continue
        shown.append(item)
    return attrs, shown


def setting_args(game: Game, settings: dict) -> dict[str, str]:
    """A match's settings as its setup form's fields hold them in the browser (every field,
    a box left unticked as ""), for a link that starts a match like it (a chip of a known
    table): ``fill_settings`` reads them back."""
    current = game.defaults()
    current.update(settings)
    args: dict[str, str] = {}
    for item in setting_fields(game)[1]:
        value = current.get(item.name)
        if item.kind == "table" and isinstance(value, dict):
            args.update({f: _form_value(value.get(f[len(f"setting_{item.name}_"):])) for f in item.fields})
        else:
            args[item.fields[0]] = "" if value is None else _form_value(value)
    return args


def fill_settings(entry: SetupEntry, args: MultiDict) -> None:
    """Put the settings a link carries (``setting_args``) into the form, each as its field
    reads what a browser sends; a field the link does not name keeps the game's default."""
    for name in (f for item in entry.settings_shown for f in item.fields):
        if name in args:
            field = entry.form[name]
            try:
                field.process_formdata(args.getlist(name))
            except ValueError:  # a mangled link: the default, as for a setting it does not name
                field.data = field.default


def start_match_form(game: Game, formdata: MultiDict | None = None) -> SetupEntry:
    """A StartMatchForm for one game (its seats and settings)."""
    attrs: dict[str, Any] = {
        "game": RadioField("Game", choices=[(g.key, g.title or g.key) for g in offered()], default=game.key),
        "shown_game": HiddenField(default=game.key),
        "first_dealer": SelectField("First dealer", default="random", choices=[("random", "Draw at random")] + [
            (str(i), f"Player {i + 1}") for i in range(game.max_players)]),
        "date": StringField("Date", widget=DateInput(), default=store.today),
        "note": TextAreaField("Note (optional)", render_kw={"maxlength": NOTE_LIMIT, "rows": 2,
                                                            "placeholder": "Where, what is at stake…"}),
    }
    for i in range(game.max_players):
        render = {"maxlength": 40, "autocomplete": "off", "autocapitalize": "words", "list": "known-players"}
        attrs[f"player_{i}"] = StringField(f"Player {i + 1}", render_kw=render)
    settings_attrs, shown = setting_fields(game)
    attrs.update(settings_attrs)
    form_class = type("StartMatchForm", (FlaskForm,), attrs)
    form = form_class(formdata=formdata)  # None: defaults only, never the posted data
    return SetupEntry(form, game, shown, [f"player_{i}" for i in range(game.max_players)])


def read_settings(entry: SetupEntry) -> dict[str, Any]:
    """The settings as typed into a form made with ``setting_fields``."""
    form = entry.form
    settings: dict[str, Any] = {}
    for item in entry.settings_shown:
        if item.kind == "table":
            settings[item.name] = {f[len(f"setting_{item.name}_"):]: form[f].data for f in item.fields}
        elif item.kind == "bool":
            settings[item.name] = bool(form[item.fields[0]].data)
        else:
            settings[item.name] = form[item.fields[0]].data
    return settings


def read_start_form(entry: SetupEntry) -> tuple[Match, dict, list[int]]:
    """A Match from the start form, and the problems by place."""
    form, game = entry.form, entry.game
    names, seats = [], []
    for i, fname in enumerate(entry.player_fields):
        value = (form[fname].data or "").strip()
        if value or game.min_players == game.max_players:
            names.append(value)
            seats.append(i)
    settings = read_settings(entry)
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
    for fname in entry.fields():
        for message in form[fname].errors:
            problems["general"].append(message)
    return match, problems, seats


def place_problems(entry: SetupEntry, error: MatchError, problems: dict, seats: list[int]) -> None:
    """Put the engine's problems next to the fields they are about."""
    shown = {item.name for item in entry.settings_shown}
    for problem in error.header:
        setting = problem.field.split(".")[1] if problem.field and problem.field.startswith("settings.") else None
        if problem.field == "players" and problem.seat is not None and problem.seat < len(seats):
            problems.setdefault(f"player_{seats[problem.seat]}", []).append(words.reason(problem))
        elif setting in shown:
            entry.setting_errors.setdefault(setting, []).append(problem.message)
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


def play_again_form(info: page.Info) -> PlayAgainForm:
    """The Play again form for a match (its players; the dealer one seat left)."""
    players = info.players
    form = PlayAgainForm(formdata=None, prefix="again")
    form.first_dealer.choices = [(str(seat), name) for seat, name in enumerate(players)]
    form.first_dealer.data = str((info.first_dealer + 1) % len(players))
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
        return "Won by " + ", ".join(isolated(names[s]) for s in m["winners"] or [])
    if m["hands"] and m["totals"] and m["leaders"]:
        # the seats that lead as the game's rules rank totals (the lowest where the lowest wins)
        leaders = m["leaders"]
        return (("Tied: " if len(leaders) > 1 else "Leader: ") + ", ".join(isolated(names[s]) for s in leaders)
                + f" ({m['totals'][leaders[0]]})")
    return "No hands yet"


@bp.get("/")
def index() -> ResponseReturnValue:
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
    # only the notices meant for the history (a match deleted); a match's own wait for its page
    notice = " ".join(str(message) for message in get_flashed_messages(category_filter=["history"])) or None
    deleted = store.deleted_matches(get_db(), access.device()) if number == 1 and not search else []
    return partials.render_page_or_partial("index.html", matches=matches, form=form, search=search, total=total,
                                           page=number, pages=pages, notice=notice, deleted=deleted,
                                           restore_form=RestoreMatchForm(), keep_days=store.KEEP_DELETED_DAYS)


def offered() -> list[Game]:
    """The games the start form offers, in the order of its ``game`` choices (both from the
    registry's order): its cards show each one's title and players without a lookup by key."""
    return list(GAMES.values())


def listed_title(row: dict) -> str:
    """A listed match's game as the history names it ("Hearts (score pad)"); a match of a game
    this version no longer has stays listed (``derived.rebuild``: never fatal), under its key."""
    game = row["played"]
    return view.game_title(game, row["settings"], kind=True) if game is not None \
        else row["game"].replace("_", " ").title()


def _game_from_request() -> Game:
    """The game the start form's ``game`` field (or the address) names: the one place the
    new-match pages look a key up; an unknown one (a mangled link) opens the first game."""
    key = request.values.get("game")
    return GAMES[key] if key in GAMES else next(iter(GAMES.values()))


@bp.get("/matches/new")
def new_match() -> ResponseReturnValue:
    """The start form; ``player_0``... in the query fill the seats and ``setting_...`` the
    settings (a chip of a known table starts a match like its last one)."""
    entry = start_match_form(_game_from_request())
    for fname in entry.player_fields:
        name = request.args.get(fname)
        if isinstance(name, str) and name.strip():
            entry.form[fname].data = name.strip()[:40]
    fill_settings(entry, request.args)
    return partials.render_page_or_partial("new_match.html", entry=entry, form=entry.form, problems={}, games=offered())


def known_players() -> dict:
    """The names and last tables this device has kept score for (the start form offers them)."""
    return store.known_players(get_db(), access.device())


bp.add_app_template_global(known_players)
bp.add_app_template_global(setting_args)
bp.add_app_template_global(listed_title)


def _without_settings(formdata: MultiDict) -> MultiDict:
    """The posted form less the settings (so a new game's defaults show) and shown_game."""
    return MultiDict([(k, v) for k, v in formdata.items(multi=True)
                      if not k.startswith("setting_") and k != "shown_game"])


def _with_defaults(game: Game) -> SetupEntry:
    """The start form of ``game`` with the posted names kept and the game's default
    settings (not the old game's values) shown."""
    entry = start_match_form(game, formdata=_without_settings(request.form))
    form = entry.form
    for item in entry.settings_shown:
        for f in item.fields:
            form[f].data = form[f].default
            form[f].raw_data = None
    form.shown_game.data = game.key
    form.game.data = game.key
    return entry


@bp.post("/matches/new/fields")
def new_match_fields() -> ResponseReturnValue:
    """htmx: the seats and settings of the game just chosen (names kept)."""
    entry = _with_defaults(_game_from_request())
    return render_template("partial/match_fields.html", entry=entry, form=entry.form, problems={})


@bp.post("/matches/new")
def create_match() -> ResponseReturnValue:
    game = _game_from_request()
    if request.form.get("shown_game") != game.key:
        # JavaScript off and the game changed: show this game's seats and settings first
        entry = _with_defaults(game)
        entry.general_errors = [f"Now check the players and settings for {entry.game.title}, then start."]
        return partials.render_page_or_partial("new_match.html", entry=entry, form=entry.form, problems={},
                                               games=offered()), 200
    entry = start_match_form(game, formdata=request.form)
    valid = entry.form.validate()
    match, problems, seats = read_start_form(entry)
    if not valid:
        problems["general"] = problems["general"] or [m for errs in entry.form.errors.values() for m in errs]
    elif not any(problems.values()):
        try:
            replay(match)  # names and settings first: a form sent back with its messages is not a start
        except MatchError as error:
            place_problems(entry, error, problems, seats)
        else:
            refused = security.refuse_new_match()
            if refused:
                return refused
            # whoever starts a match scores it on this device
            outcome = writes.start_match(get_db(), match, device=access.device(create=True))
            if isinstance(outcome, writes.Saved):
                return redirect(url_for("matches.show", match_id=outcome.match_id), 303)
            if isinstance(outcome, writes.Refused) and outcome.error is not None:
                place_problems(entry, outcome.error, problems, seats)
    return partials.render_page_or_partial("new_match.html", entry=entry, form=entry.form, problems=problems,
                                           games=offered()), 422


@bp.get("/matches/<match_id:match_id>")
def show(match_id: int) -> ResponseReturnValue:
    changed = session.pop("changed", None)
    if changed and changed.get("match") != match_id:
        changed = None
    messages: list[tuple[str, str]] = get_flashed_messages(with_categories=True)  # type: ignore[assignment]
    notice = " ".join(str(message) for _, message in messages) or None
    context = page.scoreboard_context(match_id, changed=changed, notice=notice)
    undone = session.pop("undone", None)
    entry = context.get("entry")
    if isinstance(undone, dict) and undone.get("match") == match_id and entry is not None \
            and undone.get("number") == entry.number and isinstance(undone.get("hand"), dict):
        # the hand just undone, back in the form as a draft to correct or clear (app.js)
        entry.draft = hand_forms.browser_values(context["info"].played, context["result"].next_place(),
                                                undone["hand"])
    saved_key = session.pop("saved_key", None) if notice else None  # a draft kept on the phone is done with
    context["undo_offer"] = any(category == "saved" for category, _ in messages)  # Undo under a save's notice
    if context["undo_offer"]:  # only then is that Undo drawn: its own key, none for a form not drawn
        context["undo_key"] = access.new_request_key()
    return partials.render_page_or_partial("match.html", saved_key=saved_key, **context)


@bp.route("/matches/<match_id:match_id>/details", methods=["GET", "POST"])
@access.scorer_required
@page.with_match
def details(info: page.Info) -> ResponseReturnValue:
    match_id = info.id
    form = EditDetailsForm(data={"date": info.date, "note": info.note or "", "version": info.version}) \
        if request.method == "GET" else EditDetailsForm()
    problems: list[str] = []
    if request.method == "POST":
        if form.validate():
            outcome = writes.change_details(get_db(), match_id, (form.date.data or "").strip() or None,
                                            form.note.data, based_on=access.posted_version(form.version.data),
                                            request_key=access.posted_request_key())

            def stale(stale: writes.Stale) -> None:
                problems.extend(access.stale_message(match_id, stale.expected, info.players, "Your change"))
                form.version.data = str(stale.current)

            answer = page.answer(outcome, saved=lambda _: _to_match(match_id, "Date and note saved."),
                                 stale=stale, refused=lambda refused: problems.extend(refused.problems))
            if answer is not None:
                return answer
        else:
            problems = [m for errs in form.errors.values() for m in errs]
    status = 422 if problems else 200
    return partials.render_page_or_partial("details.html", info=info, form=form, problems=problems,
                                       match_id=match_id), status


@bp.route("/matches/<match_id:match_id>/again", methods=["GET", "POST"])
@access.scorer_required
@page.with_match
def play_again(info: page.Info) -> ResponseReturnValue:
    """Start the next match of this table: same game, players, seats and settings,
    linked to this one; for the phones that keep its score. GET shows the form alone
    (without JavaScript, after a refused form)."""
    match_id = info.id
    form = play_again_form(info)
    problems: list[str] = []
    if request.method == "POST":
        form = PlayAgainForm(prefix="again")
        form.first_dealer.choices = play_again_form(info).first_dealer.choices
        if form.validate():
            refused = security.refuse_new_match()
            if refused:
                return refused
            match = Match(game=info.game, players=list(info.players), settings=dict(info.settings),
                          first_dealer=int(form.first_dealer.data), date=store.today())
            outcome = writes.start_match(get_db(), match, device=access.device(create=True), previous=match_id)
            if isinstance(outcome, writes.Saved):
                return redirect(url_for("matches.show", match_id=outcome.match_id), 303)
            # the stored match replays, so this cannot happen; still never a 500
            problems = outcome.problems if isinstance(outcome, writes.Refused) else ["The match could not be started."]
        else:
            problems = ["First dealer: pick one of the players at the table."] if form.first_dealer.errors \
                else [m for errs in form.errors.values() for m in errs]
    status = 422 if problems else 200
    return partials.render_page_or_partial("again.html", info=info, form=form, problems=problems,
                                           match_id=match_id), status

# --- players, settings and first dealer of a match under way ------------------------------

def change_setup_form(info: page.Info, formdata: MultiDict | None = None) -> SetupEntry:
    """A ChangeSetupForm for one match: its seats' names, its settings, its first dealer,
    filled in from the match (or from the posted form)."""
    game = info.played
    players = info.players
    attrs: dict = {"version": HiddenField(), "confirm": HiddenField(),
                   "first_dealer": SelectField("First dealer", choices=[(str(i), p) for i, p in enumerate(players)])}
    for i in range(len(players)):
        attrs[f"player_{i}"] = StringField(f"Seat {i + 1}", render_kw={
            "maxlength": 40, "autocomplete": "off", "autocapitalize": "words"})
    settings_attrs, shown = setting_fields(game)
    attrs.update(settings_attrs)
    form_class = type("ChangeSetupForm", (FlaskForm,), attrs)
    data: dict[str, Any] = {"version": str(info.version), "first_dealer": str(info.first_dealer)}
    data.update({f"player_{i}": name for i, name in enumerate(players)})
    current = game.defaults()
    current.update(info.settings)
    for item in shown:
        value = current.get(item.name)
        if item.kind == "table" and isinstance(value, dict):
            data.update({f: value.get(f[len(f"setting_{item.name}_"):]) for f in item.fields})
        else:
            data[item.fields[0]] = value
    form = form_class(formdata=formdata, data=data)
    return SetupEntry(form, game, shown, [f"player_{i}" for i in range(len(players))])


def _setup_changes(info: page.Info, before: MatchResult, after: MatchResult, first_dealer: int) -> list[str]:
    """What a change of setup changes, in words: names, settings, first dealer, totals."""
    lines = [f"{old} is now {new}" for old, new in zip(before.players, after.players) if old != new]
    for s in info.played.settings:
        old, new = before.settings.get(s.name), after.settings.get(s.name)
        if old != new:
            lines.append(f"{s.label}: {s.text(old)} → {s.text(new)}")
    if first_dealer != info.first_dealer:
        lines.append(f"first dealer: {after.players[info.first_dealer]} → {after.players[first_dealer]}")
    return lines


def _totals_change(before: MatchResult, after: MatchResult) -> list[str]:
    """How the totals and the result move, where they do: "Ann 45 → 50"."""
    lines = [f"{p}: {a} → {b}" for p, a, b in zip(after.players, before.totals, after.totals) if a != b]
    if before.finished != after.finished or before.winners != after.winners:
        if after.finished:
            lines.append("the game is then over: " + " and ".join(after.players[s] for s in after.winners)
                         + (" win" if len(after.winners) > 1 else " wins"))
        else:
            lines.append("the game is then not over: the next hand can be recorded")
    return lines


@bp.route("/matches/<match_id:match_id>/setup", methods=["GET", "POST"])
@access.scorer_required
@page.with_match
def setup(info: page.Info) -> ResponseReturnValue:
    """Rename a player (a typo), change a setting such as the target, or the first
    dealer: every recorded hand is scored again under the new setup; where totals
    change, the change is shown and confirmed before it is saved."""
    match_id = info.id
    entry = change_setup_form(info, request.form if request.method == "POST" else None)
    form = entry.form
    problems: dict = {"general": []}
    confirm: dict | None = None
    if request.method == "POST" and not form.validate():
        problems["general"] += [m for errs in form.errors.values() for m in errs]
    elif request.method == "POST":
        names = [(form[f].data or "").strip() for f in entry.player_fields]
        settings = read_settings(entry)
        raw_dealer = hand_forms.whole(form.first_dealer.data or "")
        first_dealer = raw_dealer if raw_dealer is not None and 0 <= raw_dealer < len(names) else info.first_dealer
        problems["general"] += [message for fname in entry.fields() for message in form[fname].errors]
        after = None if problems["general"] else _setup_candidate(info, entry, names, settings, first_dealer, problems)
        before = page.replayed(info)
        changes = [] if after is None else _setup_changes(info, before, after, first_dealer)
        digest = "" if after is None else _digest(after.players, after.settings, first_dealer)
        if after is not None and not changes:
            problems["general"].append("Nothing was changed.")
        elif after is not None and _totals_change(before, after) and form.confirm.data != digest:
            # confirmed only for exactly this change: edited again, it is shown again
            confirm = {"changes": changes, "totals": _totals_change(before, after)}
            form.confirm.data = digest
        elif after is not None:
            outcome = writes.change_setup(get_db(), page.replay_of(info), names, settings, first_dealer,
                                          based_on=access.posted_version(form.version.data),
                                          request_key=access.posted_request_key())

            def stale(stale: writes.Stale) -> None:
                problems["general"] += access.stale_message(match_id, stale.expected, info.players, "Your change")
                form.version.data = str(stale.current)
                form.confirm.data = ""

            answer = page.answer(outcome, saved=lambda done: _to_match(match_id, _setup_saved(done, changes),
                                                                         "match-notice"),
                                 stale=stale, refused=lambda refused: problems["general"].extend(refused.problems))
            if answer is not None:
                return answer
    status = 422 if any(problems.values()) else 200
    return partials.render_page_or_partial("setup.html", info=info, entry=entry, form=form, problems=problems,
                                           confirm=confirm, match_id=match_id), status


def _setup_candidate(info: page.Info, entry: SetupEntry, names: list[str], settings: dict, first_dealer: int,
                     problems: dict) -> MatchResult | None:
    """The match scored under the new setup, or None with the problems placed on the form."""
    tried = writes.setup_candidate(page.replay_of(info), names, settings, first_dealer)
    if not isinstance(tried, writes.Refused):
        return tried
    if tried.error is None:
        problems["general"] += tried.problems
        return None
    error = tried.error
    if error.header:  # the names or settings themselves
        place_problems(entry, error, problems, list(range(len(names))))
    hands = [f"hand {n}: {words.plain(p, entry.game.shown.field_word)}"
             for n, found in sorted(error.hand_problems.items()) for p in found]
    if hands:
        problems["general"] = ["The hands already recorded do not fit this setup, so nothing was "
                               "changed:"] + hands + problems["general"]
    return None


def _setup_saved(done: writes.Saved | writes.AlreadySaved, changes: list[str]) -> str:
    """What a saved change of setup says: what changed, and the totals it moved."""
    if not isinstance(done, writes.Saved) or done.before is None or done.after is None:
        return "Saved."
    moved = _totals_change(done.before, done.after)
    return "Saved: " + "; ".join(changes) + "." + (
        " Scored again from the first hand: " + "; ".join(moved) + "." if moved else " No totals changed.")


def _to_match(match_id: int, notice: str, anchor: str | None = None) -> ResponseReturnValue:
    """To the scoreboard, saying ``notice``."""
    flash(notice)
    return redirect(url_for("matches.show", match_id=match_id, _anchor=anchor), 303)


def _digest(players: list[str], settings: dict, first_dealer: int) -> str:
    """What a confirmation of a setup change confirms: this change and no other."""
    text = json.dumps([players, settings, first_dealer], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# --- deleting a match, and bringing it back -------------------------------------------------

class DeleteMatchForm(FlaskForm):
    version = HiddenField()


class RestoreMatchForm(FlaskForm):
    pass


@bp.route("/matches/<match_id:match_id>/delete", methods=["GET", "POST"])
@access.scorer_required
@page.with_match
def delete(info: page.Info) -> ResponseReturnValue:
    match_id = info.id
    form = DeleteMatchForm(data={"version": str(info.version)}) if request.method == "GET" else DeleteMatchForm()
    problems: list[str] = []
    if request.method == "POST" and form.validate():
        outcome = writes.delete_match(get_db(), match_id, based_on=access.posted_version(form.version.data),
                                      request_key=access.posted_request_key())

        def stale(stale: writes.Stale) -> None:
            problems.extend(access.stale_message(match_id, stale.expected, info.players, "Nothing was deleted; "
                                                 "the match")[:-1] + ["Check the scoreboard, then delete again if "
                                                                      "you still want to."])
            form.version.data = str(stale.current)

        answer = page.answer(outcome, saved=lambda _: _deleted(info), stale=stale,
                             refused=lambda refused: problems.extend(refused.problems))
        if answer is not None:
            return answer
    elif request.method == "POST":
        problems = ["This form has expired. Reload the page and try again."]
    result = page.replayed(info)
    return partials.render_page_or_partial("delete.html", info=info, form=form, problems=problems,
                                           result=result, match_id=match_id, keep_days=store.KEEP_DELETED_DAYS), \
        422 if problems else 200


def _deleted(info: page.Info) -> ResponseReturnValue:
    flash(f"Deleted {view.game_title(info.played, info.settings)} with {', '.join(info.players)}. "
          f"It can be restored below for {store.KEEP_DELETED_DAYS} days.", "history")
    return redirect(url_for("matches.index", _anchor="deleted"), 303)


@bp.post("/deleted/<int:number>/restore")
def restore(number: int) -> ResponseReturnValue:
    """Bring back a match this device deleted (and scored). Not under /matches/<id>:
    a deleted match is no match there (404)."""
    form = RestoreMatchForm()
    if not form.validate():
        flash("This form has expired. Reload the page and try again.", "history")
        return redirect(url_for("matches.index"), 303)
    refused = security.refuse_write()
    if refused:
        return refused
    try:
        store.restore_match(get_db(), number, access.device(), request_key=access.posted_request_key())
    except store.NotFound:
        flash("There is no deleted match to restore there (it may be restored already).", "history")
        return redirect(url_for("matches.index"), 303)
    flash("Match restored, exactly as it was.")
    return redirect(url_for("matches.show", match_id=number), 303)
