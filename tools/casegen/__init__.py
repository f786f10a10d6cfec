"""Scenario descriptions of the conformance corpus, expanded into case files by tools/gen_cases.py."""
