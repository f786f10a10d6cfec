"""The reference engine: a game interpreted from a compiled spec."""

from .actions import DECIDING, KEEP, PLAY, RESPOND, Action, Phase
from .deals import build_deck
from .game import Event, Game
from .replay import game_record, replay
from .view import redact, view

__all__ = ["DECIDING", "Action", "Event", "Game", "KEEP", "PLAY", "Phase", "RESPOND", "build_deck",
           "game_record", "redact", "replay", "view"]
