"""PLACEHOLDER: being written; replace this whole file."""
from .base import Game


class ThirdHand(Game):
    key = "third_hand"
    title = "ThirdHand"
    min_players = 2
    max_players = 2
