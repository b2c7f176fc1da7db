"""PLACEHOLDER: being written; replace this whole file."""
from .base import Game


class ThirdWheel(Game):
    key = "third_wheel"
    title = "ThirdWheel"
    min_players = 3
    max_players = 3
