"""The registry of games: one module each, imported here so the engine, the web
app and the generic tests can list them all."""
from __future__ import annotations

import importlib
import os

from .base import Game
from .dummy_spades import DummySpades
from .score_pad import ScorePad
from .third_hand import ThirdHand
from .third_rail import ThirdRail
from .third_wheel import ThirdWheel

GAMES: dict[str, Game] = {g.key: g for g in (ThirdHand(), ThirdWheel(), DummySpades(), ThirdRail(), ScorePad())}


def register_extra(modules: str | None) -> list[str]:
    """Add the games of ``modules`` ("tests.oddball,other.module": each module's ``GAME``)
    to the registry; the keys added. Test-only: the test suite registers a game unlike every
    real one this way (``SCOREKEEPER_EXTRA_GAMES``, read when the registry is first imported,
    so the servers, benches and commands the tests start have it too), and the generic and
    browser suites prove the web layer assumes nothing about the real games."""
    added = []
    for name in (modules or "").split(","):
        if name.strip():
            game: Game = importlib.import_module(name.strip()).GAME
            GAMES.setdefault(game.key, game)
            added.append(game.key)
    return added


register_extra(os.environ.get("SCOREKEEPER_EXTRA_GAMES"))
