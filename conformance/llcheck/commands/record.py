"""Record an engine's behaviour as a baseline, for `llcheck check --baseline` to hold it to.

Every corpus case of one edition (every status by default: disputed cases and golden traces too,
since what the rules leave open is exactly what a baseline pins down), then --games random games
per player count drawn from --seed, with the engine's own legal actions. Each step's answer is
written down as far as the engine's capabilities go: whether it accepted, events, state, legal
actions, every seat's view. The file (docs/ci.md, the baseline file) is stable and diff-friendly.
Recording over an existing baseline takes its settings as defaults and says which cases and games
changed. Exit codes: 0 written, 2 bad usage or input, 3 the engine could not be started, 130
interrupted (the file is left as it was).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from collections import Counter
from pathlib import Path

from loveletter_ref.spec import load_spec

from .. import exitcodes
from ..arguments import MAX_GAMES, SEED, seconds, whole
from ..baseline.observe import canonical
from ..baseline.record import EngineSlot, Plan, record, recovery
from ..baseline.store import Baseline, BaselineError, read, write
from ..engines import EngineFailure
from ..engines import options as engine_options
from ..engines.loader import engine_factory, start_failure
from ..engines.pipes import printable
from ..errors import UsageError
from ..harness.cases import STATUSES, load_corpus
from ..interrupts import StopSignals, unfinished
from ..progress import Progress

DEFAULT_GAMES = 2
"""Random games per player count, unless the baseline being recorded again says otherwise."""

SHOWN = 10
"""Changed cases and games listed by name when a baseline is recorded again."""


EXAMPLES = """examples:
  llcheck record --impl 'node my-engine.js' --edition classic --out baselines/classic.jsonl
  llcheck check --impl 'node my-engine.js' --baseline baselines/classic.jsonl
"""
"""Shown at the end of --help."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--impl", required=True, metavar="reference|COMMAND|python:MODULE:CLASS",
                        help="the engine to record (as for llcheck check)")
    parser.add_argument("--out", required=True, metavar="FILE",
                        help="the baseline file to write; when it is already a baseline, its settings are "
                             "the defaults of the options below")
    parser.add_argument("--edition", metavar="E", help="the edition to record (one per file)")
    parser.add_argument("--games", type=whole(0, MAX_GAMES, "games"), metavar="N",
                        help=f"random games per player count (default {DEFAULT_GAMES})")
    parser.add_argument("--seed", type=SEED, metavar="S", help="seed of the random games (default 0)")
    parser.add_argument("--status", action="append", choices=STATUSES, metavar="FOLDER",
                        help=f"corpus folders to record (default all: {', '.join(STATUSES)})")
    parser.add_argument("--corpus", metavar="DIR",
                        help="a case folder instead of the bundled corpus (its golden traces in DIR/golden/)")
    parser.add_argument("--timeout", type=seconds, default=10.0, metavar="S",
                        help="seconds a protocol engine may take to answer one request (default 10)")
    parser.add_argument("--validate-protocol", action="store_true",
                        help="check every message the engine sends against the protocol schema")
    engine_options.add_arguments(parser)


def _previous(args: argparse.Namespace) -> Baseline | None:
    """The baseline at --out, None when there is no file; UsageError for a file that is not one
    (saying how to record it again when its header can still be read)."""
    path = args.out
    if not path:
        raise UsageError("--out '': the path is empty")
    if not os.path.exists(path):
        return None
    try:
        return read(path)
    except BaselineError as exc:
        advice = recovery(exc, args.impl, engine_options.given(args), {})
        raise UsageError(f"--out {printable(path)} exists and is not a usable baseline "
                         f"({exc}){advice or '; remove it or choose another file'}") from None


def _plan(args: argparse.Namespace, previous: Baseline | None) -> Plan:
    """What to record: the options, else the previous baseline's settings, else the defaults."""
    before = previous.header["recorded"] if previous is not None else {}
    edition_name = args.edition or (previous.edition if previous is not None else None)
    if edition_name is None:
        raise UsageError("--edition is required (or --out must name a baseline to record again)")
    games = args.games if args.games is not None else before.get("games", DEFAULT_GAMES)
    corpus = args.corpus if args.corpus is not None else before.get("corpus")
    groups = tuple(args.status or before.get("groups") or STATUSES)
    edition = load_spec(edition_name)
    cases = [c for c in load_corpus(Path(corpus) if corpus else None)
             if c.edition == edition.id and c.status in groups]
    seed = args.seed if args.seed is not None else before.get("seed", 0)
    return Plan(edition, cases, games, seed, corpus, groups)


def run(args: argparse.Namespace) -> int:
    with StopSignals():  # a KeyboardInterrupt with no signal behind it is then the adapter's own
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    began = time.perf_counter()
    previous = _previous(args)
    plan = _plan(args, previous)
    folder = Path(args.out).parent
    if not folder.is_dir():  # as check's reports: a mistyped folder is not created
        raise UsageError(f"--out {printable(args.out)}: no such folder {printable(str(folder))} "
                         "(create it first)")
    slot = EngineSlot(engine_factory(args.impl, timeout=args.timeout, validate=args.validate_protocol,
                                     launch=engine_options.launch(args),
                                     specs=(str(plan.edition.path),) if plan.edition.path else ()))
    try:
        baseline = _record(args, slot, plan)
    except EngineFailure as exc:
        print(f"llcheck record: {start_failure(args.impl, exc)}", file=sys.stderr)
        return exitcodes.ENGINE
    finally:
        slot.close()
    try:
        size = write(baseline, args.out)
    except OSError as exc:
        raise UsageError(f"--out {printable(args.out)}: {exc.strerror or exc}") from None
    print(_summary(baseline, printable(args.out), size, time.perf_counter() - began))
    failures = _failures(baseline)
    if failures:
        print(failures)
    if previous is not None:
        print(_against(previous, baseline))
    return exitcodes.OK


def _record(args: argparse.Namespace, slot: EngineSlot, plan: Plan) -> Baseline:
    hello = slot.get().hello
    if plan.edition.id not in hello.editions:
        raise UsageError(f"the engine does not play {plan.edition.id} (it plays: "
                         f"{', '.join(hello.editions) or 'nothing'})")
    progress = Progress(plan.total, "cases and games")
    try:
        with unfinished(lambda: f"{progress.left()} (--out {printable(args.out)} is left as it was)"):
            return record(slot, plan, progress.update)
    finally:
        progress.close()


def _summary(baseline: Baseline, path: str, size: int, seconds: float) -> str:
    cases = [u for u in baseline.units if u.kind == "case"]
    skipped = sum(1 for u in cases if u.skipped is not None)
    games = len(baseline.units) - len(cases)
    records = sum(len(u.records) for u in baseline.units)
    return (f"llcheck record: {baseline.engine} ({baseline.edition}; "
            f"{', '.join(sorted(baseline.capabilities)) or 'no capabilities'}): {len(cases)} cases "
            f"({skipped} skipped) and {games} games, {records} steps, written to {path} "
            f"({size / 1024:.0f} KiB) in {seconds:.2f}s")


def _failures(baseline: Baseline) -> str:
    """How many recorded steps the engine failed (crashed, hung, broke the protocol), and the most
    frequent reasons; '' when it failed none. Such steps are recorded as they happened, so that
    a baseline holds an engine to its failures too, but they are rarely meant."""
    errors = Counter(re.sub(r"\(request \d+\)", "(request N)", str(record["error"]))
                     for unit in baseline.units for record in unit.records if "error" in record)
    if not errors:
        return ""
    units = sum(1 for unit in baseline.units if any("error" in record for record in unit.records))
    lines = [f"llcheck record: warning: the engine failed {errors.total()} steps, in {units} cases and "
             f"games (recorded as failures):"]
    lines += [f"  {count} x {printable(reason)}" for reason, count in errors.most_common(3)]
    if len(errors) > 3:
        lines.append(f"  ... and {len(errors) - 3} other reasons")
    return "\n".join(lines)


def _against(previous: Baseline, now: Baseline) -> str:
    """How the new baseline differs from the one it replaces, case by case and game by game."""
    old = {u.id: u for u in previous.units}
    new = {u.id: u for u in now.units}
    changed = [(u, _first_difference(old[u.id].lines(), u.lines())) for u in now.units
               if u.id in old and _differs(old[u.id].lines(), u.lines())]
    added = [i for i in new if i not in old]
    gone = [i for i in old if i not in new]
    lines = [f"against the previous baseline: {len(changed)} changed, {len(added)} new, {len(gone)} gone"]
    lines += [f"  changed {unit.kind} {unit.id} at {where}" for unit, where in changed[:SHOWN]]
    if len(changed) > SHOWN:
        lines.append(f"  ... and {len(changed) - SHOWN} more")
    return "\n".join(lines)


def _differs(before: list[dict], after: list[dict]) -> bool:
    return [canonical(x) for x in before] != [canonical(x) for x in after]


def _first_difference(before: list[dict], after: list[dict]) -> str:
    """Where the first line that differs is: `round R, step S`, or `the case` (skipped)."""
    index = next((i for i, (old, new) in enumerate(zip(before, after, strict=False))
                  if canonical(old) != canonical(new)), min(len(before), len(after)))
    at = (after if index < len(after) else before)[index]["at"]
    return f"round {at['round']}, step {at['step']}" if "round" in at else "the case"
