"""Properties and differential fuzzing, run for every selected edition and player count and
reported like cases (`property/<name>/<edition>/<n>p`, `fuzz/<edition>/<n>p`).

The properties (`llcheck.properties.run_properties`) and the fuzzer (`llcheck.fuzz.run_fuzz`)
live in their own packages; when one is missing, asking for it is a usage error. A campaign that
raises is an errored result, except for a UsageError (a bad profile, say), which is passed on.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from loveletter_ref.spec import Edition

from ..engines.base import Engine
from ..errors import UsageError
from .results import ERRORED, FAILED, PASSED, SKIPPED, Result

MakeEngine = Callable[[], Engine]


def _function(module: str, name: str, option: str) -> Callable[..., Any]:
    """`module.name`, or UsageError saying the option is not available."""
    try:
        found: Callable[..., Any] = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise UsageError(f"{option} is not available: {module}.{name} cannot be loaded ({exc})") from None
    return found


def require(properties: bool, fuzz: bool) -> None:
    """UsageError before anything runs when a requested campaign is not available."""
    if properties:
        _function("llcheck.properties", "run_properties", "--properties")
    if fuzz:
        _function("llcheck.fuzz", "run_fuzz", "--fuzz")


def _seats(editions: list[Edition]) -> Iterator[tuple[Edition, int]]:
    for edition in editions:
        for players in range(edition.min_players, edition.max_players + 1):
            yield edition, players


STATUS = {"passed": PASSED, "pass": PASSED, "failed": FAILED, "fail": FAILED, "skipped": SKIPPED}
"""Campaign statuses as result statuses (anything else is an error)."""


def _status(value: Any) -> str:
    return STATUS.get(value, ERRORED)


def run_properties(make_engine: MakeEngine, editions: list[Edition], profile: str, seed: int | None,
                   on_result: Callable[[Result], None]) -> list[Result]:
    """Every property for every edition and player count, as results."""
    check = _function("llcheck.properties", "run_properties", "--properties")
    out: list[Result] = []
    for edition, players in _seats(editions):
        batch = _property_results(check, make_engine, edition.id, players, profile, seed)
        for result in batch:
            on_result(result)
        out += batch
    return out


def _property_results(check: Callable[..., Any], make_engine: MakeEngine, edition: str, players: int,
                      profile: str, seed: int | None) -> list[Result]:
    began = time.perf_counter()
    try:
        found = check(make_engine, edition, [players], profile, seed)
    except UsageError:
        raise
    except Exception as exc:  # a campaign that breaks is reported, the run goes on
        return [Result(f"property/all/{edition}/{players}p", ERRORED, kind="property", group="property",
                       edition=edition, players=players, seconds=time.perf_counter() - began,
                       message=f"the properties raised {type(exc).__name__}: {exc}")]
    seconds = (time.perf_counter() - began) / max(1, len(found))
    return [Result(f"property/{item.name}/{edition}/{players}p", _status(item.status), kind="property",
                   group="property", edition=edition, players=players,
                   description=getattr(item, "description", None) or f"property {item.name}",
                   message=" ".join(str(item.message).split()), seconds=seconds, replay_case=item.replay)
            for item in found]


def run_fuzz(make_engine: MakeEngine, editions: list[Edition], n: int, seed: int, out_dir: Path,
             on_result: Callable[[Result], None]) -> list[Result]:
    """A differential fuzzing campaign of `n` games per edition and player count, as results."""
    fuzz = _function("llcheck.fuzz", "run_fuzz", "--fuzz")
    out: list[Result] = []
    for edition, players in _seats(editions):
        began = time.perf_counter()
        case_id = f"fuzz/{edition.id}/{players}p"
        try:
            found = fuzz(make_engine, edition.id, players, n, seed, out_dir)
            saved = getattr(found, "saved", None)
            message = " ".join(str(found.message).split())
            if saved and str(saved) not in message:
                message += f" (saved to {saved})"
            result = Result(case_id, _status(found.status), kind="fuzz", group="fuzz", edition=edition.id,
                            players=players, clauses=tuple(getattr(found, "clauses", ())),
                            description=f"differential fuzzing, {n} games, seed {seed}",
                            message=message, replay_case=found.replay)
        except UsageError:
            raise
        except Exception as exc:  # a campaign that breaks is reported, the run goes on
            result = Result(case_id, ERRORED, kind="fuzz", group="fuzz", edition=edition.id, players=players,
                            message=f"the fuzzer raised {type(exc).__name__}: {exc}")
        result.seconds = time.perf_counter() - began
        out.append(result)
        on_result(result)
    return out
