"""Differential fuzzing of an engine against the reference (`run_fuzz`)."""

from .lockstep import Differential, Found
from .search import ERROR, FAIL, PASS, FuzzResult, run_fuzz

__all__ = ["ERROR", "FAIL", "PASS", "Differential", "Found", "FuzzResult", "run_fuzz"]
