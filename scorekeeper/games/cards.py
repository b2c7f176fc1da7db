"""The French suits that Third Hand, Dummy Hand Spades and Third Rail play with
(Third Wheel plays the Decktet): one table of suit letters, names and signs for
the games, the trick referee, the hand forms and the scoreboard."""
from __future__ import annotations

# A card code's last letter and its suit, in the order a hand is sorted.
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
# A suit's letter by its name: no game on main reads it, but the unmerged game of issue 27's
# measure does (docs/maintainers.md: "touched 6 files, none outside its own" holds only while it
# stays here; this comment names neither its key nor its branch, which contain its key).
LETTERS = {name: letter for letter, name in SUITS.items()}
SUIT_SIGNS = {name: SIGNS[letter] for letter, name in SUITS.items()}
# The ink each suit is printed in, so a suit shown on a page looks as it does on the card.
COLOURS = {"spades": "black", "hearts": "red", "diamonds": "red", "clubs": "black"}


def faces(suits: tuple[str, ...]) -> tuple[tuple[str, str, str], ...]:
    """Each suit as a page shows it: (name, sign, colour)."""
    return tuple((suit, SUIT_SIGNS[suit], COLOURS[suit]) for suit in suits)


def label(code: str) -> str:
    """A known card code as it is written: "10H" -> "10♥"."""
    return code[:-1] + SIGNS[code[-1]]


def singular(suit: str) -> str:
    """ "spades" -> "spade"."""
    return suit[:-1]
