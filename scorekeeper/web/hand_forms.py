"""Hand forms, one per game, built from what the game describes (``Game.hand_form``).

``RecordHandForm`` classes are made per match (seat names are the labels, the
order is the table's: bids before tricks, bidding from the dealer's left). The
form only converts what was typed into the hand dict the match file stores; the
engine checks it and scores it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, IntegerField, RadioField, SelectField, SelectMultipleField, StringField
from wtforms.validators import Optional
from wtforms.widgets import CheckboxInput, ListWidget, NumberInput

from ..games import GAMES, words
from ..games.base import FieldGroup, HandContext, Problem
from . import point_counter

# What is still blank on a form: (hand field, seat), the seat None for a single field.
Blank = tuple[str, int | None]


def whole(text: str) -> int | None:
    """A seat, count or id typed as digits (a leading minus allowed), or None. Nothing a
    table types (a seat, a count, a match id) is longer than 18 digits; a longer run is not a
    number we read (Python
    refuses to read numbers of more than 4,300 digits at all)."""
    digits = text.strip().removeprefix("-")
    if not (digits.isascii() and digits.isdecimal() and len(digits) <= 18):
        return None
    return int(text.strip())


def typed(text: str) -> int | str:
    """A typed value for the engine to judge: a number when it is one, else the text, cut short."""
    number = whole(text)
    return text[:20] if number is None else number


class WholeNumberField(IntegerField):
    """A count typed on a phone's number pad; a clear message when it isn't one."""

    widget = NumberInput()

    def process_formdata(self, valuelist):
        if not valuelist or not valuelist[0].strip():
            self.data = None
            return
        text = valuelist[0].strip()
        try:
            self.data = int(text)
        except ValueError:
            self.data = None
            raise ValueError(f"{self.label.text}: must be a whole number, got \"{text[:20]}\"") from None


class CheckboxesField(SelectMultipleField):
    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()

    def pre_validate(self, form):  # unknown values are the engine's to report
        pass


class ChoiceField(RadioField):
    def pre_validate(self, form):  # a value not offered is the engine's to report
        pass


@dataclass
class Group:
    """One hand field of the engine as shown on the form (a fieldset)."""

    name: str  # the engine's hand field; Problem.field maps here
    legend: str
    kind: str  # seat_int, int, radio, bool, seat_rank, nils, winners, text
    fields: list[str] = field(default_factory=list)  # form field names, in display order
    seats: list[int] = field(default_factory=list)
    optional: bool = False
    hint: str = ""
    in_details: bool = False
    alternative_to: tuple[str, ...] = ()  # groups this one replaces when filled in
    adds_up_to: int | None = None  # the numbers of this group (and ``adds_up_with``) add up to this
    adds_up_with: tuple[str, ...] = ()


def build(game: str, ctx: HandContext):
    """The form class and its groups for the hand ``ctx`` places, from the game's description."""
    players = list(ctx.players)
    attrs: dict = {"version": HiddenField()}
    groups: list[Group] = []
    for described in GAMES[game].shown.hand_form(ctx):
        if described.kind == "counts":  # the game's card counter
            counter = GAMES[game].shown.card_counter()
            assert counter is not None  # a "counts" group comes only from a game with a card counter
            point_counter.add_fields(attrs, groups, players, Group, WholeNumberField, described, counter,
                                     HiddenField)
        else:
            groups.append(_add_group(attrs, described, players))
    # optional dealer for a hand dealt out of turn
    attrs["dealer"] = SelectField("Dealer", choices=[("", "in turn")] + [(str(s), p) for s, p in enumerate(players)],
                                  validators=[Optional()])
    groups.append(Group("dealer", "Dealer (if someone dealt out of turn)", "dealer", ["dealer"], optional=True,
                        in_details=True))
    _mark_sums(attrs, groups)
    form_class = type("RecordHandForm", (FlaskForm,), attrs)
    return form_class, groups


def _mark_sums(attrs: dict, groups: list[Group]) -> None:
    """Inputs whose numbers add up to a known total carry it (data-sum, data-sum-total):
    app.js fills in the last one once the others are typed."""
    for g in groups:
        if g.adds_up_to is None:
            continue
        members = [g] + [other for other in groups if other.name in g.adds_up_with]
        for member in members:
            for fname in member.fields:
                field = attrs[fname]
                render = dict(field.kwargs.get("render_kw") or {})
                render.update({"data-sum": g.name, "data-sum-total": str(g.adds_up_to)})
                field.kwargs["render_kw"] = render


def _add_group(attrs: dict, d: FieldGroup, players: list[str]) -> Group:
    """The WTForms fields for one described group, added to ``attrs``."""
    group = Group(d.name, d.legend, d.kind, [], list(d.seats), optional=d.optional, hint=d.hint,
                  in_details=d.in_details, alternative_to=d.alternative_to, adds_up_to=d.adds_up_to,
                  adds_up_with=d.adds_up_with)
    for index, seat in enumerate(d.seats):
        fname = f"{d.name}_{seat}"
        label = d.label.format(player=players[seat]) if d.label else players[seat]
        if d.kind == "seat_int":
            render_kw = {"inputmode": "numeric", "min": "0"}
            if d.stepper:
                render_kw["data-stepper"] = ""
            attrs[fname] = WholeNumberField(label, validators=[Optional()], render_kw=render_kw)
        elif d.kind == "seat_rank":
            attrs[fname] = ChoiceField(label, choices=list(d.choices), validators=[Optional()])
        elif d.kind == "nils":
            attrs[fname] = CheckboxesField(label, choices=list(d.seat_choices[index]))
        group.fields.append(fname)
    if d.seats:
        return group
    label = d.label or d.legend
    if d.kind == "radio":
        attrs[d.name] = ChoiceField(label, choices=list(d.choices), validators=[Optional()])
    elif d.kind == "bool":
        attrs[d.name] = BooleanField(label)
    elif d.kind == "int":
        attrs[d.name] = WholeNumberField(label, validators=[Optional()],
                                         render_kw={"inputmode": "numeric", "data-stepper": "", "min": "0"})
    elif d.kind == "winners":
        attrs[d.name] = StringField(label, render_kw={"autocomplete": "off", "placeholder": d.placeholder})
    group.fields.append(d.name)
    return group


def make_form(game: str, ctx: HandContext,
              formdata=None, hand: dict | None = None, version: int | None = None, meta=None):
    """A RecordHandForm bound to the posted data, or pre-filled from ``hand``."""
    form_class, groups = build(game, ctx)
    players = list(ctx.players)
    kwargs = {}
    if hand is not None:
        kwargs = hand_to_data(groups, hand)
    form = form_class(formdata=formdata, **kwargs) if formdata is not None else form_class(formdata=None, **kwargs)
    if formdata is None and version is not None:
        form.version.data = str(version)
    form.groups = groups
    form.word = GAMES[game].shown.field_word  # how this game's form names its fields in messages
    form.players = players
    form.open_groups = {g.name for g in groups if g.in_details
                        and any(form[f].data not in (None, "", [], "None") for f in g.fields)}
    form.problems, form.general = {}, []
    return form


def hand_to_data(groups: list[Group], hand: dict) -> dict:
    """Form field values for a recorded hand (to edit it)."""
    data: dict = {}
    for g in groups:
        value = hand.get(g.name)
        if g.kind in ("seat_int",) and isinstance(value, list):
            for s, fname in zip(g.seats, g.fields):
                if s < len(value):
                    data[fname] = value[s]
        elif g.kind == "seat_rank" and isinstance(value, list):
            for s, fname in zip(g.seats, g.fields):
                if s < len(value):
                    data[fname] = "pass" if value[s] is None else str(value[s])
        elif g.kind == "nils" and isinstance(value, list):
            for s, fname in zip(g.seats, g.fields):
                if s < len(value) and isinstance(value[s], list):
                    data[fname] = [str(v) for v in value[s]]
        elif g.kind == "winners" and isinstance(value, list):
            data["winners"] = " ".join(str(v + 1) if isinstance(v, int) else str(v) for v in value)
        elif g.kind == "dealer":
            data["dealer"] = "" if value is None else str(value)
        elif value is not None:
            data[g.fields[0]] = value
    return data


def form_to_hand(form) -> tuple[dict, list[Blank]]:
    """The hand dict the engine scores, and what is still blank (for the preview).
    Blank scalar fields are left out (the engine says "missing"); a blank seat in
    a list is null (the engine names the seat)."""
    hand: dict = {}
    missing: list[Blank] = []
    groups: list[Group] = form.groups
    # Another way to enter the same thing, filled in: the groups it replaces are not
    # asked for when blank; filled in as well, both go to the engine, which refuses the
    # pair and says so (nothing typed is ever dropped without a word).
    replaced = {name for g in groups if g.alternative_to and _filled(form, g) for name in g.alternative_to}
    for g in groups:
        if g.kind == "seat_int":
            if g.name in replaced and not _filled(form, g):
                continue
            values: dict[int, Any] = {}
            for s, fname in zip(g.seats, g.fields):
                values[s] = form[fname].data
                if values[s] is None and not form[fname].errors:
                    missing.append((g.name, s))
            if all(v is None for v in values.values()) and g.optional:
                continue
            hand[g.name] = [values[s] for s in sorted(values)]
        elif g.kind == "seat_rank":
            values = {}
            for s, fname in zip(g.seats, g.fields):
                raw = form[fname].data
                if raw in (None, "", "None"):
                    missing.append((g.name, s))
                    values[s] = "?"
                else:
                    values[s] = None if raw == "pass" else raw
            hand[g.name] = [values[s] for s in sorted(values)]
        elif g.kind == "nils":
            lists = {}
            for s, fname in zip(g.seats, g.fields):
                lists[s] = [v if v == "dummy" else typed(v) for v in (form[fname].data or [])
                            if v == "dummy" or whole(v) is not None]
            if any(lists.values()):
                hand[g.name] = [lists[s] for s in sorted(lists)]
        elif g.kind == "winners":
            text = (form.winners.data or "").replace(",", " ").split()
            if text:
                # typed from seat 1, as the table counts; the file counts from 0
                hand["winners"] = [n - 1 if isinstance(n := typed(t), int) else n for t in text]
        elif g.kind == "dealer":
            raw = form.dealer.data
            if raw not in (None, "", "None"):
                hand["dealer"] = typed(raw)
        elif g.kind == "bool":
            hand[g.name] = bool(form[g.name].data)
        elif g.kind == "int":
            value = form[g.name].data
            if value is None:
                if not form[g.name].errors:
                    missing.append((g.name, None))
            else:
                hand[g.name] = value
        elif g.kind == "radio":
            value = form[g.name].data
            if value in (None, "", "None"):
                if not g.optional:
                    missing.append((g.name, None))
            else:
                hand[g.name] = value
    # the "?" placeholder keeps the seat order; a missing bid is reported as missing
    if "bids" in hand and any(b == "?" for b in hand["bids"] or []):
        del hand["bids"]
    point_counter.apply(form, hand, missing)  # counted cards become points
    return hand, missing


def _filled(form, g: Group) -> bool:
    """Whether anything was typed or chosen in group ``g``."""
    return any(form[f].data not in (None, "", [], "None") and str(form[f].data).strip() for f in g.fields) \
        or any(form[f].errors for f in g.fields)


def missing_summary(form, missing: list[Blank]) -> str:
    """The blanks in the form's words, every one at once: "bids, trump, card
    points"; a group only partly blank names its seats: "tricks (Cy)"."""
    parts = []
    for g in form.groups:
        seats = [seat for name, seat in missing if name == g.name]
        if not seats:
            continue
        word = form.word(g.name)
        if None in seats or len(seats) == len(g.fields):
            parts.append(word)
        else:
            names = [form[f"{g.name}_{seat}"].label.text for seat in g.seats if seat in seats]
            parts.append(f"{word} ({', '.join(names)})")
    return ", ".join(parts)


def plain(form, problem: Problem, in_place: bool = False) -> str:
    """An engine problem in the form's words (``games.words.plain``)."""
    return words.plain(problem, form.word, in_place)


def field_errors(form) -> dict[str, list[str]]:
    """WTForms' own errors (malformed numbers) by engine field."""
    out: dict[str, list[str]] = {}
    for g in form.groups:
        for fname in g.fields:
            for message in form[fname].errors:
                out.setdefault(g.name, []).append(message)
    return out
