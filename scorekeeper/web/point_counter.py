"""The card counter a game may offer (``Game.card_counter``; Third Hand's): instead
of a points number, a player enters what they captured; the game turns the counts
into points and says what is impossible. One kind of hand field (``counts``) of
``hand_forms``: it adds the count inputs, and once every other kind has read its
inputs, turns the counts into the points field the game names (``CardCounter.into``)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask_wtf import FlaskForm
from wtforms import HiddenField

from ..games.base import FieldGroup, Game
from .hand_forms import Kind, Reading, WholeNumberField

FILLED = "counter_filled"  # the point inputs the page filled in from the counter (app.js): not typed by hand


def field_name(seat: int, kind: str) -> str:
    return f"count_{seat}_{kind}"


class CardCount(Kind):
    """``counts``: what each player captured, by the counter's kinds of card."""

    macro = "card_count"

    def __init__(self, described: FieldGroup, players: Sequence[str], game: Game) -> None:
        super().__init__(described, players, game)
        self.counter = game.shown.card_counter()
        if self.counter is None:
            raise ValueError(f"{game.key}: a counts group needs the game's card counter")

    def _kinds(self) -> tuple[tuple[str, str, int], ...]:
        return self.counter.kinds if self.counter is not None else ()

    def add_fields(self, attrs: dict[str, Any]) -> None:
        for seat in self.seats:
            for kind, label, most in self._kinds():
                self.add(attrs, field_name(seat, kind), WholeNumberField(f"{self.players[seat]}: {label}", render_kw={
                    "inputmode": "numeric", "min": "0", "max": str(most)}))
        attrs[FILLED] = HiddenField(render_kw={"data-counter-filled": ""})

    def fill(self, hand: dict[str, Any], data: dict[str, Any]) -> None:
        pass  # a recorded hand holds points, not counts

    def read(self, form: FlaskForm, reading: Reading) -> None:
        pass  # in ``finish``: the counts fill the points the other kinds read

    def _counts(self, form: FlaskForm, seat: int) -> dict | None:
        values = {kind: form[field_name(seat, kind)].data for kind, _, _ in self._kinds()}
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
        first = form[self.fields[0]]
        problems = counter.problems(counts, tuple(self.players[s] for s in self.seats))
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
                clashes.append(f"{self.players[seat]}: {typed} typed, but the counted cards make {counted}")
                continue
            points[seat] = counted
            form[f"{into}_{seat}"].data = counted
            reading.missing[:] = [m for m in reading.missing if m != (into, seat)]  # counted: no longer blank
        if clashes:
            # two ways of entering the same points disagree: say so, use neither
            first.errors = list(first.errors) + [
                f"Card points and counted cards disagree ({'; '.join(clashes)}). Clear the points or the counts, "
                "or make them match."]
            return
        reading.hand[into] = points
