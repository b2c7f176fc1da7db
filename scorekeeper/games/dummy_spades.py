"""PLACEHOLDER: being written; replace this whole file."""
from .base import Game


class DummySpades(Game):
    key = "dummy_spades"
    title = "DummySpades"
    min_players = 3
    max_players = 3
