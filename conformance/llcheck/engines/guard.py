"""In-process adapters (`python:MODULE:CLASS`) behind a guard.

An adapter runs inside llcheck, so whatever it raises lands in the harness: not only exceptions
but `sys.exit()` (SystemExit), a stray `raise KeyboardInterrupt` or GeneratorExit, which would
end a worker thread or the whole command and lose the run. `Guarded` turns everything an
adapter's method lets out into `AdapterFailure`, an `EngineFailure` whose message says what it
raised (`the engine raised SystemExit(5)`), so that the case, game or count it was playing fails
and the run goes on. A KeyboardInterrupt that may come from a real Ctrl-C (`real_interrupt`)
passes through. `checked_hello` refuses an adapter whose `hello` is missing or not a `Hello`,
and reads it as a hello over the protocol is read: editions as a tuple, capabilities as a
frozenset of those this llcheck knows, the others (a typo) set apart in `ignored` for the report.

The guard also keeps the harness and the adapter apart as a protocol does: the adapter gets its
own copy of every deck and action (changing one cannot change what the harness records), and
what it answers must be a `Reply` holding JSON values (a tuple where a list belongs is named as
such, not compared as a different value).
"""

from __future__ import annotations

import contextlib
import dataclasses
import sysconfig
import traceback
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from loveletter_ref.errors import with_article

from ..interrupts import real_interrupt
from .base import Engine, EngineFailure, Hello, Json, Reply, known_capabilities
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
    """`the engine raised TypeError: ... (at my_engine.py:42, in apply)` (`described`, and for an
    exception where it was raised)."""
    return f"the engine raised {described(exc)}{where(exc) if isinstance(exc, Exception) else ''}"


def where(exc: BaseException) -> str:
    """` (at FILE:LINE, in FUNCTION)`: the innermost frame of `exc`'s traceback in a real file
    outside Python's own library (a KeyError is located at the adapter's line that looked up, not
    inside a dict; a frozen dataclass's refusal at the assignment, not in its generated
    `<string>` code), FILE relative to the working folder when below it; '' without a traceback."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return ""
    library = {sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib")}
    ours = [f for f in frames if _source_file(f.filename)
            and not any(f.filename.startswith(folder) for folder in library)]
    frame = (ours or frames)[-1]
    path = Path(frame.filename)
    with contextlib.suppress(ValueError):
        path = path.relative_to(Path.cwd())
    return f" (at {printable(str(path), 200)}:{frame.lineno}, in {printable(frame.name, 100)})"


def _source_file(name: str) -> bool:
    """True when a frame's file name is a file on disk (not `<string>`, `<frozen ...>`, `<stdin>`)."""
    try:
        return Path(name).is_file()
    except OSError:  # a folder it may not look into
        return False


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
    version = hello.capabilities_version
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        problems.append("capabilities_version is not a positive integer")
    players = hello.players
    if not isinstance(players, Mapping) or not all(
            isinstance(counts, Collection) and all(type(n) is int and n > 0 for n in counts)
            for counts in players.values()):
        problems.append("players is not a mapping of edition ids to player counts")
    if problems:
        raise EngineFailure(f"its hello is unusable: {'; '.join(problems)}")
    known, unknown = known_capabilities(hello.capabilities)
    return dataclasses.replace(hello, editions=tuple(hello.editions), capabilities=known,
                               players={str(e): tuple(sorted(set(n))) for e, n in players.items()},
                               ignored=tuple(dict.fromkeys([*hello.ignored, *unknown])))


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
        copied = list(tokens) if tokens is not None else None
        return _reply("start", self._call(self.inner.start, edition, players, list(deck), first_player,
                                          copied))

    def next_round(self, deck: Sequence[str]) -> Reply:
        return _reply("next_round", self._call(self.inner.next_round, list(deck)))

    def deal(self, edition: str, players: int, seed: int, first_player: int = 0,
             tokens: Sequence[int] | None = None) -> Reply:
        copied = list(tokens) if tokens is not None else None
        return _reply("start", self._call(self.inner.deal, edition, players, seed, first_player, copied))

    def legal_actions(self) -> list[Json]:
        return _json("legal_actions", self._call(self.inner.legal_actions), list)

    def apply(self, action: Json) -> Reply:
        return _reply("apply", self._call(self.inner.apply, _copied(action)))

    def state(self) -> Json:
        return _json("state", self._call(self.inner.state), dict)

    def view(self, player: int) -> Json:
        return _json("view", self._call(self.inner.view, player), dict)

    def close(self) -> None:
        self._call(self.inner.close)

    def __getattr__(self, name: str) -> Any:
        """Anything else the adapter offers (looked up only when not found here)."""
        if name == "inner":  # not set yet (a failed __init__): no recursion
            raise AttributeError(name)
        return getattr(self.inner, name)


def _copied(value: Any) -> Any:
    """A copy of a JSON value that shares nothing with it."""
    if isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copied(item) for item in value]
    return value


def _reply(request: str, reply: Any) -> Reply:
    """The adapter's answer to `request`, when it is a Reply of JSON values (AdapterFailure if not)."""
    if not isinstance(reply, Reply):
        raise AdapterFailure(f"the engine's {request} returned {type(reply).__name__}, not an "
                             "llcheck.engines.Reply")
    if reply.state is not None:
        _json("state", reply.state, dict, f" answering {request}")
    _json("events", reply.events, list, f" answering {request}")
    return reply


def _json(what: str, value: Any, kind: type, context: str = "") -> Any:
    """`value` when it is a JSON value of `kind` (dict: an object, list: an array) all through;
    AdapterFailure naming the first place where it is not."""
    expected = "a dict (a JSON object)" if kind is dict else "a list (a JSON array)"
    if not isinstance(value, kind):
        found = with_article(type(value).__name__)
        raise AdapterFailure(f"the engine's {what}{context} is {found}, not {expected}")
    if _plain_json(value):
        return value
    wrong = _not_json(value, "")
    if wrong is None:  # a subclass of str, int, list or dict: JSON too
        return value
    raise AdapterFailure(f"the engine's {what}{context} is not JSON: {what}{wrong} (JSON values are "
                         "expected all through: lists, not tuples)")


def _plain_json(value: Any) -> bool:
    """True when `value` is JSON built of exactly lists, dicts with string keys, strings, numbers,
    booleans and None: the usual answer, confirmed five times faster than `_not_json` walks it
    (that walk names each place as it goes, and now runs only to say what is wrong)."""
    items: Any = value
    if type(value) is dict:
        for key in value:  # a loop, not any(...): no generator on this hot path
            if type(key) is not str:
                return False
        items = value.values()
    elif type(value) is not list:  # a subclass: walked by _not_json
        return False
    for item in items:
        kind = type(item)
        if kind is str or item is None or kind is int or kind is bool or kind is float:
            continue
        if (kind is not list and kind is not dict) or not _plain_json(item):
            return False
    return True


def _not_json(value: Any, at: str) -> str | None:
    """Where a value stops being JSON (`.deck is a tuple`), or None."""
    if value is None or isinstance(value, (str, bool, int, float)):
        return None
    if isinstance(value, list):
        return next((found for i, item in enumerate(value) if (found := _not_json(item, f"{at}[{i}]"))), None)
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"{at} has the key {key!r}, not a string"
            found = _not_json(item, f"{at}.{key}")
            if found:
                return found
        return None
    return f"{at} is {with_article(type(value).__name__)}"
