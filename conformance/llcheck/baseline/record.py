"""Recording a baseline: every corpus case of one edition, then seeded random games.

The engine is asked for what its capabilities allow (`observe`). A case it cannot run (an
edition it does not play, a capability it lacks) is written down as skipped, with the reason.
An engine that crashes or hangs is recorded failing there, then replaced for the next case; one
that cannot be started again stops the recording with EngineFailure (nothing is written).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass

from loveletter_ref.spec import Edition

from ..engines.base import CAPABILITIES, Engine, EngineFailure, Hello
from ..engines.guard import adapters_own, described
from ..errors import UsageError
from ..harness.applicable import case_reason, needs_of, observation_reason
from ..harness.cases import STATUSES, Case
from .delta import Json
from .observe import Observer
from .store import FORMAT, VERSION, Baseline, BaselineError, Unit
from .units import RandomGame, case_script, game_seed, play_script

MakeEngine = Callable[[], Engine]


class EngineSlot:
    """One engine at a time: started when first needed, replaced after it broke."""

    def __init__(self, make_engine: MakeEngine):
        self.make_engine = make_engine
        self.engine: Engine | None = None

    def get(self) -> Engine:
        """The engine (starting one when there is none); EngineFailure when it cannot start."""
        if self.engine is None:
            try:
                self.engine = self.make_engine()
            except (EngineFailure, UsageError):
                raise
            except BaseException as exc:  # an in-process adapter that cannot be built (sys.exit() too)
                if not adapters_own(exc):
                    raise
                raise EngineFailure(f"the engine could not be started: {described(exc)}") from None
        return self.engine

    def observer(self, capabilities: frozenset[str]) -> Observer:
        """A fresh observer of the engine."""
        return Observer(self.get(), capabilities)

    def release(self, observer: Observer) -> None:
        """Drop the engine when the observer saw it break."""
        if observer.broken:
            self.close()

    def close(self) -> None:
        """Stop the engine (errors while stopping a broken engine are not news)."""
        engine, self.engine = self.engine, None
        if engine is not None:
            try:
                engine.close()
            except BaseException as exc:  # noqa: BLE001 - an adapter's close may even call sys.exit()
                if not adapters_own(exc):
                    raise


@dataclass(frozen=True)
class Plan:
    """What to record: the edition, its corpus cases, and how many random games from which seed."""

    edition: Edition
    cases: list[Case]
    games: int
    seed: int
    corpus: str | None
    groups: tuple[str, ...]

    @property
    def players(self) -> list[int]:
        """The player counts of the random games."""
        return list(range(self.edition.min_players, self.edition.max_players + 1)) if self.games else []

    @property
    def total(self) -> int:
        """Cases and games to record."""
        return len(self.cases) + self.games * len(self.players)


def recorded_capabilities(hello: Hello) -> frozenset[str]:
    """What a baseline notes of an engine's capabilities: those of version 1, which decide what
    its records hold (the later ones say how the engine is dealt and talked to, not what it
    answers)."""
    return hello.capabilities & frozenset(CAPABILITIES)


def record(slot: EngineSlot, plan: Plan, progress: Callable[[int], None] = lambda done: None) -> Baseline:
    """Record every case and game of the plan on the slot's engine."""
    hello = slot.get().hello
    capabilities = recorded_capabilities(hello)
    units: list[Unit] = []
    for case in plan.cases:
        units.append(_case(slot, case, capabilities))
        progress(len(units))
    for players in plan.players:
        for index in range(plan.games):
            seed = game_seed(plan.seed, plan.edition.id, players, index)
            units.append(_game(slot, plan.edition, players, seed, capabilities))
            progress(len(units))
    header = {"format": FORMAT, "version": VERSION, "edition": plan.edition.id,
              "generated": f"by llcheck record from {hello.name} {hello.version}; do not edit",
              "engine": {"name": hello.name, "version": hello.version},
              "capabilities": sorted(capabilities),
              "recorded": {"corpus": plan.corpus, "groups": list(plan.groups), "games": plan.games,
                           "seed": plan.seed, "players": plan.players}}
    return Baseline(header, units)


def _case(slot: EngineSlot, case: Case, capabilities: frozenset[str]) -> Unit:
    unit = Unit("case", case.id)
    hello = slot.get().hello
    reason = case_reason(hello, case) or observation_reason(hello, case)
    if reason is not None:
        unit.skipped = {"reason": reason, "needs": list(needs_of(case))}
        return unit
    observer = slot.observer(capabilities)
    unit.records = play_script(observer, unit.key, case_script(case))
    slot.release(observer)
    return unit


def _game(slot: EngineSlot, edition: Edition, players: int, seed: int, capabilities: frozenset[str]) -> Unit:
    observer = slot.observer(capabilities)
    game = RandomGame(observer, edition, players, seed)
    records = game.play("games" in capabilities)
    slot.release(observer)
    return Unit("game", game.key["game"], records)


def recorded_options(header: Json, editions: dict[str, str]) -> list[str]:
    """The `llcheck record` options that record again what a header says was recorded (an edition
    given as a file by its file, from `editions`)."""
    recorded, edition = header["recorded"], str(header["edition"])
    words = ["--edition", editions.get(edition, edition), "--games", str(recorded["games"]),
             "--seed", str(recorded["seed"])]
    if tuple(recorded["groups"]) != STATUSES:
        words += [word for group in recorded["groups"] for word in ("--status", group)]
    if recorded["corpus"] is not None:
        words += ["--corpus", recorded["corpus"]]
    return words


def recovery(exc: BaselineError, impl: str, engine_args: list[str], editions: dict[str, str]) -> str:
    """How to record again a file that is no usable baseline, when its header can still be read (a
    file cut short, a line broken): `; to record it again, ...`; '' otherwise."""
    if exc.header is None:
        return ""
    words = ["llcheck", "record", "--impl", impl, *engine_args, *recorded_options(exc.header, editions),
             "--out", exc.path]
    return f"; to record it again, remove the file and run: {shlex.join(words)}"
