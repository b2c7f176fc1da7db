"""The one rule every trick of the four card games follows: a trump beats any card that is
not one; without a trump, only cards of the suit led can win; of those, the strongest
wins, and of two equally strong the one played first. Each game says what a card's suits
are and how strong it is (Third Hand's Ace depends on when it is played, Third Wheel's
Decktet ranks run either way); each words the verdict in its own rules' terms."""
from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

Card = TypeVar("Card")


@dataclass(frozen=True)
class Verdict:
    """Who won a trick (``winner``, an index in play order), which cards could have won
    (``pool``: the trumps played, else the cards that followed the suit led, the led card
    among them) and whether a trump decided it (``by_trump``)."""

    winner: int
    pool: tuple[int, ...]
    by_trump: bool

    @property
    def alone(self) -> bool:
        """Only one card could win: nobody followed (or only one trump was played)."""
        return len(self.pool) == 1


@dataclass(frozen=True)
class TrickRule(Generic[Card]):
    """How one game's cards take part in a trick: the suits a card belongs to (a Decktet
    card has two) and its strength where it was played (``index``: its place in play order)."""

    suits: Callable[[Card], Collection[str]]
    strength: Callable[[int, Card], int]

    def judge(self, cards: Sequence[Card], trump: str | None) -> Verdict:
        if not cards:
            raise ValueError("a trick needs at least one card")
        led = set(self.suits(cards[0]))
        trumps = [i for i, card in enumerate(cards) if trump is not None and trump in self.suits(card)]
        pool = trumps or [i for i, card in enumerate(cards) if led & set(self.suits(card))]
        # max() keeps the first of equal keys, and -i ranks the earlier card first: the card
        # played first wins a tie of strength (two identical cards from two decks).
        best = max(pool, key=lambda i: (self.strength(i, cards[i]), -i))
        return Verdict(best, tuple(pool), bool(trumps))
