"""A hand field as a form shows it, the part every kind shares: the ``Kind`` base class,
what a form says once read (``Reading``), the number input and how typed text is read.
``hand_forms`` has the kinds every game uses, ``point_counter`` the card counter's; both
build on this module and neither imports the other back."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from flask_wtf import FlaskForm
from wtforms import Field, IntegerField
from wtforms.widgets import NumberInput

from ...games.base import CardCounter, FieldGroup, Game
from ...names import isolate_names, isolated

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
    counter: CardCounter | None = None  # the game's card counter, for the kind that offers it

    def __init__(self, described: FieldGroup, players: Sequence[str], game: Game) -> None:
        # the words the game wrote round the players' names ("High or low (called by Ann)"),
        # with each name isolated so a right-to-left one never reorders them
        self.described = replace(described, legend=isolate_names(described.legend, players),
                                 hint=isolate_names(described.hint, players))
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
