"""Baselines: an engine's own behaviour recorded (`llcheck record`) and held to (`check --baseline`).

`store` reads and writes the file, `observe` asks an engine what a record holds, `units` plays the
corpus cases and seeded random games, `record` records them, `diff` replays and compares them,
`checking` and `report` are the part a check run adds. The format is documented in docs/ci.md.
"""
