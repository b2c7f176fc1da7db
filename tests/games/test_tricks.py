"""The one rule every trick here follows (``games.tricks``): a trump beats any other card,
else only the suit led can win, the strongest card wins, and of equals the earlier."""
from __future__ import annotations

import pytest

from scorekeeper.games.tricks import TrickRule

RANKS = "23456789TJQKA"
PLAIN: TrickRule[str] = TrickRule(suits=lambda card: (card[1],), strength=lambda index, card: RANKS.index(card[0]))


def test_the_highest_of_the_suit_led_wins_when_nobody_trumps():
    verdict = PLAIN.judge(["9H", "KH", "AS", "QH"], trump=None)
    assert (verdict.winner, verdict.pool, verdict.by_trump) == (1, (0, 1, 3), False)


def test_any_trump_beats_the_suit_led_and_the_highest_trump_wins():
    verdict = PLAIN.judge(["AH", "2S", "KH", "5S"], trump="S")
    assert (verdict.winner, verdict.pool, verdict.by_trump) == (3, (1, 3), True)


def test_nobody_following_leaves_the_card_led():
    verdict = PLAIN.judge(["4D", "AS", "KH"], trump="C")
    assert (verdict.winner, verdict.alone) == (0, True)


def test_of_two_equal_cards_the_earlier_wins():
    assert PLAIN.judge(["5C", "KC", "KC"], trump=None).winner == 1  # two decks: the first King
    assert PLAIN.judge(["KS", "KS"], trump="S").winner == 0


def test_a_card_of_two_suits_follows_either_and_strength_may_run_low():
    suits = {"Author": ("moons", "knots"), "Sailor": ("waves", "leaves"), "Bard": ("moons", "waves")}
    rank = {"Author": 2, "Sailor": 4, "Bard": 9}
    low: TrickRule[str] = TrickRule(suits=lambda card: suits[card], strength=lambda index, card: -rank[card])
    verdict = low.judge(["Bard", "Sailor", "Author"], trump="leaves")
    assert (verdict.winner, verdict.by_trump) == (1, True)  # the only trump, though higher
    verdict = low.judge(["Bard", "Sailor", "Author"], trump="knots")
    assert verdict.winner == 2  # a trump again: the Author is a knot
    verdict = low.judge(["Bard", "Sailor", "Author"], trump="suns")
    assert (verdict.winner, verdict.pool) == (2, (0, 1, 2))  # all share moons or waves; lowest wins


def test_strength_may_depend_on_when_a_card_is_played():
    ace_second: TrickRule[str] = TrickRule(suits=lambda card: (card[1],),
                                           strength=lambda index, card: 99 if card[0] == "A" and index else
                                           -1 if card[0] == "A" else RANKS.index(card[0]))
    assert ace_second.judge(["KH", "AH"], trump=None).winner == 1
    assert ace_second.judge(["AH", "9H"], trump=None).winner == 1


def test_an_empty_trick_is_refused():
    with pytest.raises(ValueError, match="at least one card"):
        PLAIN.judge([], trump=None)
