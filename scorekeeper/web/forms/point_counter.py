"""The card counter a game may offer (``Shown.card_counter``; Third Hand's cards, the
tests' game's marbles): instead of a points number, a player enters what they captured,
kind by kind as the game names them; ``counted`` turns the counts into points and says what
is impossible (each kind's limits first, then the game's own word) and where points typed by
hand disagree. Pure: no form here. The ``counts`` kind of ``hand_forms`` reads the inputs and
calls it once, so this module imports nothing of the forms (no import circle)."""
from __future__ import annotations

from dataclasses import dataclass, field

from ...games.base import CardCounter, range_problem


@dataclass(frozen=True)
class Counted:
    """What the counts make: the points of each player who counted (by seat), the seats whose
    points typed by hand disagree with them (``clashing``: neither is used), the messages to
    put beside the count inputs (``errors``), and whether a count is impossible (``impossible``:
    nothing counted at all)."""

    points: dict[int, int] = field(default_factory=dict)
    clashing: frozenset[int] = frozenset()
    errors: list[str] = field(default_factory=list)
    impossible: bool = False


def _out_of_range(counter: CardCounter, names: dict[int, str], counts: dict[int, dict[str, int] | None]) -> list[str]:
    """Each count outside its kind's limits, in the game's words for the kind."""
    found = []
    for seat, counted in counts.items():
        for kind in counter.kinds:
            if counted is not None and (problem := range_problem(counted[kind.name], kind.least, kind.most)):
                found.append(f"{names[seat]}'s {kind.said}: {problem}")
    return found


def counted(counter: CardCounter, names: dict[int, str], counts: dict[int, dict[str, int] | None],
            typed: dict[int, int | None]) -> Counted:
    """The points ``counts`` make for each player who counted (``names``: by seat, in the
    table's order), beside the points ``typed`` by hand (None: left for the counter)."""
    problems = _out_of_range(counter, names, counts) or counter.problems(counts, tuple(names.values()))
    if problems:
        return Counted(errors=[f"Impossible: {p}" for p in problems], impossible=True)
    points: dict[int, int] = {}
    clashes: dict[int, str] = {}
    for seat, count in counts.items():
        if count is None:
            continue
        points[seat] = made = counter.points(count)
        by_hand = typed.get(seat)
        if by_hand is not None and by_hand != made:
            clashes[seat] = f"{names[seat]}: {by_hand} typed, but the {counter.counted} make {made}"
    if not clashes:
        return Counted(points)
    # two ways of entering the same points disagree: say so, use neither
    return Counted(points, frozenset(clashes), [
        f"{counter.heading} and {counter.counted} disagree ({'; '.join(clashes.values())}). Clear the {counter.typed} "
        "or the counts, or make them match."])
