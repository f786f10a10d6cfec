"""Rulebook disputes: where two readings (or a reading and an edition) part, and does it matter.

`compare` settles every clause on which two specs differ (observable with a witness game,
vacuous with a z3 proof, or undecided); `audit` settles a reading's contradictions and finds a
game for each of its silences; `catalogue.Catalogue` does both for every bundled reading and
writes docs/disputes.md. See the module docs of `settle`, `search` and `duel`.
"""

from .report import audit_json, audit_text, comparison_json, comparison_text
from .search import Budget
from .settle import OBSERVABLE, UNDECIDED, VACUOUS, Comparison, Ruling, audit, compare
from .sides import Side, open_side, told_apart

__all__ = [
    "OBSERVABLE", "UNDECIDED", "VACUOUS", "Budget", "Comparison", "Ruling", "Side", "audit",
    "audit_json", "audit_text", "compare", "comparison_json", "comparison_text", "open_side", "told_apart",
]
