"""Hand forms, one per game, built from what the game describes (``Game.hand_form``).

Each kind of hand field (``FieldGroup.kind``) is one class here, on the ``Kind`` base class:
it adds its inputs to the form class, fills them from a recorded hand (to correct it), reads
them back into the hand dict the match file stores, and names the macro in ``_kinds.html``
that draws it. The card counter's kind (``counts``) leaves its arithmetic to ``point_counter``,
which imports nothing of the forms. The form only converts what was typed; the engine checks
it and scores it.

A ``RecordHandForm`` class is made per match (seat names are the labels, the order is
the table's: bids before tricks, bidding from the dealer's left). What the page needs
beside the inputs (the kinds, the names, the problems found) travels in a
``HandEntry`` next to the form, never on it.
"""
from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from flask import get_template_attribute
from flask_wtf import FlaskForm
from markupsafe import Markup
from werkzeug.datastructures import MultiDict
from wtforms import (
    BooleanField,
    Field,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
)
from wtforms.validators import Optional
from wtforms.widgets import CheckboxInput, ListWidget, NumberInput

from ...games import words
from ...games.base import CardCounter, CountKind, FieldGroup, Game, HandContext, Problem
from ...names import isolated
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


def blank(value: Any) -> bool:
    """Nothing typed or chosen (WTForms gives "None" for a select left alone)."""
    return value in (None, "", [], "None")


class WholeNumberField(IntegerField):
    """A count typed on a phone's number pad; a clear message when it isn't one."""

    widget = NumberInput()

    def process_formdata(self, valuelist: list[Any]) -> None:
        if not valuelist or not valuelist[0].strip():
            self.data = None
            return
        text = valuelist[0].strip()
        try:
            self.data = int(text)
        except ValueError:
            self.data = None
            raise ValueError(f"{self.label.text}: must be a whole number, got \"{text[:20]}\"") from None



@dataclass
class Reading:
    """What a hand form says: the hand for the engine, what is still blank (and in the form's
    words, ``still``), the groups another filled-in group replaces, the points the card counter
    made by seat, and what the form itself refused (``errors``: malformed numbers, by field)."""

    hand: dict[str, Any] = field(default_factory=dict)
    missing: list[Blank] = field(default_factory=list)
    replaced: set[str] = field(default_factory=set)
    counted: dict[int, int] = field(default_factory=dict)
    still: str = ""
    errors: dict[str, list[str]] = field(default_factory=dict)


class Kind:
    """One hand field of the engine as the form shows it (a fieldset), described by the
    game's ``FieldGroup``: its inputs (``fields``, form field names in display order)."""

    macro: ClassVar[str] = ""  # its macro in _kinds.html
    legend_hidden: ClassVar[bool] = False  # the input's own label already names it
    hint_after: ClassVar[bool] = False  # the hint is about the input: under it
    errors_whole: ClassVar[bool] = False  # the form's errors here are about every input of it
    counter: CardCounter | None = None  # the game's card counter, for the kind that offers it

    def __init__(self, described: FieldGroup, players: Sequence[str], game: Game) -> None:
        # as the game wrote it for a page (``Shown.hand_form_shown``: the names in its words isolated)
        self.described = described
        self.players = list(players)
        self.fields: list[str] = []
        # what the game described, read as plain attributes (a kind never changes once built)
        self.name: str = described.name  # the engine's hand field: ``Problem.field`` maps here
        self.kind: str = described.kind
        self.seats: list[int] = list(described.seats)
        self.optional: bool = described.optional
        self.in_details: bool = described.in_details

    def label(self, seat: int | None = None) -> str:
        d = self.described
        if seat is None:
            return d.label or d.legend
        return d.label.format(player=isolated(self.players[seat])) if d.label else self.players[seat]

    def add(self, attrs: dict[str, Any], name: str, made: Field) -> None:
        attrs[name] = made
        self.fields.append(name)

    def add_fields(self, attrs: dict[str, Any]) -> None:
        raise NotImplementedError

    def fill(self, hand: dict[str, Any], data: dict[str, Any]) -> None:
        """``data`` for the form's inputs from a recorded ``hand``."""
        value = hand.get(self.name)
        if value is not None:
            data[self.fields[0]] = value

    def read(self, form: FlaskForm, reading: Reading) -> None:
        raise NotImplementedError

    def blank_fields(self, missing: Sequence[Blank]) -> list[str]:
        """The inputs of this kind that ``missing`` names: a seat's own, or every one of
        them for the whole field (seat None)."""
        names: list[str] = []
        for name, seat in missing:
            if name != self.name:
                continue
            names += self.fields if seat is None else [f for f in self.fields if f == f"{self.name}_{seat}"]
        return list(dict.fromkeys(names))

    def finish(self, form: FlaskForm, reading: Reading) -> None:
        """After every kind has read its inputs: a kind that works on the whole hand."""

    def is_filled(self, form: FlaskForm) -> bool:
        """Whether anything was typed or chosen here."""
        return any(not blank(form[f].data) and str(form[f].data).strip() for f in self.fields) \
            or any(form[f].errors for f in self.fields)


class CheckboxesField(SelectMultipleField):
    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()

    def pre_validate(self, form: Any) -> None:  # unknown values are the engine's to report
        pass


class ChoiceField(RadioField):
    def pre_validate(self, form: Any) -> None:  # a value not offered is the engine's to report
        pass


class RecordHandForm(FlaskForm):
    """A hand's inputs; the per-match subclass adds each kind's fields."""

    version = HiddenField()

class SeatCounts(Kind):
    """``seat_int``: a count per seat (bids, tricks, points)."""

    macro = "seat_counts"

    def add_fields(self, attrs: dict[str, Any]) -> None:
        least = self.described.minimum
        for seat in self.seats:
            # a number below zero needs the keyboard with a minus key: an iPhone's numeric keypad has none
            render = {} if least is None or least < 0 else {"inputmode": "numeric"}
            if least is not None:
                render["min"] = str(least)
            if self.described.stepper:
                render["data-stepper"] = ""
            self.add(attrs, f"{self.name}_{seat}", WholeNumberField(self.label(seat), validators=[Optional()],
                                                                   render_kw=render))

    def fill(self, hand: dict[str, Any], data: dict[str, Any]) -> None:
        value = hand.get(self.name)
        if isinstance(value, list):
            for seat, fname in zip(self.seats, self.fields):
                if seat < len(value):
                    data[fname] = value[seat]

    def read(self, form: FlaskForm, reading: Reading) -> None:
        if self.name in reading.replaced and not self.is_filled(form):
            return  # entered the other way
        values: dict[int, Any] = {}
        for seat, fname in zip(self.seats, self.fields):
            values[seat] = form[fname].data
            if values[seat] is None and not form[fname].errors:
                reading.missing.append((self.name, seat))
        if all(v is None for v in values.values()) and self.optional:
            return
        reading.hand[self.name] = [values[s] for s in sorted(values)]


class SeatChoices(Kind):
    """``seat_rank``: one of ``choices`` per seat, "pass" meaning null. The engine gets
    the field only when every seat has chosen: a blank is reported as missing."""

    macro = "seat_choices"

    def add_fields(self, attrs: dict[str, Any]) -> None:
        for seat in self.seats:
            self.add(attrs, f"{self.name}_{seat}", ChoiceField(self.label(seat), choices=list(self.described.choices),
                                                               validators=[Optional()]))

    def fill(self, hand: dict[str, Any], data: dict[str, Any]) -> None:
        value = hand.get(self.name)
        if isinstance(value, list):
            for seat, fname in zip(self.seats, self.fields):
                if seat < len(value):
                    data[fname] = "pass" if value[seat] is None else str(value[seat])

    def read(self, form: FlaskForm, reading: Reading) -> None:
        values: dict[int, Any] = {}
        for seat, fname in zip(self.seats, self.fields):
            raw = form[fname].data
            if blank(raw):
                reading.missing.append((self.name, seat))
            else:
                values[seat] = None if raw == "pass" else raw
        if len(values) == len(self.fields):
            reading.hand[self.name] = [values[s] for s in sorted(values)]


class SeatTicks(Kind):
    """``seat_ticks``: ticks per seat from that seat's ``seat_choices`` (a choice that is a
    seat number goes to the engine as a number)."""

    macro = "seat_ticks"

    def add_fields(self, attrs: dict[str, Any]) -> None:
        for index, seat in enumerate(self.seats):
            self.add(attrs, f"{self.name}_{seat}", CheckboxesField(self.label(seat),
                                                                   choices=list(self.described.seat_choices[index])))

    def fill(self, hand: dict[str, Any], data: dict[str, Any]) -> None:
        value = hand.get(self.name)
        if isinstance(value, list):
            for seat, fname in zip(self.seats, self.fields):
                if seat < len(value) and isinstance(value[seat], list):
                    data[fname] = [str(v) for v in value[seat]]

    def read(self, form: FlaskForm, reading: Reading) -> None:
        ticks: dict[int, list[int | str]] = {}
        for index, (seat, fname) in enumerate(zip(self.seats, self.fields)):
            offered = {value for value, _ in self.described.seat_choices[index]}
            # a seat number the engine judges (out of range: it says so); other text only as offered
            ticks[seat] = [typed(v) if whole(v) is not None else v for v in (form[fname].data or [])
                           if whole(v) is not None or v in offered]
        if any(ticks.values()):
            reading.hand[self.name] = [ticks[s] for s in sorted(ticks)]


class Choice(Kind):
    """``radio``: one of ``choices``."""

    macro = "choice"

    def add_fields(self, attrs: dict[str, Any]) -> None:
        self.add(attrs, self.name, ChoiceField(self.label(), choices=list(self.described.choices),
                                               validators=[Optional()]))

    def read(self, form: FlaskForm, reading: Reading) -> None:
        value = form[self.name].data
        if blank(value):
            if not self.optional:
                reading.missing.append((self.name, None))
        else:
            reading.hand[self.name] = self.recorded(value)

    def recorded(self, value: str) -> Any:
        """What the hand records for the choice sent."""
        return value


class Flag(Kind):
    """``bool``: a box ticked or not."""

    macro = "flag"
    legend_hidden = True
    hint_after = True

    def add_fields(self, attrs: dict[str, Any]) -> None:
        self.add(attrs, self.name, BooleanField(self.label()))

    def read(self, form: FlaskForm, reading: Reading) -> None:
        reading.hand[self.name] = bool(form[self.name].data)


class Count(Kind):
    """``int``: one number."""

    macro = "count"

    def add_fields(self, attrs: dict[str, Any]) -> None:
        self.add(attrs, self.name, WholeNumberField(self.label(), validators=[Optional()], render_kw={
            "inputmode": "numeric", "data-stepper": "", "min": "0"}))

    def read(self, form: FlaskForm, reading: Reading) -> None:
        value = form[self.name].data
        if value is None:
            if not form[self.name].errors:
                reading.missing.append((self.name, None))
        else:
            reading.hand[self.name] = value


class SeatOrder(Kind):
    """``winners``: seat numbers typed in a line, from seat 1 as the table counts (the
    match file counts from 0)."""

    macro = "seat_order"

    def add_fields(self, attrs: dict[str, Any]) -> None:
        self.add(attrs, self.name, StringField(self.label(), render_kw={"autocomplete": "off",
                                                                       "placeholder": self.described.placeholder}))

    def fill(self, hand: dict[str, Any], data: dict[str, Any]) -> None:
        value = hand.get(self.name)
        if isinstance(value, list):
            data[self.name] = " ".join(str(v + 1) if isinstance(v, int) else str(v) for v in value)

    def read(self, form: FlaskForm, reading: Reading) -> None:
        text = (form[self.name].data or "").replace(",", " ").split()
        if text:
            reading.hand[self.name] = [n - 1 if isinstance(n := typed(t), int) else n for t in text]


class SeatPick(Choice):
    """``seat``: one of the players (the seats of ``seats``, by name), recorded as their seat
    number: who made trump, who declared. A value not offered is the engine's to report."""

    macro = "choice"

    def add_fields(self, attrs: dict[str, Any]) -> None:
        choices = [(str(seat), self.players[seat]) for seat in self.seats]
        self.add(attrs, self.name, ChoiceField(self.label(), choices=choices, validators=[Optional()]))

    def fill(self, hand: dict[str, Any], data: dict[str, Any]) -> None:
        value = hand.get(self.name)
        if value is not None:
            data[self.fields[0]] = str(value)

    def recorded(self, value: str) -> Any:
        return typed(value)  # the seat's number, as the engine records it


class Dealer(Kind):
    """Who dealt a hand dealt out of turn (every game: the web layer adds it)."""

    macro = "dealer"

    def add_fields(self, attrs: dict[str, Any]) -> None:
        self.add(attrs, self.name, SelectField("Dealer", choices=[("", "in turn")] + [
            (str(s), p) for s, p in enumerate(self.players)], validators=[Optional()]))

    def fill(self, hand: dict[str, Any], data: dict[str, Any]) -> None:
        value = hand.get(self.name)
        data[self.name] = "" if value is None else str(value)

    def read(self, form: FlaskForm, reading: Reading) -> None:
        raw = form[self.name].data
        if not blank(raw):
            reading.hand[self.name] = typed(raw)


FILLED = "counter_filled"  # the point inputs the page filled in from the counter (app.js): not typed by hand


def count_field(seat: int, kind: str) -> str:
    return f"count_{seat}_{kind}"


@dataclass(frozen=True)
class CountRow:
    """One player's count inputs as ``_kinds.html`` lays them out: their name, and each
    kind's label beside the name of its form field."""

    name: str
    cells: tuple[tuple[str, str], ...]  # (kind label, form field name)


class CardCount(Kind):
    """``counts``: what each player captured, by the kinds of the game's card counter
    (``Shown.card_counter``), instead of a points number. Once every other kind has read its
    inputs, the counts fill the points field the game names (``CardCounter.into``): the
    arithmetic and what is impossible are ``point_counter.counted``'s."""

    macro = "card_count"
    errors_whole = True  # what the counter finds is about a player's counts, said once for the grid

    def __init__(self, described: FieldGroup, players: Sequence[str], game: Game) -> None:
        super().__init__(described, players, game)
        self.counter = game.shown.card_counter()
        if self.counter is None:
            raise ValueError(f"{game.key}: a counts group needs the game's card counter")
        # the layout is the same for every form of the class: made once, read as a plain attribute
        self.rows = [CountRow(self.players[seat], tuple((kind.label, count_field(seat, kind.name))
                                                        for kind in self._kinds())) for seat in self.seats]

    def _kinds(self) -> tuple[CountKind, ...]:
        return self.counter.kinds if self.counter is not None else ()

    def add_fields(self, attrs: dict[str, Any]) -> None:
        for seat in self.seats:
            for kind in self._kinds():
                self.add(attrs, count_field(seat, kind.name), WholeNumberField(
                    f"{self.players[seat]}: {kind.label}",
                    render_kw={"inputmode": "numeric", "min": str(kind.least), "max": str(kind.most)}))
        attrs[FILLED] = HiddenField(render_kw={"data-counter-filled": ""})

    def fill(self, hand: dict[str, Any], data: dict[str, Any]) -> None:
        pass  # a recorded hand holds points, not counts

    def read(self, form: FlaskForm, reading: Reading) -> None:
        pass  # in ``finish``: the counts fill the points the other kinds read

    def _counts(self, form: FlaskForm, seat: int) -> dict[str, int] | None:
        values = {kind.name: form[count_field(seat, kind.name)].data for kind in self._kinds()}
        if all(v is None for v in values.values()):
            return None
        return {k: (0 if v is None else v) for k, v in values.items()}

    def finish(self, form: FlaskForm, reading: Reading) -> None:
        """Replace a player's blank points with the points of their counted cards; put
        what is impossible beside the count inputs (as field errors). Points typed by
        hand that disagree with the counted cards are refused, saying both numbers:
        nothing the scorer typed is dropped without a word."""
        counter = self.counter
        if counter is None or any(form[f].errors for f in self.fields):
            return
        counts = {seat: self._counts(form, seat) for seat in self.seats}
        if not any(counts.values()):
            return
        into = counter.into
        filled = set((form[FILLED].data or "").split())
        # points typed by hand beside the counts (the page's own fill from the counter is not typed)
        typed = {seat: None if f"{into}_{seat}" in filled else form[f"{into}_{seat}"].data for seat in self.seats}
        found = point_counter.counted(counter, {seat: self.players[seat] for seat in self.seats}, counts, typed)
        first = form[self.fields[0]]
        first.errors = list(first.errors) + found.errors
        if found.impossible:
            return
        points = list(reading.hand.get(into) or [None] * len(self.seats))
        for seat, value in found.points.items():
            reading.counted[seat] = value
            if seat in found.clashing:
                continue
            points[seat] = value
            form[f"{into}_{seat}"].data = value
            reading.missing[:] = [m for m in reading.missing if m != (into, seat)]  # counted: no longer blank
        if not found.clashing:
            reading.hand[into] = points


DEALER = FieldGroup("dealer", "Dealer (if someone dealt out of turn)", "dealer", optional=True, in_details=True)


def kinds() -> dict[str, type[Kind]]:
    """Every kind of hand field by ``FieldGroup.kind``."""
    return {"seat_int": SeatCounts, "seat_rank": SeatChoices, "seat_ticks": SeatTicks, "radio": Choice,
            "seat": SeatPick, "bool": Flag, "int": Count, "winners": SeatOrder, "dealer": Dealer, "counts": CardCount}


@dataclass(frozen=True)
class Drawing:
    """A hand form as its page writes it, made by the page model before the page is rendered
    (the template only reads it): the inputs group by group (``draw_groups``), the match
    version the form was drawn for, and the key that saves it once."""

    fields: Markup
    version: str
    request_key: str
    dealer: Markup | None = None  # who deals (dealt) it, as a page writes the name


@dataclass
class HandEntry:
    """A hand form and what its page needs beside it: the kinds in display order, the
    seat names, how the game names its fields, the card counter (if the game has one),
    the hand's number and dealer, and what the check found (``problems`` by field,
    ``general`` above the form, a dealer change to offer, a way to discard the entry).

    The form itself (``form``) is made when first read: a blank one is drawn from the
    drawing of its class (``draw_groups``) and often never needs to be."""

    form_class: type[RecordHandForm]
    groups: list[Kind]
    players: list[str]
    word: Callable[[str], str]
    counter: CardCounter | None = None
    number: int = 0
    dealer_name: str | None = None
    problems: dict[str, list[str]] = field(default_factory=dict)
    general: list[str] = field(default_factory=list)
    dealers: dict | None = None
    discard_url: str | None = None
    version: int | None = None  # the match version a blank form is drawn for
    # What app.js puts in this blank form as a draft to keep or clear (a hand just undone):
    # each input's name to the values a browser would send for it (``browser_values``).
    draft: dict[str, list[str]] | None = None
    made: RecordHandForm | None = None
    bound: bool = False  # to what was posted or to a recorded hand
    drawing: Drawing | None = None  # the form as its page writes it (``draw``), made before rendering
    reading: Reading | None = None  # the posted form as read (``read_posted``), made before it is checked
    # the inputs each group's messages (``problems``) are about, by group; none named: all of them
    boxes: dict[str, list[str]] = field(default_factory=dict)
    place: HandContext | None = None  # where the form places the hand: dealt by whoever it names

    @property
    def form(self) -> RecordHandForm:
        if self.made is None:
            self.made = self.bind(None, {})
        return self.made

    def bind(self, formdata: MultiDict | None, data: dict[str, Any]) -> RecordHandForm:
        """The form with what was posted, or with ``data`` (a recorded hand, or nothing)
        at the version this entry was drawn for."""
        form = self.form_class(formdata=formdata, **data)
        if formdata is None and self.version is not None:
            form.version.data = str(self.version)
        return form

    @property
    def blank(self) -> bool:
        """Made for a new hand, nothing typed yet: drawn as every blank one of its class."""
        return not self.bound

    @property
    def version_text(self) -> str:
        """What the form's hidden version field holds."""
        if self.made is None:
            return "" if self.version is None else str(self.version)
        return self.made.version.data or ""

    @property
    def open_groups(self) -> set[str]:
        """The groups tucked away under "more" that hold something: shown open."""
        return {g.name for g in self.groups if g.in_details and any(not blank(self.form[f].data) for f in g.fields)}


def build(game: Game, ctx: HandContext) -> tuple[type[RecordHandForm], list[Kind]]:
    """The form class and its kinds for the hand ``ctx`` places, from the game's description."""
    form_class, groups = _built(game, tuple(game.shown.hand_form_shown(ctx)), ctx.table.players)
    return form_class, list(groups)


# A form class depends only on what the game describes and the seat names, which stay
# the same hand after hand: made once, not twice per save (and its blank drawing, see
# ``draw_groups``, is kept by it). Kinds hold nothing of a request once built.
@functools.lru_cache(maxsize=256)
def _built(game: Game, described_groups: tuple[FieldGroup, ...],
           players: tuple[str, ...]) -> tuple[type[RecordHandForm], list[Kind]]:
    attrs: dict[str, Any] = {}
    made = kinds()
    groups: list[Kind] = []
    for described in [*described_groups, DEALER]:
        kind = made[described.kind](described, list(players), game)
        kind.add_fields(attrs)
        groups.append(kind)
    _mark_sums(attrs, groups)
    return type("RecordHandForm", (RecordHandForm,), attrs), groups


def _mark_sums(attrs: dict[str, Any], groups: list[Kind]) -> None:
    """Inputs whose numbers add up to a known total carry it (data-sum, data-sum-total):
    app.js fills in the last one once the others are typed."""
    for g in groups:
        total = g.described.adds_up_to
        if total is None:
            continue
        members = [g] + [other for other in groups if other.name in g.described.adds_up_with]
        for member in members:
            for fname in member.fields:
                unbound = attrs[fname]
                render = dict(unbound.kwargs.get("render_kw") or {})
                render.update({"data-sum": g.name, "data-sum-total": str(total)})
                unbound.kwargs["render_kw"] = render


def make_form(game: Game, ctx: HandContext,
              formdata: MultiDict | None = None, hand: dict | None = None, version: int | None = None,
              number: int = 0, dealer_name: str | None = None) -> HandEntry:
    """A hand form bound to the posted data, or pre-filled from ``hand``, with its page's needs.
    Posted with a dealer (someone dealt out of turn), it is the form of the hand that dealer
    deals: every label, order and role follows who dealt, so the bids are typed under the
    right names. ``dealer_name``: who deals, as the form says it (else the place's dealer)."""
    players = ctx.table.players
    typed_dealer = whole(formdata.get("dealer") or "") if formdata is not None else None
    if typed_dealer is not None and 0 <= typed_dealer < len(players) and typed_dealer != ctx.dealer:
        ctx = ctx.dealing(typed_dealer)
    if dealer_name is None and ctx.dealer is not None:
        dealer_name = players[ctx.dealer]
    form_class, groups = build(game, ctx)
    counter = next((g.counter for g in groups if g.counter is not None), None)
    entry = HandEntry(form_class, groups, list(players), game.shown.field_word, counter, number,
                      dealer_name, version=version, place=ctx)
    if formdata is not None or hand is not None:
        data = hand_to_data(groups, hand) if hand is not None else {}
        entry.made, entry.bound = entry.bind(formdata, data), True
    return entry


def read_posted(game: Game, ctx: HandContext, formdata: MultiDict, version: int | None = None,
                number: int = 0) -> HandEntry:
    """The form as posted for the hand ``ctx`` places (``make_form``), read once (``read``:
    ``HandEntry.reading``): what a preview and a save check."""
    entry = make_form(game, ctx, formdata=formdata, version=version, number=number)
    entry.reading = read(entry)
    return entry


# The drawing of a blank form by its class (``_built``: one per match and seating).
# Drawing it is most of a save's answer (WTForms builds every attribute of every input
# anew: about 40% of the CPU a save costs), and a blank one is the same every time.
_BLANK_DRAWINGS: weakref.WeakKeyDictionary[type, Markup] = weakref.WeakKeyDictionary()


def draw_groups(entry: HandEntry) -> Markup:
    """The form's inputs group by group (the ``hand_groups`` macro of ``_macros.html``)."""
    as_blank = entry.blank and not entry.problems
    point_boxes(entry)
    drawn = _BLANK_DRAWINGS.get(entry.form_class) if as_blank else None
    if drawn is None:
        drawn = Markup(get_template_attribute("_macros.html", "hand_groups")(entry))
        if as_blank:
            _BLANK_DRAWINGS[entry.form_class] = drawn
    return drawn


def draw(entry: HandEntry, request_key: str, dealer: Markup | None = None) -> HandEntry:
    """``entry`` with its drawing made (``Drawing``): once what the check found is in it."""
    entry.drawing = Drawing(draw_groups(entry), entry.version_text, request_key, dealer)
    return entry


def hand_to_data(groups: list[Kind], hand: dict) -> dict[str, Any]:
    """Form field values for a recorded hand (to edit it)."""
    data: dict[str, Any] = {}
    for g in groups:
        g.fill(hand, data)
    return data


NOT_TYPED = frozenset({"csrf_token", "version", "request_key"})


def browser_values(game: Game, ctx: HandContext, hand: dict) -> dict[str, list[str]]:
    """``hand`` as the inputs of its form would send it (name: values, none for a box left
    unticked), the way app.js keeps a draft: the form bound to the hand, each field read
    back as its input shows it."""
    form = make_form(game, ctx, hand=hand).form
    out: dict[str, list[str]] = {}
    for f in form:
        if f.name in NOT_TYPED:
            continue
        if isinstance(f, BooleanField):
            out[f.name] = ["y"] if f.data else []
        elif isinstance(f, SelectMultipleField):
            out[f.name] = [str(v) for v in f.data or []]
        elif isinstance(f, (RadioField, SelectField)):
            out[f.name] = [] if f.data in (None, "") else [str(f.data)]
        else:
            out[f.name] = [f._value()]
    return out


def read(entry: HandEntry) -> Reading:
    """The form checked (WTForms' own errors: ``Reading.errors``) and read: the hand dict the
    engine scores, what is still blank (for the preview; in words, ``Reading.still``), and the
    points counted cards make. Blank scalar fields are left out (the engine says "missing");
    a blank seat in a list is null (the engine names the seat)."""
    entry.form.validate()
    reading = Reading()
    # Another way to enter the same thing, filled in: the groups it replaces are not
    # asked for when blank; filled in as well, both go to the engine, which refuses the
    # pair and says so (nothing typed is ever dropped without a word).
    reading.replaced = {name for g in entry.groups if g.described.alternative_to and g.is_filled(entry.form)
                        for name in g.described.alternative_to}
    for g in entry.groups:
        g.read(entry.form, reading)
    for g in entry.groups:
        g.finish(entry.form, reading)
    reading.still = missing_summary(entry, reading.missing)
    reading.errors = field_errors(entry)
    return reading


def missing_summary(entry: HandEntry, missing: list[Blank]) -> str:
    """The blanks in the form's words, every one at once: "bids, trump, card
    points"; a group only partly blank names its seats: "tricks (Cy)"."""
    return ", ".join(missing_parts(entry, missing).values())


def missing_parts(entry: HandEntry, missing: list[Blank]) -> dict[str, str]:
    """Each group's blanks in the form's words, by group: "bids", or the seats of a group
    only partly blank, "tricks (Cy)". The summary above the form joins them; each is also
    said under its own group, beside the boxes to fill (``blank_messages``)."""
    parts: dict[str, str] = {}
    for g in entry.groups:
        seats = [seat for name, seat in missing if name == g.name]
        if not seats:
            continue
        word = entry.word(g.name)
        if None in seats or len(seats) == len(g.fields):
            parts[g.name] = word
        else:
            names = [entry.form[f"{g.name}_{seat}"].label.text for seat in g.seats if seat in seats]
            parts[g.name] = f"{word} ({', '.join(names)})"
    return parts


def blank_messages(entry: HandEntry, missing: list[Blank]) -> dict[str, str]:
    """On a save refused for blanks, the line each group shows under its boxes, from the same
    facts as the summary above the form (which may be a screen away on a phone): "Still to fill
    in: tricks (Cy)". Its boxes are pointed at it (``point_boxes``)."""
    for g in entry.groups:
        entry.boxes.setdefault(g.name, []).extend(g.blank_fields(missing))
    return {name: f"Still to fill in: {part}" for name, part in missing_parts(entry, missing).items()}


def point_boxes(entry: HandEntry) -> None:
    """Each box a message beside it is about, marked for everyone: invalid (``aria-invalid``,
    drawn in the error colour) and described by its group's message slot (``aria-describedby``,
    read out with the box). The boxes are the ones ``entry.boxes`` names for the group, or all
    of the group's when a message is about the group as a whole (tricks that do not add up).
    A radio's options take the mark of their field."""
    for g in entry.groups:
        if not entry.problems.get(g.name):
            continue
        for fname in dict.fromkeys(entry.boxes.get(g.name) or g.fields):
            bound = entry.form[fname]
            # a new dict: the one it was built with is shared by every form of its class
            bound.render_kw = {**(bound.render_kw or {}), "aria-invalid": "true",
                               "aria-describedby": f"err-{g.name}"}


def mark_problem(entry: HandEntry, problem: Problem) -> None:
    """The box an engine problem placed beside its group is about: the seat's own box when
    it names a seat the group has one for, else (nothing added) the whole group."""
    group = next((g for g in entry.groups if g.name == problem.field), None)
    if group is None:
        return
    own = f"{group.name}_{problem.seat}"
    entry.boxes.setdefault(group.name, []).extend(group.fields if problem.seat is None or own not in group.fields
                                                  else [own])


def plain(entry: HandEntry, problem: Problem, in_place: bool = False) -> str:
    """An engine problem in the form's words (``games.words.plain``)."""
    return words.plain(problem, entry.word, in_place)


def field_errors(entry: HandEntry) -> dict[str, list[str]]:
    """WTForms' own errors (malformed numbers) by engine field."""
    out: dict[str, list[str]] = {}
    for g in entry.groups:
        for fname in g.fields:
            for message in entry.form[fname].errors:
                out.setdefault(g.name, []).append(message)
                # the box that was typed wrong; the card counter's own findings are its whole grid's
                entry.boxes.setdefault(g.name, []).extend(g.fields if g.errors_whole else [fname])
    return out
