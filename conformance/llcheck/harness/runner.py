"""Run conformance cases against an engine and find the first point where it diverges.

`run_case` plays one case on a fresh game of an `Engine` and returns its `Result`; it never
raises for what the engine does (a crash, a hang, a protocol breach or an adapter's exception
is an `errored` result). `run_cases` runs many on `jobs` engines in parallel, one engine per
worker, replacing an engine that broke, and hands each result over as soon as it exists.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from loveletter_ref.lockstep import Answers, Divergence, Json, Lockstep, Parted, Place

from ..engines.base import Engine, EngineFailure, Reply
from ..engines.guard import AdapterFailure, adapters_own, described, raised
from ..engines.onestep import as_plays, combined
from ..engines.pipes import printable
from ..engines.subprocess import EngineGone, SubprocessEngine
from .applicable import case_reason, observation_reason
from .cases import Case
from .charge import charged
from .compare import MISSING, actions_detail, comparable, events_detail, partial_difference, without_tokens
from .results import ERRORED, FAILED, NOT_APPLICABLE, PASSED, SKIPPED, Result

RESTART_ATTEMPTS = 2
"""Consecutive failed restarts after which a worker stops trying and reports its cases as errored."""


def result_for(case: Case, status: str, **fields: Any) -> Result:
    """A Result describing `case`."""
    return Result(case.id, status, kind="case", group=case.status, edition=case.edition, players=case.players,
                  clauses=tuple(case.clauses), tags=tuple(case.tags), description=case.description,
                  file=f"{shown(case.path)}:{case.line}", **fields)


def shown(path: Path) -> str:
    """A path relative to the current directory when it lies below it, else as it is."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def run_case(engine: Engine, case: Case, case_timeout: float | None = None) -> Result:
    """Play `case` on a fresh game of `engine`; passed, failed (with its divergence), errored or skipped.

    `case_timeout` bounds the whole case for engines that run in their own process.
    """
    began = time.perf_counter()
    reason = case_reason(engine.hello, case)
    if reason is not None:
        return result_for(case, NOT_APPLICABLE, message=reason)
    reason = observation_reason(engine.hello, case)
    if reason is not None:
        return result_for(case, SKIPPED, message=reason)
    play = _Play(engine, case)
    try:
        with _time_limit(engine, case_timeout):
            play.run()
    except Parted as exc:
        found = exc.divergence
        return result_for(case, FAILED, message=found.summary(), divergence=found,
                          seconds=time.perf_counter() - began,
                          charged=charged(case.status, case.edition, tuple(case.clauses), found))
    except EngineFailure as exc:
        return _errored(case, play.at, _one_line(str(exc)), began,
                        broken=isinstance(exc, (EngineGone, AdapterFailure)))
    except BaseException as exc:  # an in-process adapter's bug (sys.exit() too): report it, replace it
        if not adapters_own(exc):
            raise
        return _errored(case, play.at, raised(exc), began, broken=True)
    return result_for(case, PASSED, seconds=time.perf_counter() - began)


def _errored(case: Case, at: Place | None, reason: str, began: float, *, broken: bool) -> Result:
    """The errored result of a case whose engine failed at `at`: where, as a failure says it, then why."""
    message = f"{_one_line(at.where())}: {reason}" if at is not None else reason
    return result_for(case, ERRORED, message=message, location=at, seconds=time.perf_counter() - began,
                      engine_broken=broken)


def _time_limit(engine: Engine, seconds: float | None) -> contextlib.AbstractContextManager[None]:
    """The case's time limit, for engines in their own process (an in-process one cannot be stopped)."""
    if isinstance(engine, SubprocessEngine):
        return engine.time_limit(seconds)
    return contextlib.nullcontext()


def _one_line(text: str) -> str:
    return printable(text, 1000)


class _Engine:
    """The engine, as the second side of a case played in lockstep with what the case expects: its
    first deal starts the case's game, every later one deals the next round."""

    def __init__(self, engine: Engine, case: Case):
        self.engine = engine
        self.case = case
        self.started = False
        self.hold = False
        """Set for a play whose keep comes next, to an engine that takes both in one action."""
        self.held: Json | None = None

    def deal(self, deck: Sequence[str], /) -> Reply:
        if self.started:
            return self.engine.next_round(list(deck))
        self.started = True
        case = self.case
        tokens = list(case.tokens) if case.tokens is not None else [0] * case.players
        return self.engine.start(case.edition, case.players, list(deck), case.first_player, tokens)

    def act(self, action: Json, /) -> Reply:
        if self.hold:  # nothing is sent yet: the engine answers the play with its keep
            self.hold, self.held = False, action
            return Reply(True)
        if self.held is not None and action.get("type") == "keep":
            reply = self.engine.apply(combined(self.held, action))
            if reply.accepted:  # refused, the play waits for the next keep the case tries
                self.held = None
            return reply
        return self.engine.apply(action)


def _expected(case: Case) -> Iterator[Json]:
    """What the case expects, input by input: each round as it is dealt, then each of its steps."""
    for round_ in case.rounds:
        yield round_
        yield from round_.get("steps", ())


class _Play:
    """One case being played: what it expects and the engine in lockstep, what the engine claims,
    and the last state it reported."""

    def __init__(self, engine: Engine, case: Case):
        self.engine = engine
        self.case = case
        self.hello = engine.hello
        self.state: Json = {}
        self.side = _Engine(engine, case)
        self.steps: Lockstep[Sequence[str], Json, Json, Reply] = Lockstep(Answers(_expected(case)), self.side)

    def _one_step(self, step: Json, later: Sequence[Json]) -> bool:
        """True for a play to be sent with the keep that follows it, as one action (capability
        `one_step_chancellor`): its own expectations, the rules' state between the two, go unchecked."""
        return (self.hello.can("one_step_chancellor") and step["action"].get("type") == "play"
                and not step.get("refused") and bool(later) and later[0]["action"].get("type") == "keep")

    @property
    def at(self) -> Place | None:
        """The deal or step being played (where an engine failure is reported)."""
        return self.steps.place

    def run(self) -> None:
        """Play every round and step; raise Parted at the first difference."""
        case = self.case
        for round_ in case.rounds:
            want, reply = self.steps.deal(round_["deck"])
            if want.get("refused"):
                if reply.accepted:
                    self._parted("deal accepted", "refused", "accepted",
                                 "the engine dealt a deck the rules do not allow")
                return
            if not reply.accepted:
                self._parted("deal refused", "accepted", _refusal(reply),
                             f"the engine refused the deal: {_refusal_text(reply)}")
            self._take(reply)
            if "start" in want:
                self._expect(want["start"], reply)
            steps = want.get("steps", ())
            for index, step in enumerate(steps):
                self.side.hold = self._one_step(step, steps[index + 1:])
                self._step(step["action"])
        if case.result is not None:
            self._partial(case.result, self.state, "result", at_end=True)

    def _take(self, reply: Reply) -> None:
        """Remember the state an accepted reply reports (asking for it when the reply has none)."""
        self.state = reply.state if reply.state is not None else self.engine.state()

    def _step(self, action: Json) -> None:
        want, reply = self.steps.act(action)
        if want.get("refused"):
            if reply.accepted:
                self._parted("action accepted", "refused", "accepted",
                             "the engine accepted an action the rules forbid")
            after = self.engine.state()
            self._partial(comparable("state", self.state), after, "state", after_refusal=True)
            return
        if not reply.accepted:
            self._parted("action refused", "accepted", _refusal(reply),
                         f"the engine refused it: {_refusal_text(reply)}")
        if self.side.held is not None:
            return  # a play held for its keep: the engine has not moved
        self._take(reply)
        if "expect" in want:
            self._expect(want["expect"], reply)

    def _expect(self, expect: Json, reply: Reply) -> None:
        """Check one set of expectations, each only when the engine claims what it needs."""
        if "events" in expect and self.hello.can("events"):
            want, got = expect["events"], reply.events
            if not self.hello.can("tokens"):
                want, got = without_tokens(want), without_tokens(got)
            detail = events_detail(want, got)
            if detail is not None:
                self._parted("events", want, got, detail)
        if "state" in expect:
            self._partial(expect["state"], self.state, "state")
        if "legal_actions" in expect and self.hello.can("legal_actions"):
            actual = self.engine.legal_actions()
            if self.hello.can("one_step_chancellor"):
                actual = as_plays(actual)
            detail = actions_detail(expect["legal_actions"], actual)
            if detail is not None:
                self._parted("legal_actions", expect["legal_actions"], actual, detail)
        if "views" in expect and self.hello.can("views"):
            for seat, partial in expect["views"].items():
                view = self.engine.view(int(seat))
                self._partial(partial, view, f"view {seat}", log_key="log")

    def _partial(self, expected: Json, actual: Json, name: str, log_key: str | None = None,
                 after_refusal: bool = False, at_end: bool = False) -> None:
        """Parted at the first key of `expected` that `actual` does not match (`at_end`: the case's
        result, checked after its last step). An engine without capability `tokens` is not asked
        about them."""
        if not self.hello.can("tokens"):
            expected, actual = without_tokens(expected, log_key), without_tokens(actual, log_key)
        found = partial_difference(expected, actual, log_key)
        if found is not None:
            key, got, detail = found
            what = f"{name}.{key}" + (" (changed by a refused action)" if after_refusal else "")
            value = None if got is MISSING else got
            if at_end:
                raise Parted(Divergence(None, None, what, expected[key], value, detail))
            self._parted(what, expected[key], value, detail)

    def _parted(self, what: str, expected: Any, actual: Any, detail: str) -> NoReturn:
        raise Parted(self.steps.part(what, expected, actual, detail))


def _refusal(reply: Reply) -> Json:
    out: Json = {"refused": reply.reason}
    if reply.clause:
        out["clause"] = reply.clause
    return out


def _refusal_text(reply: Reply) -> str:
    text = reply.reason or "(no reason given)"
    return f"{text} [{reply.clause}]" if reply.clause else text


# -- many cases ----------------------------------------------------------------------------------


@dataclass
class Outcome:
    """Every result of a run, in the order the cases were given, and whether it was interrupted."""

    results: list[Result]
    interrupted: bool = False


STOP_GRACE = 5.0
"""Seconds the workers are given to stop once a run is interrupted."""


class _Worker(threading.Thread):
    """Takes cases from a shared queue and runs them on its own engine, replacing it when broken."""

    def __init__(self, todo: queue.Queue[tuple[int, Case]], done: queue.Queue[tuple[int, Result]],
                 make_engine: Callable[[], Engine], engine: Engine | None, stop: threading.Event,
                 case_timeout: float | None):
        super().__init__(daemon=True)
        self.todo, self.done, self.make_engine = todo, done, make_engine
        self.engine = engine
        self.stop = stop
        self.case_timeout = case_timeout
        self.failed_starts = 0
        self.start_error = ""

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                try:
                    index, case = self.todo.get_nowait()
                except queue.Empty:
                    return
                try:
                    result = self._run(case)
                except BaseException as exc:  # noqa: BLE001 - a thread gets no real signal: nothing may end it
                    self.close()
                    result = result_for(case, ERRORED, message=_one_line(f"the run of this case failed: "
                                                                         f"{described(exc)}"),
                                        engine_broken=True)
                if self.stop.is_set() and result.engine_broken:
                    return  # cut short by the interruption: not a verdict
                self.done.put((index, result))
        finally:
            self.close()

    def _run(self, case: Case) -> Result:
        engine = self._engine()
        if engine is None:
            return result_for(case, ERRORED, message=f"not run: the engine could not be restarted: "
                                                     f"{self.start_error}", engine_broken=True, not_run=True)
        result = run_case(engine, case, self.case_timeout)
        if result.engine_broken:
            self.close()
        return result

    def _engine(self) -> Engine | None:
        if self.engine is None and self.failed_starts < RESTART_ATTEMPTS:
            try:
                self.engine = self.make_engine()
                self.failed_starts = 0
            except BaseException as exc:  # noqa: BLE001 - EngineFailure, or an adapter that cannot be built
                self.failed_starts += 1
                self.start_error = (_one_line(str(exc)) if isinstance(exc, Exception) else "") \
                    or described(exc)
        return self.engine

    def close(self) -> None:
        """Stop this worker's engine."""
        engine, self.engine = self.engine, None
        if engine is not None:
            with contextlib.suppress(Exception):  # closing a broken engine must not lose any result
                engine.close()

    def kill(self) -> None:
        """Stop this worker's engine process at once, from another thread (after Ctrl-C)."""
        kill = getattr(self.engine, "kill", None)
        if kill is not None:
            kill()


def run_cases(cases: Iterable[Case], make_engine: Callable[[], Engine], *, jobs: int = 1,
              engine: Engine | None = None, on_result: Callable[[Result], None] | None = None,
              case_timeout: float | None = None, stop: threading.Event | None = None) -> Outcome:
    """Run `cases` on `jobs` engines in parallel; `on_result` sees each result as it is made.

    `engine`, when given, is used by the first worker (and closed at the end). `case_timeout`
    bounds each case of a protocol engine. Setting `stop` (or Ctrl-C) interrupts the run: the
    engines are killed, the cases they were running are dropped, and every result finished
    before is handed over and returned, with `interrupted` set.
    """
    listed = list(cases)
    todo: queue.Queue[tuple[int, Case]] = queue.Queue()
    for item in enumerate(listed):
        todo.put(item)
    done: queue.Queue[tuple[int, Result]] = queue.Queue()
    stop = stop or threading.Event()
    workers = [_Worker(todo, done, make_engine, engine if n == 0 else None, stop, case_timeout)
               for n in range(max(1, min(jobs, len(listed))))]
    results: dict[int, Result] = {}

    def take(index: int, result: Result) -> None:
        results[index] = result
        if on_result is not None:
            on_result(result)

    try:
        for worker in workers:
            worker.start()
        while len(results) < len(listed) and not stop.is_set():
            try:
                take(*done.get(timeout=0.1))
            except queue.Empty:
                if not any(w.is_alive() for w in workers) and done.empty():
                    break
    except KeyboardInterrupt:
        stop.set()
    _finish(workers, stop.is_set())
    while not done.empty():
        take(*done.get_nowait())
    if not stop.is_set():  # every worker ended, yet a case has no result: it is reported, not lost
        for index, case in enumerate(listed):
            if index not in results:
                take(index, result_for(case, ERRORED, message="not run: the worker running the cases "
                                                              "stopped before reaching it"))
    return Outcome([results[i] for i in sorted(results)], interrupted=stop.is_set())


def _finish(workers: list[_Worker], interrupted: bool) -> None:
    """Wait for the workers; after an interruption, kill their engines first and wait a little only."""
    if not interrupted:
        for worker in workers:
            worker.join()
        return
    for worker in workers:
        worker.kill()
    deadline = time.monotonic() + STOP_GRACE
    for worker in workers:
        worker.join(max(0.0, deadline - time.monotonic()))
