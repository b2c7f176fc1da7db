"""The card counter a game may offer (``Shown.card_counter``; Third Hand's cards, the
tests' game's marbles): instead of a points number, a player enters what they captured,
kind by kind as the game names them; the game turns the counts into points and says
what is impossible (each kind's limits are checked here first). One kind of hand field (``counts``) of
``hand_forms``: it adds the count inputs, and once every other kind has read its
inputs, turns the counts into the points field the game names (``CardCounter.into``)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask_wtf import FlaskForm
from wtforms import HiddenField

from ...games.base import CountKind, FieldGroup, Game, range_problem
from .field_kind import Kind, Reading, WholeNumberField

FILLED = "counter_filled"  # the point inputs the page filled in from the counter (app.js): not typed by hand


def field_name(seat: int, kind: str) -> str:
    return f"count_{seat}_{kind}"


@dataclass(frozen=True)
class CountRow:
    """One player's count inputs as ``_kinds.html`` lays them out: their name, and each
    kind's label beside the name of its form field."""

    name: str
    cells: tuple[tuple[str, str], ...]  # (kind label, form field name)


class CardCount(Kind):
    """``counts``: what each player captured, by the counter's kinds."""

    macro = "card_count"

    def __init__(self, described: FieldGroup, players: Sequence[str], game: Game) -> None:
        super().__init__(described, players, game)
        self.counter = game.shown.card_counter()
        if self.counter is None:
            raise ValueError(f"{game.key}: a counts group needs the game's card counter")

    def _kinds(self) -> tuple[CountKind, ...]:
        return self.counter.kinds if self.counter is not None else ()

    @property
    def rows(self) -> list[CountRow]:
        return [CountRow(self.players[seat], tuple((kind.label, field_name(seat, kind.name)) for kind in self._kinds()))
                for seat in self.seats]

    def add_fields(self, attrs: dict[str, Any]) -> None:
        for seat in self.seats:
            for kind in self._kinds():
                self.add(attrs, field_name(seat, kind.name), WholeNumberField(
                    f"{self.players[seat]}: {kind.label}",
                    render_kw={"inputmode": "numeric", "min": str(kind.least), "max": str(kind.most)}))
        attrs[FILLED] = HiddenField(render_kw={"data-counter-filled": ""})

    def fill(self, hand: dict[str, Any], data: dict[str, Any]) -> None:
        pass  # a recorded hand holds points, not counts

    def read(self, form: FlaskForm, reading: Reading) -> None:
        pass  # in ``finish``: the counts fill the points the other kinds read

    def _counts(self, form: FlaskForm, seat: int) -> dict[str, int] | None:
        values = {kind.name: form[field_name(seat, kind.name)].data for kind in self._kinds()}
        if all(v is None for v in values.values()):
            return None
        return {k: (0 if v is None else v) for k, v in values.items()}

    def _out_of_range(self, counts: dict[int, dict[str, int] | None]) -> list[str]:
        """Each count outside its kind's limits, in the game's words for the kind."""
        found = []
        for seat, counted in counts.items():
            for kind in self._kinds():
                if counted is not None and (problem := range_problem(counted[kind.name], kind.least, kind.most)):
                    found.append(f"{self.players[seat]}'s {kind.said}: {problem}")
        return found

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
        first = form[self.fields[0]]
        problems = self._out_of_range(counts) or counter.problems(counts, tuple(self.players[s] for s in self.seats))
        if problems:
            first.errors = list(first.errors) + [f"Impossible: {p}" for p in problems]
            return
        into = counter.into
        filled = set((form[FILLED].data or "").split())
        points = list(reading.hand.get(into) or [None] * len(self.seats))
        clashes = []
        for seat, c in counts.items():
            if c is None:
                continue
            counted = counter.points(c)
            reading.counted[seat] = counted
            typed = form[f"{into}_{seat}"].data
            if typed is not None and typed != counted and f"{into}_{seat}" not in filled:
                clashes.append(f"{self.players[seat]}: {typed} typed, but the {counter.counted} make {counted}")
                continue
            points[seat] = counted
            form[f"{into}_{seat}"].data = counted
            reading.missing[:] = [m for m in reading.missing if m != (into, seat)]  # counted: no longer blank
        if clashes:
            # two ways of entering the same points disagree: say so, use neither
            first.errors = list(first.errors) + [
                f"{counter.heading} and {counter.counted} disagree ({'; '.join(clashes)}). Clear the {counter.typed} "
                "or the counts, or make them match."]
            return
        reading.hand[into] = points
