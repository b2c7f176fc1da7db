"""What the trick referee shows for a game, described without web code: card
faces, the tap grid's groups and the choices of the "This hand" box. Each game with a
referee describes its own in its ``Referee`` part (``setup``, ``options``, ``groups``...,
see ``games/base.py``); ``web/views/referee.py`` renders it."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .cards import SIGNS, SUIT_SIGNS, SUITS, label

RED = {"H", "D"}


@dataclass(frozen=True)
class Face:
    """One card as the picker shows it."""

    code: str  # the value the engine takes: "AS", "10H", "The Author"
    label: str  # for a <select>: "A♠", "The Author (2, Moons/Knots)"
    rank: str  # big on the face: "A", "10", "2"
    sign: str  # suit symbol(s) or suit names
    colour: str  # "red", "black", or "named": a card known by its own name, drawn tall with it
    name: str = ""  # the card's own name, for a "named" card (a Decktet card's)


@dataclass(frozen=True)
class Choice:
    """One select of the "This hand" box; ``name`` is its key in the context and the URL."""

    name: str
    label: str
    options: tuple[tuple[str, str], ...]  # (value, label)
    # The hand's own fact (its trump): not known until the table says, so it starts
    # unpicked in a match and the referee asks for it rather than guessing.
    required: bool = False


@dataclass
class Setup:
    """What the "This hand" box shows: selects, then plain notes, then hints."""

    choices: list[Choice] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    hints: list[str] = field(default_factory=list)


def french_face(code: str) -> Face:
    rank, letter = code[:-1], code[-1]
    return Face(code, label(code), rank, SIGNS[letter], "red" if letter in RED else "black")


def is_french(code: str, deck: list[str]) -> bool:
    return len(code) >= 2 and code[-1] in SIGNS and code in deck


def french_groups(codes: list[str], reverse: bool = False) -> list[tuple[str, str, list[Face]]]:
    """The tap grid of a French deck, a group per suit; ``reverse`` lists each suit
    the other way round (high to low like the others when the deck lists low first)."""
    if reverse:
        codes = [c for letter in "SHDC" for c in reversed(codes) if c[-1] == letter]
    return [(f"{SIGNS[letter]} {SUITS[letter]}", "red" if letter in RED else "black",
             [french_face(c) for c in codes if c[-1] == letter]) for letter in "SHDC"]


def suit_options(suits: Iterable[str], titled: bool = False) -> tuple[tuple[str, str], ...]:
    if titled:
        return tuple((s, s.title()) for s in suits)
    return tuple((s, f"{SUIT_SIGNS[s]} {s}") for s in suits)
