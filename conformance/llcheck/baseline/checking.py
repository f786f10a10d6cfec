"""`llcheck check --baseline FILE`: the baseline part of a check run.

The files are read before anything runs (a bad file is bad input, exit 2, and so is a baseline
of an edition that --edition leaves out or the engine does not play). After the corpus
(and any properties or fuzzing) the units of each file are replayed, one engine at a time, and
compared (`diff`). The outcome adds to the run's exit code: conformance failures (1) take
precedence over an engine that could not be started again for the replay (3), which takes
precedence over changed behaviour (4); bad input (2) and Ctrl-C (130) over all of them.
"""

from __future__ import annotations

import argparse
import contextlib
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from .. import exitcodes
from ..engines.base import Engine, EngineFailure, Hello
from ..engines.pipes import printable
from ..errors import UsageError
from ..harness.cases import Case
from ..harness.runner import RESTART_ATTEMPTS
from ..harness.select import Selection
from ..progress import Progress
from .diff import CHANGED, NOT_RUN, Outcome, Replayer
from .observe import one_line
from .record import EngineSlot, recorded_capabilities
from .store import Baseline, Unit, read


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The `--baseline` option of `llcheck check`."""
    group = parser.add_argument_group("baseline (docs/ci.md)")
    group.add_argument("--baseline", action="append", default=[], metavar="FILE",
                       help="also replay a baseline written by `llcheck record` and report each case or game "
                            "whose answers changed, at its first differing step (exit 4 when nothing else "
                            "failed; repeatable; --run and --skip select its cases and games too)")


@dataclass
class FileOutcome:
    """One baseline file replayed: every unit's outcome and what is worth knowing besides."""

    baseline: Baseline
    outcomes: list[Outcome] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    dropped: frozenset[str] = frozenset()
    seconds: float = 0.0

    def count(self, status: str) -> int:
        """Units with this status."""
        return sum(1 for outcome in self.outcomes if outcome.status == status)

    @property
    def changed(self) -> bool:
        """True when some unit changed or the engine dropped a capability the baseline used."""
        return bool(self.dropped) or self.count(CHANGED) > 0


class BaselineCheck:
    """The baselines of one check run, read at once and replayed after the corpus."""

    def __init__(self, paths: Iterable[str]):
        self.baselines = [read(path) for path in paths]
        self.files: list[FileOutcome] = []
        self.interrupted = False

    def require_editions(self, chosen: Sequence[str]) -> None:
        """UsageError for a baseline of an edition that --edition (`chosen`, when given) leaves out."""
        for baseline in self.baselines:
            if chosen and baseline.edition not in chosen:
                raise UsageError(f"{_of(baseline)}, but --edition says {', '.join(chosen)} (add --edition "
                                 f"{baseline.edition}, or leave --edition out)")

    def require_played(self, plays: Sequence[str]) -> None:
        """UsageError for a baseline of an edition the engine does not play (the harness only asks
        for editions its hello lists)."""
        for baseline in self.baselines:
            if baseline.edition not in plays:
                raise UsageError(f"{_of(baseline)}, which the engine does not play (it plays: "
                                 f"{', '.join(plays) or 'nothing'})")

    def selects(self, wanted: Callable[[str], bool]) -> bool:
        """True when some case or game of the files is `wanted`."""
        return any(wanted(unit.id) for baseline in self.baselines for unit in baseline.units)

    def run(self, make_engine: Callable[[], Engine], selection: Selection, corpus: list[Case],
            corpus_arg: str | None) -> bool:
        """Replay every selected unit of every file; True when interrupted by Ctrl-C."""
        slot = _Slot(make_engine)
        units = sum(1 for b in self.baselines for u in b.units if selection.wants_id(u.id))
        progress = Progress(units, "baseline cases and games")
        try:
            for baseline in self.baselines:
                began = time.perf_counter()
                self.files.append(FileOutcome(baseline))
                try:
                    self._replay(slot, baseline, selection, progress)
                finally:
                    self.files[-1].seconds = time.perf_counter() - began
                self.files[-1].notes += _corpus_notes(baseline, corpus, corpus_arg)
        except KeyboardInterrupt:
            slot.kill()
            self.stopped(selection)
        finally:
            slot.close()
            progress.close()
        return self.interrupted

    def stopped(self, selection: Selection) -> None:
        """The run was stopped (before the replay began, or during it): every selected case and
        game not compared yet is counted as not run, so that the totals are the baseline's."""
        self.interrupted = True
        for baseline in self.baselines:
            done = next((f for f in self.files if f.baseline is baseline), None)
            if done is None:
                done = FileOutcome(baseline)
                self.files.append(done)
            compared = {outcome.unit.id for outcome in done.outcomes}
            left = [u for u in baseline.units if selection.wants_id(u.id) and u.id not in compared]
            done.outcomes += [Outcome(unit, NOT_RUN, message="not run: the run was stopped before it")
                              for unit in left]

    def _replay(self, slot: _Slot, baseline: Baseline, selection: Selection, progress: Progress) -> None:
        current = self.files[-1]
        replayer: Replayer | None = None
        for unit in baseline.units:
            if not selection.wants_id(unit.id):
                continue
            if replayer is None:
                hello = slot.hello()
                if hello is None:
                    current.outcomes.append(Outcome(unit, NOT_RUN, message=slot.error))
                    continue
                replayer = Replayer(baseline.edition, baseline.capabilities, hello)
                current.dropped = replayer.dropped
                current.notes += _engine_notes(baseline, hello)
            current.outcomes.append(slot.replay(replayer, unit))
            progress.update(sum(len(f.outcomes) for f in self.files))

    def exit_code(self, code: int) -> int:
        """The run's exit code, given the code of everything else."""
        if code != exitcodes.OK:
            return code
        if any(f.count(NOT_RUN) for f in self.files):
            return exitcodes.ENGINE
        if any(f.changed for f in self.files):
            return exitcodes.BASELINE_CHANGED
        return exitcodes.OK


def _of(baseline: Baseline) -> str:
    """`--baseline FILE is a baseline of EDITION`."""
    return f"--baseline {printable(baseline.path)} is a baseline of {baseline.edition}"


class _Slot(EngineSlot):
    """An engine slot that gives up after RESTART_ATTEMPTS starts fail in a row."""

    def __init__(self, make_engine: Callable[[], Engine]):
        super().__init__(make_engine)
        self.failed_starts = 0
        self.error = ""

    def hello(self) -> Hello | None:
        """The engine's hello, or None when it cannot be started."""
        engine = self._engine()
        return engine.hello if engine is not None else None

    def _engine(self) -> Engine | None:
        if self.engine is None and self.failed_starts >= RESTART_ATTEMPTS:
            return None
        try:
            engine = self.get()
        except EngineFailure as exc:
            self.failed_starts += 1
            self.error = f"not run: the engine could not be started: {one_line(str(exc))}"
            return None
        self.failed_starts = 0
        return engine

    def replay(self, replayer: Replayer, unit: Unit) -> Outcome:
        """Replay one unit, or say why it could not be."""
        if self._engine() is None:
            return Outcome(unit, NOT_RUN, message=self.error)
        return replayer.replay(self, unit)

    def kill(self) -> None:
        """Stop the engine's process at once (after Ctrl-C)."""
        kill = getattr(self.engine, "kill", None)
        if kill is not None:
            with contextlib.suppress(Exception):
                kill()


def _engine_notes(baseline: Baseline, hello: Hello) -> list[str]:
    notes = []
    now = f"{hello.name} {hello.version}"
    if now != baseline.engine:
        notes.append(f"recorded from {baseline.engine}; the engine is now {now}")
    capabilities = recorded_capabilities(hello)
    gained = sorted(c for c in capabilities - baseline.capabilities)
    if gained:
        notes.append(f"the engine now also claims {', '.join(gained)}: record the baseline again to pin "
                     "what it answers")
    lost = sorted(baseline.capabilities - capabilities)
    if lost:
        notes.append(f"{no_longer_claimed(lost)} (a change: what it gave is no longer compared)")
    return notes


def no_longer_claimed(lost: Iterable[str]) -> str:
    """`the engine no longer claims views, which the baseline recorded`."""
    return f"the engine no longer claims {', '.join(lost)}, which the baseline recorded"


def _corpus_notes(baseline: Baseline, corpus: list[Case], corpus_arg: str | None) -> list[str]:
    """Cases of the corpus, in the folders recorded, that the baseline does not hold."""
    recorded = baseline.header["recorded"]
    if recorded["corpus"] != corpus_arg:
        return []
    held = {unit.id for unit in baseline.units}
    new = [case.id for case in corpus
           if case.edition == baseline.edition and case.status in recorded["groups"] and case.id not in held]
    if not new:
        return []
    return [f"{len(new)} corpus case{'s' if len(new) > 1 else ''} not in the baseline (first: {new[0]}): "
            "record the baseline again to pin them"]
