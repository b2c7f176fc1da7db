"""The card counter a game may offer (``Game.card_counter``; Third Hand's): instead
of a points number, a player enters what they captured; the game turns the counts
into points and says what is impossible. Hooked into ``hand_forms`` in two places:
``add_fields`` (building the form) and ``apply`` (reading it)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask_wtf import FlaskForm

from ..games.base import CardCounter, FieldGroup


def field_name(seat: int, kind: str) -> str:
    return f"count_{seat}_{kind}"


def add_fields(attrs: dict[str, Any], groups: list[Any], players: list[str], group_class: Callable[..., Any],
               number_field: Callable[..., Any], described: FieldGroup, counter: CardCounter,
               hidden_field: Callable[..., Any]) -> None:
    """The counter's count inputs per player, in the group the game described."""
    names = []
    for seat in described.seats:
        for kind, label, most in counter.kinds:
            fname = field_name(seat, kind)
            attrs[fname] = number_field(f"{players[seat]}: {label}", render_kw={
                "inputmode": "numeric", "min": "0", "max": str(most)})
            names.append(fname)
    attrs["card_counter"] = counter  # not a field: what ``apply`` reads the counts with
    # the point inputs the page filled in from the counter (app.js), so not typed by hand
    attrs["counter_filled"] = hidden_field(render_kw={"data-counter-filled": ""})
    groups.append(group_class(described.name, described.legend, "counts", names, list(described.seats),
                              optional=True, hint=described.hint, in_details=described.in_details))


def _counts(form: FlaskForm, seat: int, counter: CardCounter) -> dict | None:
    values = {kind: form[field_name(seat, kind)].data for kind, _, _ in counter.kinds}
    if all(v is None for v in values.values()):
        return None
    return {k: (0 if v is None else v) for k, v in values.items()}


def apply(form: FlaskForm, hand: dict, missing: list) -> None:
    """Replace a player's blank points with the points of their counted cards; put
    what is impossible beside the count inputs (as field errors). Points typed by
    hand that disagree with the counted cards are refused, saying both numbers:
    nothing the scorer typed is dropped without a word. Points the page itself
    filled in from the counter (listed in the ``counter_filled`` field) are not typed."""
    groups = [g for g in form.groups if g.kind == "counts"]
    counter = getattr(form, "card_counter", None)
    form.counted = {}
    if not groups or counter is None:
        return
    seats = groups[0].seats
    if any(form[f].errors for f in groups[0].fields):
        return
    counts = {seat: _counts(form, seat, counter) for seat in seats}
    if not any(counts.values()):
        return
    names = tuple(form.players[s] for s in seats)
    first = form[groups[0].fields[0]]
    problems = counter.problems(counts, names)
    if problems:
        first.errors = list(first.errors) + [f"Impossible: {p}" for p in problems]
        return
    into = counter.into
    filled = set((form["counter_filled"].data or "").split()) if "counter_filled" in form else set()
    points = list(hand.get(into) or [None] * len(seats))
    clashes = []
    for seat, c in counts.items():
        if c is None:
            continue
        counted = counter.points(c)
        form.counted[seat] = counted
        typed = form[f"{into}_{seat}"].data
        if typed is not None and typed != counted and f"{into}_{seat}" not in filled:
            clashes.append(f"{form.players[seat]}: {typed} typed, but the counted cards make {counted}")
            continue
        points[seat] = counted
        form[f"{into}_{seat}"].data = counted
        missing[:] = [m for m in missing if m != (into, seat)]  # counted: no longer blank
    if clashes:
        # two ways of entering the same points disagree: say so, use neither
        form.problems_from_counter = [
            f"Card points and counted cards disagree ({'; '.join(clashes)}). Clear the points or the counts, "
            "or make them match."]
        first.errors = list(first.errors) + form.problems_from_counter
        return
    hand[into] = points
