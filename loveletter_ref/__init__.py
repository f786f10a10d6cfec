"""The reference Love Letter engine: it interprets a rules spec and knows no card by name."""

from .engine import Action, Game, Phase
from .errors import DeckError, IllegalActionError, RuleGapError, SpecError
from .spec import load_spec

__all__ = [
    "Action", "DeckError", "Game", "IllegalActionError", "Phase", "RuleGapError", "SpecError",
    "load_spec",
]
