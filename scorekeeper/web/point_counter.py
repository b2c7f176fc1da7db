"""Third Hand's point counter: instead of a points number, a player may enter
what they captured (aces, nines, tens, picture cards); the card points are
computed and the pair is checked against the 14-card rule by the engine helper
``third_hand.check_capture_counts``. Hooked into ``hand_forms`` in two places:
``add_fields`` (building the form) and ``apply`` (reading it)."""
from __future__ import annotations

from ..games.third_hand import check_capture_counts, points_from_counts

KINDS = (("aces", "Aces"), ("nines", "Nines"), ("tens", "Tens"), ("pictures", "K Q J"))
GROUP = "count_cards"


def field_name(seat: int, kind: str) -> str:
    return f"count_{seat}_{kind}"


def add_fields(attrs: dict, groups: list, players: list[str], group_class, number_field) -> None:
    """Four optional count inputs per player, in a "Count cards instead" group."""
    names, seats = [], list(range(len(players)))
    for seat in seats:
        for kind, label in KINDS:
            fname = field_name(seat, kind)
            attrs[fname] = number_field(f"{players[seat]}: {label}", render_kw={
                "inputmode": "numeric", "min": "0", "max": "12" if kind == "pictures" else "4"})
            names.append(fname)
    groups.append(group_class(GROUP, "Count cards instead of points", "counts", names, seats, optional=True,
                              hint="Enter what each player captured; the app adds up the points "
                                   "(A 1, 9 is 9, 10 and K Q J 10 each) and checks the 14 cards.",
                              in_details=True))


def _counts(form, seat: int) -> dict | None:
    values = {kind: form[field_name(seat, kind)].data for kind, _ in KINDS}
    if all(v is None for v in values.values()):
        return None
    return {k: (0 if v is None else v) for k, v in values.items()}


def apply(form, hand: dict, missing: list[str]) -> None:
    """Replace a player's points with the points of their counted cards; put
    what is impossible beside the count inputs (as field errors)."""
    groups = [g for g in form.groups if g.name == GROUP]
    if not groups:
        return
    seats = groups[0].seats
    if any(form[f].errors for f in groups[0].fields):
        return
    counts = {seat: _counts(form, seat) for seat in seats}
    if not any(counts.values()):
        return
    names = tuple(form[field_name(s, "aces")].label.text.split(":")[0] for s in seats)
    first = form[groups[0].fields[0]]
    if all(counts.values()):
        problems = check_capture_counts(counts[0], counts[1], names)
    else:
        # one player counted: check their own cards; the other typed a number
        seat = next(s for s, c in counts.items() if c is not None)
        problems = check_capture_counts(counts[seat], dict.fromkeys(counts[seat], 0),
                                        (names[seat], names[1 - seat]), all_cards=False)
    if problems:
        first.errors = list(first.errors) + [f"Impossible: {p}" for p in problems]
        return
    points = list(hand.get("points") or [None] * len(seats))
    for seat, c in counts.items():
        if c is not None:
            points[seat] = points_from_counts(c["aces"], c["nines"], c["tens"] + c["pictures"])
            form[f"points_{seat}"].data = points[seat]
            label = form[f"points_{seat}"].label.text
            missing[:] = [m for m in missing if m != f"card points captured: {label}"]
    hand["points"] = points
