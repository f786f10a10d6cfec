"""Exit codes shared by every llcheck command (documented in README.md)."""

OK = 0
"""Everything asked for passed."""
FAILED = 1
"""Some conformance case, property or check failed."""
BAD_INPUT = 2
"""Bad usage or bad input: a wrong argument, an invalid spec or case file."""
ENGINE = 3
"""The engine under test could not be started or talked to (`check`: also restarted, so that cases
were not run, when none failed on the rules; docs/ci.md gives the order), or a worker process of
`--jobs` (or a task's workers on `--cluster`) died."""
BASELINE_CHANGED = 4
"""(check --baseline) the engine conforms but behaves differently from its baseline."""
INTERRUPTED = 130
"""Stopped by Ctrl-C; results written so far are kept."""
