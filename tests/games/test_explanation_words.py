"""How a hand scored comes from a game's rules as facts (``Scored.why``: which rule applied, with
its numbers), never as sentences: the game's ``Shown.explanation_words`` says them, and the
engine puts those words in the hand's explanation (the Why? lines, unchanged for players:
``test_every_line_true`` and the games' own tests read them)."""
from __future__ import annotations

import dataclasses

import pytest

from scorekeeper.engine import replay
from scorekeeper.games import GAMES
from scorekeeper.samples import random_match


def texts(value: object) -> list[str]:
    """Every string inside a fact: its fields, items and values, however deep."""
    if isinstance(value, str):
        return [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return texts([getattr(value, f.name) for f in dataclasses.fields(value)])
    if isinstance(value, dict):
        return texts(list(value.items()))
    if isinstance(value, (list, tuple, set, frozenset)):
        return [text for item in value for text in texts(item)]
    return []


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_games_rules_score_a_hand_as_facts_without_words(key):
    game = GAMES[key]
    for settings in game.sample_settings:
        match = random_match(key, 30, seed=5, settings=dict(settings))
        result = replay(match)
        for hand, scored in zip(match.hands, result.hands):
            why = game.rules.score_hand(hand, result.place(scored.number)).why
            # a word a fact may hold is the hand's own (a suit, "dummy"), never a sentence or a name
            assert all(" " not in text and text not in result.players for text in texts(why)), (why, scored.explanation)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_explanation_is_the_shown_parts_words(key, monkeypatch):
    game = GAMES[key]
    match = random_match(key, 3, seed=1)
    told = []

    def explain(hand, scored, ctx):
        told.append((hand, scored.why, ctx.number))
        return [f"hand {ctx.number} in other words"]

    monkeypatch.setattr(game.shown, "explanation_words", explain)
    result = replay(match)
    assert [hand.explanation[0] for hand in result.hands] == [f"hand {n} in other words" for n in (1, 2, 3)]
    assert [number for _, _, number in told] == [1, 2, 3] and [hand for hand, _, _ in told] == match.hands
    assert all(line == hand.explanation[-1] or " deals next: " not in line
               for hand in result.hands for line in hand.explanation)  # what happens next stays the engine's
