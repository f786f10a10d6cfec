"""`run_properties`: every property against one engine, one result per property and player count.

The properties run together in one state machine. When one breaks, hypothesis shrinks the game
to a minimal replay; the property is reported as failed with that replay (and the conformance
case that reproduces it), and the others run again without it, so that every property gets its
own verdict. An engine that crashes, hangs or breaks the protocol ends the run: the properties
still to be decided are reported as errored, with the game so far.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import Phase, Verbosity, settings
from hypothesis import seed as hypothesis_seed
from hypothesis.errors import FlakyFailure, FlakyStrategyDefinition
from hypothesis.stateful import run_state_machine_as_test

from loveletter_ref.errors import EngineError
from loveletter_ref.spec import Edition, load_spec

from .. import hypothesis_profiles
from ..engines.base import Engine
from ..errors import UsageError
from .cases import case_from_replay, case_path, with_attempt, write_cases
from .context import Context
from .failures import EngineBroke, ShrinkSpent, Violation, guarded, one_line, violation
from .games import HiddenInformation, Replay
from .invariants import (
    DeckConservation,
    ForcedPlay,
    GameEnd,
    HandSize,
    Invariant,
    Legality,
    OutIfDiscarded,
    Protection,
    RoundEnd,
    Tokens,
)
from .machine import Subject, machine_for
from .reported import property_id
from .rules import Rules, rules_for
from .trace import Json

PROPERTIES: tuple[type[Invariant], ...] = (DeckConservation, HandSize, Protection, ForcedPlay, OutIfDiscarded,
                                           RoundEnd, Tokens, GameEnd, HiddenInformation, Replay, Legality)
"""Every property, in report order."""

_BY_NAME = {prop.name: prop for prop in PROPERTIES}

PASSED, FAILED, ERRORED, SKIPPED = "passed", "failed", "errored", "skipped"

MakeEngine = Callable[[], Engine]


@dataclass(frozen=True)
class PropertyResult:
    """The verdict of one property for one edition and player count.

    `replay` is the conformance case (docs/cases.md) that reproduces a failure, or None.
    """

    name: str
    status: str
    message: str
    replay: dict[str, Any] | None = None
    edition: str = ""
    players: int = 0
    seed: int | None = None
    saved: Path | None = None
    description: str = ""
    """What the property protects, in one sentence."""
    clauses: tuple[str, ...] = ()
    """The clauses the property rests on: those its case names, so a report judges them as it
    judges a case's."""

    @property
    def id(self) -> str:
        """'property/<name>/<edition>/<players>p', as reports name it."""
        return property_id(self.name, self.edition, self.players)


def property_names() -> list[str]:
    """The names of every property, in report order."""
    return [prop.name for prop in PROPERTIES]


def run_properties(make_engine: MakeEngine, edition: str | Edition, players: int | Sequence[int],
                   profile: str = hypothesis_profiles.CI, seed: int | None = None, *,
                   properties: Sequence[str] | None = None, save_dir: Path | None = None,
                   max_examples: int | None = None, steps: int | None = None,
                   shrink: bool = True) -> list[PropertyResult]:
    """Check the properties of `edition` (bundled id, path or spec) against fresh engines.

    `players` is one count or several; `profile` names a hypothesis profile (`ci`, `thorough`);
    `seed` makes a run repeatable (default: fixed under a derandomized profile, else random);
    `properties` selects by name (default: all); `save_dir`, when given, receives each failure
    as a case file in corpus layout (`required/<edition>/property-<name>-<n>p.json`);
    `max_examples` and `steps` override the profile's example and stateful step counts;
    `shrink=False` reports the first failing game as found (quicker).
    UsageError on unknown names, profiles or player counts.
    """
    spec = load_spec(edition) if not isinstance(edition, Edition) else edition
    counts = [players] if isinstance(players, int) else list(players)
    for count in counts:
        if not spec.supports(count):
            raise UsageError(f"{spec.id} is for {spec.min_players}-{spec.max_players} players, not {count}")
    chosen = _select(properties)
    base = _settings(profile, max_examples, steps, shrink)
    if seed is None:
        seed = 0 if base.derandomize else random.SystemRandom().randrange(2**32)
    out: list[PropertyResult] = []
    for count in counts:
        out += _Run(make_engine, rules_for(spec, count), chosen, base, seed, save_dir).results()
    return out


def _select(names: Sequence[str] | None) -> list[type[Invariant]]:
    if names is None:
        return list(PROPERTIES)
    unknown = [name for name in names if name not in _BY_NAME]
    if unknown:
        raise UsageError(f"no property {unknown[0]!r} (properties: {', '.join(_BY_NAME)})")
    return [prop for prop in PROPERTIES if prop.name in names]


def _settings(profile: str, max_examples: int | None, steps: int | None, shrink: bool) -> settings:
    try:
        base = hypothesis_profiles.get(profile)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    extra: dict[str, Any] = {}
    if max_examples is not None:
        extra["max_examples"] = max_examples
    if steps is not None:
        extra["stateful_step_count"] = steps
    if not shrink:
        extra["phases"] = [phase for phase in base.phases if phase not in (Phase.shrink, Phase.explain)]
    return settings(base, report_multiple_bugs=False, verbosity=Verbosity.quiet, **extra)


class _Run:
    """The properties of one edition and player count against one engine factory."""

    def __init__(self, make_engine: MakeEngine, rules: Rules, chosen: list[type[Invariant]],
                 base: settings, seed: int, save_dir: Path | None):
        self.make_engine = make_engine
        self.rules = rules
        self.chosen = chosen
        self.settings = base
        self.seed = seed
        self.save_dir = save_dir
        self.verdicts: dict[str, PropertyResult] = {}

    def results(self) -> list[PropertyResult]:
        """Run until every chosen property has a verdict; results in report order."""
        engine: Engine | None = None
        try:
            engine = guarded(self.make_engine, lambda: None)
            todo = self._applicable(engine)
            while todo:
                todo = self._explore(engine, todo)
        except EngineBroke as exc:
            case = self._case("engine-failure", ("turn_play",), exc.replay, exc.attempt)
            message = _with_replay(exc.message, exc.replay, exc.attempt)
            for prop in self.chosen:
                self.verdicts.setdefault(prop.name, self._result(prop.name, ERRORED, message, case))
        finally:
            _close([engine] if engine is not None else [])
        return [self.verdicts[prop.name] for prop in self.chosen]

    def _applicable(self, engine: Engine) -> list[type[Invariant]]:
        hello = engine.hello
        todo = []
        for prop in self.chosen:
            missing = [need for need in prop.needs if not hello.can(need)]
            if self.rules.edition.id not in hello.editions:
                self.verdicts[prop.name] = self._result(prop.name, SKIPPED,
                                                        f"the engine does not play {self.rules.edition.id}")
            elif missing:
                self.verdicts[prop.name] = self._result(prop.name, SKIPPED,
                                                        f"needs capability {', '.join(missing)}")
            else:
                todo.append(prop)
        return todo

    def _explore(self, engine: Engine, todo: list[type[Invariant]]) -> list[type[Invariant]]:
        """One hypothesis run over `todo`; returns the properties still without a verdict."""
        ctx = Context(engine.hello.capabilities)
        try:
            if Replay in todo:
                ctx.mirror = guarded(self.make_engine, lambda: None)
            if HiddenInformation in todo:
                ctx.twin = guarded(self.make_engine, lambda: None)
            machine = hypothesis_seed(self.seed)(machine_for(Subject(engine, self.rules, tuple(todo), ctx)))
            run_state_machine_as_test(machine, settings=self.settings)
        except Violation as exc:
            return self._failed(exc, todo)
        except ShrinkSpent:  # the smallest failure found within the budget
            assert ctx.best is not None
            return self._failed(ctx.best, todo)
        except FlakyFailure as exc:
            inner = _violation(exc)
            if inner is None:
                return self._errored(f"the property run broke: {one_line(exc)}", todo)
            return self._failed(inner, todo, " (it did not happen again when the same game was "
                                             "replayed: the engine is not deterministic)")
        except FlakyStrategyDefinition as exc:
            inner = _nondeterminism(exc)
            return self._failed(inner, todo) if Replay in todo else self._errored(inner.message, todo)
        except Exception as exc:  # hypothesis gave up, or a bug of ours: say so, and go on
            return self._errored(f"the property run broke: {type(exc).__name__}: {one_line(exc)}", todo)
        finally:
            _close([e for e in (ctx.mirror, ctx.twin) if e is not None])
        for prop in todo:
            self.verdicts[prop.name] = self._result(prop.name, PASSED, self._summary(prop, ctx))
        return []

    def _failed(self, exc: Violation, todo: list[type[Invariant]], note: str = "") -> list[type[Invariant]]:
        prop = next((p for p in todo if p.name == exc.prop), None)
        if prop is None:
            return self._errored(f"{exc.prop} broke although it was not being checked: {exc.message}", todo)
        case = self._case(prop.name, prop.kinds, exc.replay, exc.attempt, exc.observer, exc.message)
        where = f"{exc.where}: " if exc.where else ""
        saved = None
        if case is not None and self.save_dir is not None:
            saved = write_cases(case_path(self.save_dir, case), [case])
        message = _with_replay(f"{where}{exc.message}{note}", exc.replay, exc.attempt)
        if exc.contrast is not None:
            message += f"; the other deal: {json.dumps(exc.contrast, separators=(',', ':'))}"
        self.verdicts[prop.name] = self._result(prop.name, FAILED, message, case, saved)
        return [p for p in todo if p is not prop]

    def _errored(self, message: str, todo: list[type[Invariant]]) -> list[type[Invariant]]:
        for prop in todo:
            self.verdicts[prop.name] = self._result(prop.name, ERRORED, message)
        return []

    def _case(self, name: str, kinds: tuple[str, ...], replay: Json | None, attempt: Json | None,
              observer: int | None = None, message: str = "the engine failed") -> Json | None:
        """The conformance case that replays a failure (None without a replay)."""
        if replay is None:
            return None
        try:
            return case_from_replay(self.rules, replay, prop=name, message=message,
                                    clauses=self.rules.rests_on(kinds), attempt=attempt, observer=observer)
        except EngineError:
            return None

    def _summary(self, prop: type[Invariant], ctx: Context) -> str:
        counts = ctx.counts
        text = f"{counts.games} games, {counts.rounds} rounds, {counts.actions} actions"
        if prop is HiddenInformation:
            text += f", {counts.resampled} resampled deals"
            text += "".join(f"; {n} round(s) unchecked: {why}" for why, n in sorted(counts.unchecked.items()))
        if prop is Tokens and not self.rules.exact_tokens:
            unmodelled = ", ".join(sorted(self.rules.unmodelled))
            text += f"; gains not checked exactly (rules not modelled: {unmodelled})"
        return text

    def _result(self, name: str, status: str, message: str, replay: dict[str, Any] | None = None,
                saved: Path | None = None) -> PropertyResult:
        prop = _BY_NAME[name]
        return PropertyResult(name, status, f"{message} (seed {self.seed})", replay,
                              self.rules.edition.id, self.rules.players, self.seed, saved,
                              prop.protects, tuple(self.rules.rests_on(prop.kinds)))


def _with_replay(message: str, replay: Json | None, attempt: Json | None = None) -> str:
    """The message followed by the exact replay, as one line of compact JSON, ending with the
    action the engine crashed on or refused (`attempt`), as the case does."""
    if replay is None:
        return message
    return f"{message}; replay: {json.dumps(with_attempt(replay, attempt), separators=(',', ':'))}"


def _close(engines: list[Engine]) -> None:
    """Close every engine, whatever state it is in."""
    for engine in engines:
        with contextlib.suppress(Exception):  # a dead engine needs no closing; its failure is reported
            engine.close()


def _violation(group: BaseException) -> Violation | None:
    """The first Violation inside an exception group."""
    if isinstance(group, Violation):
        return group
    for inner in getattr(group, "exceptions", ()):
        found = _violation(inner)
        if found is not None:
            return found
    return None


def _nondeterminism(exc: BaseException) -> Violation:
    """A replay violation for an engine that answered the same requests differently."""
    return violation("replay")("the engine answered the same requests differently when hypothesis "
                               f"replayed a game ({one_line(exc)[:200]})")
