"""Two sides given the same inputs, step by step, and the first point at which they part.

A side is anything that can be dealt a round and given actions, answering each: the reference
engine under a spec, an engine under test, a recorded baseline, the values a case expects, a
tree of legal moves. `Lockstep` gives two sides the same inputs and keeps their `Trail`; where
their answers differ, it makes the `Divergence` (where, what differs, expected and actual, the
clauses suspected). How the answers are compared and worded belongs to each use: the case
runner, differential fuzzing, baselines, perft divide and the dispute witnesses.
"""

from .divergence import Divergence, Json, Parted, Place, compact, shorten
from .lists import Unmatched, first_index, unmatched
from .stepping import Answers, Lockstep, Side
from .trail import DEAL, MOVE, Step, Trail

__all__ = ["DEAL", "MOVE", "Answers", "Divergence", "Json", "Lockstep", "Parted", "Place", "Side", "Step",
           "Trail", "Unmatched", "compact", "first_index", "shorten", "unmatched"]
