"""Entry points for `--impl python:llcheck.mutants.engines:NAME`: each attribute named after a
mutant (`baron-tie-eliminates` or `baron_tie_eliminates`) is a function returning a fresh engine
with that mutation. `llcheck serve --impl ...` serves one over the protocol."""

from __future__ import annotations

from collections.abc import Callable

from ..engines.base import Engine
from .zoo import MUTANTS, get


def __getattr__(name: str) -> Callable[[], Engine]:
    try:
        mutant = get(name)
    except KeyError:
        raise AttributeError(f"no mutant {name!r} (known: {', '.join(MUTANTS)})") from None
    return mutant.engine


def __dir__() -> list[str]:
    return sorted(MUTANTS)
