"""In-process adapters (`python:MODULE:CLASS`) behind a guard.

An adapter runs inside llcheck, so whatever it raises lands in the harness: not only exceptions
but `sys.exit()` (SystemExit), a stray `raise KeyboardInterrupt` or GeneratorExit, which would
end a worker thread or the whole command and lose the run. `Guarded` turns everything an
adapter's method lets out into `AdapterFailure`, an `EngineFailure` whose message says what it
raised (`the engine raised SystemExit(5)`), so that the case, game or count it was playing fails
and the run goes on. A KeyboardInterrupt that may come from a real Ctrl-C (`real_interrupt`)
passes through. `checked_hello` refuses an adapter whose `hello` is missing or not a `Hello`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any, TypeVar

from ..harness.interrupts import real_interrupt
from .base import Engine, EngineFailure, Hello, Json, Reply
from .pipes import printable

T = TypeVar("T")


class AdapterFailure(EngineFailure):
    """An in-process adapter raised (an exception, SystemExit, ...): it is treated as broken."""


def adapters_own(exc: BaseException) -> bool:
    """True when `exc`, raised by an in-process adapter, is the adapter's failure rather than a
    real interruption: any exception, SystemExit, GeneratorExit, and a KeyboardInterrupt that
    cannot come from a signal (`real_interrupt`)."""
    if isinstance(exc, KeyboardInterrupt):
        return not real_interrupt()
    return isinstance(exc, (Exception, SystemExit, GeneratorExit))


def described(exc: BaseException) -> str:
    """`TypeError: ...`, or `SystemExit(5)` for the exceptions that are not errors, as one
    printable line."""
    if isinstance(exc, Exception):
        return printable(f"{type(exc).__name__}: {exc}", 1000)
    args = f"({', '.join(map(repr, exc.args))})" if exc.args else ""
    return printable(f"{type(exc).__name__}{args}", 1000)


def raised(exc: BaseException) -> str:
    """`the engine raised TypeError: ...` (`described`)."""
    return f"the engine raised {described(exc)}"


def checked_hello(engine: object) -> Hello:
    """The engine's `hello`, or EngineFailure saying what is wrong with it."""
    try:
        hello = engine.hello  # type: ignore[attr-defined]
    except AttributeError:
        raise EngineFailure("it has no hello attribute (an llcheck.engines.Hello)") from None
    except BaseException as exc:
        if not adapters_own(exc):
            raise
        raise EngineFailure(f"reading its hello: {raised(exc)}") from None
    if not isinstance(hello, Hello):
        raise EngineFailure(f"its hello is a {type(hello).__name__}, not an llcheck.engines.Hello")
    problems = [f"{field} is not a string" for field in ("name", "version")
                if not isinstance(getattr(hello, field), str)]
    for field in ("editions", "capabilities"):
        value = getattr(hello, field)
        if isinstance(value, (str, bytes)) or not isinstance(value, Collection) \
                or not all(isinstance(item, str) for item in value):
            problems.append(f"{field} is not a collection of strings")
    if problems:
        raise EngineFailure(f"its hello is unusable: {'; '.join(problems)}")
    return hello


class Guarded(Engine):
    """An in-process adapter whose every call is guarded (the module docstring)."""

    def __init__(self, engine: Engine):
        self.inner = engine
        self.hello = checked_hello(engine)

    def _call(self, request: Callable[..., T], *args: Any) -> T:
        try:
            return request(*args)
        except EngineFailure:
            raise
        except BaseException as exc:
            if not adapters_own(exc):
                raise
            raise AdapterFailure(raised(exc)) from None

    def start(self, edition: str, players: int, deck: Sequence[str], first_player: int = 0,
              tokens: Sequence[int] | None = None) -> Reply:
        return self._call(self.inner.start, edition, players, deck, first_player, tokens)

    def next_round(self, deck: Sequence[str]) -> Reply:
        return self._call(self.inner.next_round, deck)

    def legal_actions(self) -> list[Json]:
        return self._call(self.inner.legal_actions)

    def apply(self, action: Json) -> Reply:
        return self._call(self.inner.apply, action)

    def state(self) -> Json:
        return self._call(self.inner.state)

    def view(self, player: int) -> Json:
        return self._call(self.inner.view, player)

    def close(self) -> None:
        self._call(self.inner.close)

    def __getattr__(self, name: str) -> Any:
        """Anything else the adapter offers (looked up only when not found here)."""
        if name == "inner":  # not set yet (a failed __init__): no recursion
            raise AttributeError(name)
        return getattr(self.inner, name)
