"""Invariants of Love Letter as hypothesis properties, checked against any engine.

`run_properties(make_engine, edition, players, profile, seed)` plays hypothesis-chosen games on
engines made by `make_engine` (through the adapter interface, `llcheck.engines.Engine`) and
returns one `PropertyResult` per property and player count. See docs/properties.md.
"""

from .cases import case_from_replay, write_cases
from .runner import PROPERTIES, PropertyResult, property_names, run_properties

__all__ = ["PROPERTIES", "PropertyResult", "case_from_replay", "property_names", "run_properties",
           "write_cases"]
