"""Differential fuzzing of an engine against the reference (`run_fuzz`)."""

from .lockstep import Divergence, Lockstep
from .search import ERROR, FAIL, PASS, FuzzResult, run_fuzz

__all__ = ["ERROR", "FAIL", "PASS", "Divergence", "FuzzResult", "Lockstep", "run_fuzz"]
