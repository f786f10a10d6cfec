"""Open the engine a user names on the command line.

- `reference`: the bundled reference engine, in process;
- `python:MODULE:CLASS`: an in-process adapter, a subclass of `Engine` (or any callable returning
  an `Engine`) imported from MODULE (the current directory is searched first);
- anything else: a command that speaks the protocol, split like a shell would (no shell is used).
"""

from __future__ import annotations

import functools
import importlib
import os
import shlex
import sys
from collections.abc import Callable, Sequence
from typing import Any

from loveletter_ref.errors import escape_controls
from loveletter_ref.spec import load_spec

from ..errors import UsageError
from ..specs import as_described
from .base import Engine, EngineFailure
from .guard import Guarded, adapters_own, described
from .pipes import printable
from .process import Launch
from .reference import ReferenceEngine
from .subprocess import START_TIMEOUT, SubprocessEngine, TimedOut

REFERENCE = "reference"
"""The impl name of the in-process reference engine."""

PYTHON_PREFIX = "python:"
"""The impl prefix of in-process adapters."""

Impl = str | Sequence[str]
"""An engine as the user names it: a string (see the module docstring) or a command's argv."""


def serve_command(specs: Sequence[str] = ()) -> list[str]:
    """The bundled reference engine as a protocol program (this Python running `llcheck serve`),
    playing `specs` (ids or files) when given, else every bundled one."""
    return [sys.executable, "-m", "llcheck", "serve", *(arg for spec in specs for arg in ("--spec", spec))]


def in_process(impl: Impl) -> bool:
    """True when `impl` names an engine that runs inside this Python process."""
    return isinstance(impl, str) and (impl == REFERENCE or impl.startswith(PYTHON_PREFIX))


def describe(impl: Impl) -> str:
    """The impl as a user would type it (control characters escaped, for a terminal)."""
    return escape_controls(impl if isinstance(impl, str) else shlex.join(impl))


def start_failure(impl: Impl, exc: EngineFailure) -> str:
    """Why the engine `impl` could not be started, in one line; for one too slow to say hello, with
    the option that allows it more time (`--timeout`, which check, record and perft share)."""
    text = f"cannot talk to the engine {describe(impl)}: {exc}"
    if isinstance(exc, TimedOut):
        text += f" (to allow a slower start, raise --timeout: the hello waits the longer of --timeout and " \
                f"{START_TIMEOUT:g}s)"
    return text


def open_engine(impl: Impl, *, timeout: float = 10.0, validate: bool = False,
                launch: Launch | None = None, specs: Sequence[str] = (), guard: bool = False) -> Engine:
    """A fresh engine for `impl`; `timeout`, `validate` and `launch` apply to protocol programs,
    `specs` (ids or files) to the in-process reference, which plays them instead of the bundled ones.
    With `guard`, an in-process adapter is wrapped in `guard.Guarded` (its hello checked, whatever
    it raises an EngineFailure); `llcheck serve` leaves it bare, as its server reports errors itself.

    UsageError when `impl` cannot name an engine; EngineFailure when it does not start.
    """
    if isinstance(impl, str) and impl == REFERENCE:
        return ReferenceEngine({spec.id: spec for spec in (as_described(load_spec(name)) for name in specs)}
                               if specs else None)
    if isinstance(impl, str) and impl.startswith(PYTHON_PREFIX):
        engine = _python_engine(impl)
        return Guarded(engine) if guard else engine
    argv = command_line(impl) if isinstance(impl, str) else list(impl)
    return SubprocessEngine(argv, timeout=timeout, validate=validate, launch=launch)


def command_line(impl: str) -> list[str]:
    """A command split like a shell would split it (UsageError when it is empty or unbalanced)."""
    try:
        argv = shlex.split(impl)
    except ValueError as exc:
        raise UsageError(f"cannot read the engine command {impl!r}: {exc}") from None
    if not argv:
        raise UsageError("the engine command is empty")
    return argv


def engine_factory(impl: Impl, *, timeout: float = 10.0, validate: bool = False,
                   launch: Launch | None = None, specs: Sequence[str] = ()) -> Callable[[], Engine]:
    """A zero-argument callable returning a fresh engine for `impl` each time (an in-process
    adapter guarded: see `open_engine`)."""
    return functools.partial(open_engine, impl, timeout=timeout, validate=validate, launch=launch,
                             specs=specs, guard=True)


def load_object(impl: str) -> Any:
    """The object a `python:MODULE:NAME` impl names: UsageError when no such module or name exists,
    EngineFailure when the module exists but raises as it is imported (a dependency it lacks, say)."""
    module_name, sep, name = impl[len(PYTHON_PREFIX):].rpartition(":")
    if not sep or not module_name or not name:
        raise UsageError(f"expected python:MODULE:CLASS, not {impl!r}")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except BaseException as exc:
        if not adapters_own(exc):
            raise
        message = f"cannot import {module_name!r} for {printable(impl)}: {described(exc)}"
        missing = getattr(exc, "name", None) if isinstance(exc, ModuleNotFoundError) else None
        if missing is not None and (module_name == missing or module_name.startswith(missing + ".")):
            # a wrong name, or a folder not searched: the command line is to fix
            raise UsageError(f"{message} (modules are looked for in the working folder and on "
                             "PYTHONPATH)") from None
        raise EngineFailure(message) from None  # the module is there and fails: the engine cannot start
    try:
        return getattr(module, name)
    except AttributeError:
        raise UsageError(f"module {module_name!r} has no {name!r}") from None


def _python_engine(impl: str) -> Engine:
    factory = load_object(impl)
    if not callable(factory):
        raise UsageError(f"{impl} is not a class or a callable")
    try:
        engine = factory()
    except EngineFailure:
        raise
    except BaseException as exc:  # the adapter's own failure to start (sys.exit() too)
        if not adapters_own(exc):
            raise
        raise EngineFailure(f"{printable(impl)} could not be created: {described(exc)}") from None
    if not isinstance(engine, Engine):
        raise UsageError(f"{impl} made a {type(engine).__name__}, not an llcheck.engines.Engine")
    return engine
