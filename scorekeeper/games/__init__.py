"""The registry of games: one module each, imported here so the engine, the web
app and the generic tests can list them all."""
from __future__ import annotations

from .base import Game
from .dummy_spades import DummySpades
from .third_hand import ThirdHand
from .third_rail import ThirdRail
from .third_wheel import ThirdWheel

GAMES: dict[str, Game] = {g.key: g for g in (ThirdHand(), ThirdWheel(), DummySpades(), ThirdRail())}
