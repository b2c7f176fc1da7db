"""Hand forms, one per game, built from what the game describes (``Game.hand_form``).

``RecordHandForm`` classes are made per match (seat names are the labels, the
order is the table's: bids before tricks, bidding from the dealer's left). The
form only converts what was typed into the hand dict the match file stores; the
engine checks it and scores it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, IntegerField, RadioField, SelectField, SelectMultipleField, StringField
from wtforms.validators import Optional
from wtforms.widgets import CheckboxInput, ListWidget, NumberInput

from ..games import GAMES
from ..games.base import FieldGroup
from . import point_counter

# The engine's hand fields in the words the form uses (messages, "Still to fill in").
FIELD_WORDS = {"bids": "bids", "bid": "dealer's bid", "trump": "trump", "mode": "high or low",
               "points": "card points", "tricks": "tricks", "dummy_tricks": "the dummy's tricks",
               "scoring_tricks": "scoring tricks", "other_tricks": "other tricks",
               "winners": "trick winners", "nils": "nil bids", "exchanged": "swap", "dealer": "dealer"}


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


def build(game: str, players: list[str], settings: dict, dealer: int | None):
    """The form class and its groups for one match, from the game's description."""
    attrs: dict = {"version": HiddenField()}
    groups: list[Group] = []
    for described in GAMES[game].hand_form(players, settings, dealer):
        if described.kind == "counts":  # the game's card counter
            counter = GAMES[game].card_counter()
            assert counter is not None  # a "counts" group comes only from a game with a card counter
            point_counter.add_fields(attrs, groups, players, Group, WholeNumberField, described, counter)
        else:
            groups.append(_add_group(attrs, described, players))
    # optional dealer for a hand dealt out of turn
    attrs["dealer"] = SelectField("Dealer", choices=[("", "in turn")] + [(str(s), p) for s, p in enumerate(players)],
                                  validators=[Optional()])
    groups.append(Group("dealer", "Dealer (if someone dealt out of turn)", "dealer", ["dealer"], optional=True,
                        in_details=True))
    form_class = type("RecordHandForm", (FlaskForm,), attrs)
    return form_class, groups


def _add_group(attrs: dict, d: FieldGroup, players: list[str]) -> Group:
    """The WTForms fields for one described group, added to ``attrs``."""
    group = Group(d.name, d.legend, d.kind, [], list(d.seats), optional=d.optional, hint=d.hint,
                  in_details=d.in_details)
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


def make_form(game: str, players: list[str], settings: dict, dealer: int | None,
              formdata=None, hand: dict | None = None, version: int | None = None, meta=None):
    """A RecordHandForm bound to the posted data, or pre-filled from ``hand``."""
    form_class, groups = build(game, players, settings, dealer)
    kwargs = {}
    if hand is not None:
        kwargs = hand_to_data(groups, hand)
    form = form_class(formdata=formdata, **kwargs) if formdata is not None else form_class(formdata=None, **kwargs)
    if formdata is None and version is not None:
        form.version.data = str(version)
    form.groups = groups
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


def form_to_hand(form) -> tuple[dict, list[str]]:
    """The hand dict the engine scores, and what is still blank (for the preview).
    Blank scalar fields are left out (the engine says "missing"); a blank seat in
    a list is null (the engine names the seat)."""
    hand: dict = {}
    missing: list[str] = []
    groups: list[Group] = form.groups
    uses_winners = any(g.kind == "winners" and (form.winners.data or "").strip() for g in groups)
    for g in groups:
        if g.kind == "seat_int":
            if uses_winners and g.name in ("scoring_tricks", "other_tricks"):
                continue
            values: dict[int, Any] = {}
            for s, fname in zip(g.seats, g.fields):
                values[s] = form[fname].data
                if values[s] is None and not form[fname].errors:
                    missing.append(f"{g.legend.split(' (')[0].lower()}: {form[fname].label.text}")
            if all(v is None for v in values.values()) and g.optional:
                continue
            hand[g.name] = [values[s] for s in sorted(values)]
        elif g.kind == "seat_rank":
            values = {}
            for s, fname in zip(g.seats, g.fields):
                raw = form[fname].data
                if raw in (None, "", "None"):
                    missing.append(f"bid: {form[fname].label.text}")
                    values[s] = "?"
                else:
                    values[s] = None if raw == "pass" else raw
            hand[g.name] = [values[s] for s in sorted(values)]
        elif g.kind == "nils":
            lists = {}
            for s, fname in zip(g.seats, g.fields):
                lists[s] = [v if v == "dummy" else int(v) for v in (form[fname].data or [])
                            if v == "dummy" or v.lstrip("-").isdecimal()]
            if any(lists.values()):
                hand[g.name] = [lists[s] for s in sorted(lists)]
        elif g.kind == "winners":
            text = (form.winners.data or "").replace(",", " ").split()
            if text:
                hand["winners"] = [int(t) - 1 if t.lstrip("-").isdecimal() else t for t in text]
        elif g.kind == "dealer":
            raw = form.dealer.data
            if raw not in (None, "", "None"):
                hand["dealer"] = int(raw) if raw.lstrip("-").isdecimal() else raw
        elif g.kind == "bool":
            hand[g.name] = bool(form[g.name].data)
        elif g.kind == "int":
            value = form[g.name].data
            if value is None:
                if not form[g.name].errors:
                    missing.append(g.legend.split(" (")[0].lower())
            else:
                hand[g.name] = value
        elif g.kind == "radio":
            value = form[g.name].data
            if value in (None, "", "None"):
                if not g.optional:
                    missing.append(g.legend.split(" (")[0].lower())
            else:
                hand[g.name] = value
    # the "?" placeholder keeps the seat order; a missing bid is reported as missing
    if "bids" in hand and any(b == "?" for b in hand["bids"] or []):
        del hand["bids"]
    point_counter.apply(form, hand, missing)  # counted cards become points
    return hand, missing


def _missing_key(g: Group) -> str:
    """How ``form_to_hand`` names a group in its list of blanks."""
    return "bid" if g.kind == "seat_rank" else g.legend.split(" (")[0].lower()


def missing_summary(form, missing: list[str]) -> str:
    """The blanks in the form's words, every one at once: "bids, trump, card
    points"; a group only partly blank names its seats: "tricks (Cy)"."""
    parts, left = [], list(missing)
    for g in form.groups:
        key, word = _missing_key(g), FIELD_WORDS.get(g.name, _missing_key(g))
        if key in left:
            left.remove(key)
            parts.append(word)
            continue
        seats = [m for m in left if m.startswith(key + ": ")]
        if seats:
            left = [m for m in left if m not in seats]
            names = [m[len(key) + 2:] for m in seats]
            parts.append(word if len(names) == len(g.fields) else f"{word} ({', '.join(names)})")
    return ", ".join(parts + left)


_SEAT_PREFIX = re.compile(r"^(\w+)\[(\d+)\] \(([^)]*)\): (.*)$", re.S)
_FIELD_PREFIX = re.compile(r"^(\w+): (.*)$", re.S)
_RAW_FIELDS = re.compile(r"\b(" + "|".join(k for k in FIELD_WORDS if "_" in k) + r")\b")
_EMPTY = re.compile(r"^(missing|must be a whole number, got null)\b")


def is_blank_message(message: str) -> bool:
    """An engine message that only says a field was left empty."""
    found = _SEAT_PREFIX.match(message) or _FIELD_PREFIX.match(message)
    return found is not None and bool(_EMPTY.match(found.groups()[-1]))


def _one_based(text: str) -> str:
    """Third Rail's winners as the user typed them (seat 1 first), not the file's 0-based seats."""
    text = re.sub(r"seat (\d+) to (\d+)", lambda m: f"seat {int(m[1]) + 1} to {int(m[2]) + 1}", text)
    text = re.sub(r"^must be a list of (\d+) seats, one per trick", r"needs \1 winners, one per trick", text)

    def typed(m) -> str:
        values = [v.strip() for v in m[1].split(",") if v.strip()]
        shown = [str(int(v) + 1) if v.lstrip("-").isdecimal() else v for v in values]
        return f"; you typed {len(values)}: " + " ".join(shown)
    text = re.sub(r", got \[([^\]]*)\]", typed, text)
    return re.sub(r"got (-?\d+)$", lambda m: f"got {int(m[1]) + 1}", text)


def plain_message(message: str, in_place: bool = False) -> str:
    """An engine message (the CLI's words, which name the match file's fields)
    in the form's words. ``in_place``: shown next to its own field, so the field
    is not named again. "bids[2] (Fay): must be a whole number, got null" ->
    "Fay: still to fill in"; "scoring_tricks add up to 6" -> "scoring tricks add up to 6"."""
    head, rest = None, message
    seat = _SEAT_PREFIX.match(message)
    field = _FIELD_PREFIX.match(message)
    if seat:
        name, rest = seat[1], seat[4]
        head = seat[3][:1].upper() + seat[3][1:]  # the player ("Fay") or "trick 4"
    elif field and field[1] in FIELD_WORDS:
        name, rest = field[1], field[2]
        head = None if in_place else FIELD_WORDS[name][:1].upper() + FIELD_WORDS[name][1:]
    else:
        name = ""
    if name == "winners" or message.startswith("winners"):
        rest = _one_based(rest)
    rest = _EMPTY.sub("still to fill in", rest)
    rest = re.sub(r"^true, but", "ticked, but", rest)  # a checkbox, not the file's true
    rest = _RAW_FIELDS.sub(lambda m: FIELD_WORDS[m[1]], rest)
    return f"{head}: {rest}" if head else rest


def field_errors(form) -> dict[str, list[str]]:
    """WTForms' own errors (malformed numbers) by engine field."""
    out: dict[str, list[str]] = {}
    for g in form.groups:
        for fname in g.fields:
            for message in form[fname].errors:
                out.setdefault(g.name, []).append(message)
    return out
