"""PLACEHOLDER: being written; replace this whole file."""
from .base import Game


class ThirdRail(Game):
    key = "third_rail"
    title = "ThirdRail"
    min_players = 3
    max_players = 6
