"""Places for tests that ask a game about a table outside any match (a blank sheet, the
tally a variant offers): the engine's place of a match with no hands (``Game.empty_place``)."""
from __future__ import annotations

import dataclasses

from scorekeeper.games.base import Game, HandContext, Table, stand_ins


def blank_place(game: Game, settings: dict, seats: int, dealer: int | None = 0) -> HandContext:
    """Where a match of ``seats`` players with these settings stands before its first hand."""
    return game.empty_place(Table(stand_ins(seats), settings), dealer)


def place_at(game: Game, table: Table, totals: list[int], played: int, state: object, dealt: list[int],
             dealer: int | None) -> HandContext:
    """A match standing where a test puts it (these totals after ``played`` hands, the game's
    ``state``, ``dealt`` per seat, ``dealer`` to deal next: None once over), with the hands
    its rules then leave, as the engine would have it after such a replay."""
    place = HandContext(table, played + 1, dealer, tuple(totals), state, tuple(dealt), finished=dealer is None)
    return dataclasses.replace(place, hands_left=game.rules.hands_left(place))


def dealt_place(game: Game, settings: dict, dealt: list[int], dealer: int | None) -> HandContext:
    """A match with these settings whose seats dealt ``dealt`` hands, ``dealer`` to deal next."""
    table = Table(stand_ins(len(dealt)), settings)
    return place_at(game, table, [0] * len(dealt), sum(dealt), game.rules.start(table), dealt, dealer)
