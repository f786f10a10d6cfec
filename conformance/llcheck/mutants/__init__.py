"""The mutant zoo: deliberately broken engines, each bending one rule and naming the clause it
breaks, to measure how much the conformance suite catches (docs/mutants.md)."""

from .zoo import MUTANTS, ZOO, Mutant, get

__all__ = ["MUTANTS", "ZOO", "Mutant", "get"]
