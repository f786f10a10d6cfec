"""An engine program in any language, driven over the line-delimited JSON protocol.

The program is started without a shell in its own process group (`process.EngineProcess`, which
also applies the resource limits); each request waits at most `timeout` seconds for its answer
(the first, hello, waits `start_timeout`: by default the longer of `timeout` and 30 seconds,
since some programs take a while to start), and, inside `time_limit`, no longer than the case
has left. Anything that breaks the protocol (a crash, a hang, a line that is not JSON, an answer
to another request) raises `EngineGone` with a one-line reason and kills the program with every
process it started; an error answer (`"ok": false`), or a case out of time between requests,
raises `EngineFailure` and leaves the engine running. With `validate=True` every answer is also
checked against the published schema.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from itertools import repeat
from pathlib import Path
from typing import Any, TypeVar

from ..protocol.messages import PROTOCOL_VERSION, ProtocolError, decode, encode, field, objects
from ..protocol.schema import response_definition, schema_problem
from .base import CAPABILITIES_VERSION, Engine, EngineFailure, Hello, Json, Reply, known_capabilities
from .pipes import MAX_LINE, LineReader, LineTooLong, PipeTimeout, StderrTail, printable, write_all
from .process import EngineProcess, Launch

SEND_AHEAD = 1024
"""Bytes of requests `submit` keeps back before it writes them: few enough that the engine starts
on a game while the harness still plays the reference's side of it (a two-player classic game's
requests are one to two KiB), enough that a write wakes it for several requests. Measured with
`tools/bench_fuzz.py --node` (docs/performance.md): 4 KiB gave 592 rounds/s, 1 KiB 808."""

START_TIMEOUT = 30.0
"""Seconds an engine may take to start and answer hello, when its per-request timeout is shorter."""

MESSAGE_LIMIT = 500
"""Characters of a failure message; the rest of what an engine wrote is left out."""

__all__ = ["MAX_LINE", "START_TIMEOUT", "EngineGone", "Launch", "SubprocessEngine", "TimedOut"]

T = TypeVar("T")


class EngineGone(EngineFailure):
    """The engine process crashed, hung or broke the protocol; it has been stopped."""


class TimedOut(EngineGone):
    """The engine did not read a request, or answer it, in the time allowed; it has been stopped."""


class _CaseClock:
    """The time a case has left (`time_limit`)."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds

    def left(self) -> float:
        """Seconds left (negative when over)."""
        return self.deadline - time.monotonic()

    def over(self) -> str:
        """The reason a case out of time is errored."""
        return f"the case took longer than {self.seconds:g}s"


class SubprocessEngine(Engine):
    """A program speaking the protocol on stdin/stdout (docs/protocol.md)."""

    def __init__(self, command: str | Sequence[str], *, timeout: float = 10.0, validate: bool = False,
                 start_timeout: float | None = None, cwd: str | Path | None = None,
                 env: dict[str, str] | None = None, launch: Launch | None = None):
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise EngineFailure("the engine command is empty")
        self.command = shlex.join(self.argv)
        self.timeout = timeout
        self.validate = validate
        self.gone: str | None = None
        self.requests = 0
        self.sent: deque[tuple[int, str, bool]] = deque()
        """Requests sent and not yet answered, oldest first: number, op, combined (one at a time
        but for requests `submit` sends ahead, to an engine claiming `pipelining`)."""
        self.outgoing = bytearray()
        """Requests `submit` has not written yet (written together: each write wakes the engine)."""
        self.clock: _CaseClock | None = None
        self.launch = launch or Launch(cwd=str(cwd) if cwd is not None else None, env=env or {})
        self.program = self._start()
        self.process = self.program.popen
        assert self.process.stdin and self.process.stdout and self.process.stderr
        self.stdin = self.process.stdin.fileno()
        self.reader = LineReader(self.process.stdout.fileno())
        self.stderr = StderrTail(self.process.stderr.fileno())
        try:
            wait = max(timeout, START_TIMEOUT) if start_timeout is None else start_timeout
            self.hello = self._handshake(wait)
        except BaseException as exc:
            if not isinstance(exc, EngineFailure):  # Ctrl-C while waiting for the hello: no goodbyes
                self.kill()
            self.close()
            raise
        self.combined_readers = {op: combined_reply_of(op, self.hello)
                                 for op in ("start", "next_round", "apply")}
        """How a combined reply to each of start, next_round and apply is read (made once)."""

    def _start(self) -> EngineProcess:
        """Start the program (EngineGone when it cannot be)."""
        try:
            return EngineProcess(self.argv, self.launch)
        except OSError as exc:
            program = self.argv[0]
            if isinstance(exc, FileNotFoundError) and exc.filename == program and os.sep not in program:
                hint = ""
                if program == "llcheck":
                    this = shlex.join([sys.executable, "-m", "llcheck"])
                    hint = f" (activate its virtual environment, or start it as {this})"
                raise EngineGone(f"cannot start {program!r}: no such program on the PATH{hint}") from None
            where = f" in {self.launch.cwd}" if self.launch.cwd and exc.filename == self.launch.cwd else ""
            raise EngineGone(f"cannot start {program!r}{where}: {exc.strerror or exc}") from None
        except subprocess.SubprocessError as exc:
            raise EngineGone(f"cannot start {self.argv[0]!r}: {exc}") from None

    # -- the conversation --------------------------------------------------------------------

    def _handshake(self, timeout: float) -> Hello:
        """Ask for the hello, waiting `timeout`; EngineGone when it is unusable."""
        answer = self._call("hello", timeout, protocol=PROTOCOL_VERSION,
                            capabilities_version=CAPABILITIES_VERSION)
        try:
            return _hello(answer)
        except ProtocolError as exc:
            raise self._lost(f"handshake: {exc}") from None

    @contextlib.contextmanager
    def time_limit(self, seconds: float | None) -> Iterator[None]:
        """Within the block, requests fail once `seconds` have passed (None: no limit)."""
        self.clock = _CaseClock(seconds) if seconds is not None else None
        try:
            yield
        finally:
            self.clock = None

    def _call(self, op: str, timeout: float | None = None, **fields: Any) -> Json:
        """Send one request and return its (successful) answer, waiting `timeout` (default: the engine's)."""
        if self.gone is not None:
            raise EngineGone(self.gone)
        wait = self._wait(timeout, f"{op} (request {self.requests + 1})")
        deadline = time.monotonic() + wait
        number = self._send(op, fields, wait)
        return self._receive(number, wait, deadline)

    def _send(self, op: str, fields: dict[str, Any], wait: float, later: bool = False) -> int:
        """Write one request (its number), within `wait` seconds, after those `submit` kept back;
        with `later`, keep it back too (unless enough are kept to be worth a write)."""
        self.requests += 1
        number = self.requests
        self.outgoing += encode({"id": number, "op": op, **fields})
        self.sent.append((number, op, bool(fields.get("combined"))))
        if not later or len(self.outgoing) >= SEND_AHEAD:
            self._write(f"{op} (request {number})", wait)
        return number

    def _write(self, what: str, wait: float) -> None:
        """Write every request kept back; what the engine answers meanwhile to requests sent before
        is kept to be read in turn."""
        data, self.outgoing = bytes(self.outgoing), bytearray()
        ahead = self.reader if len(self.sent) > 1 else None
        try:
            write_all(self.stdin, data, wait, ahead)
        except PipeTimeout:
            raise self._lost(self._late(what, wait, unread=True), TimedOut) from None
        except (BrokenPipeError, ConnectionResetError):
            raise self._lost(self._ended(what, reading=True)) from None
        except EOFError:
            raise self._lost(self._ended(what, partial=self.reader.pending())) from None

    def _receive(self, number: int, wait: float, deadline: float | None = None) -> Json:
        """The (successful) answer to request `number`, the oldest unanswered, waiting `wait` seconds
        (until `deadline`, when the wait began earlier)."""
        expected, op, combined = self.sent.popleft()
        assert expected == number, f"answers are read in the order sent ({number} before {expected})"
        what = f"{op} (request {number})"
        try:
            line = self.reader.readline(wait if deadline is None else deadline - time.monotonic())
        except PipeTimeout:
            raise self._lost(self._late(what, wait), TimedOut) from None
        except EOFError:
            raise self._lost(self._ended(what, partial=self.reader.pending())) from None
        except LineTooLong as exc:
            raise self._lost(f"the answer to {what} {exc}") from None
        try:
            answer = decode(line)
        except ProtocolError as exc:
            raise self._lost(f"the answer to {what} {_as_clause(exc)}: {_start_of(line)}") from None
        return self._check(op, number, answer, combined)

    # -- pipelining (capability `pipelining`) ----------------------------------------------------

    def submit(self, op: str, **fields: Any) -> int:
        """Send a request without waiting for its answer (to an engine claiming `pipelining`): its
        number, for `result`. Answers are read in the order their requests were sent. Requests are
        kept back until SEND_AHEAD bytes of them are, or an answer is read: each write wakes the
        engine, and on a busy machine each wake-up costs a switch between the two processes."""
        if self.gone is not None:
            raise EngineGone(self.gone)
        return self._send(op, fields, self._wait(None, f"{op} (request {self.requests + 1})"), later=True)

    def result(self, number: int, parse: Callable[[Json], T]) -> T:
        """The answer to request `number` (sent by `submit`, the oldest unanswered), read by `parse`
        (one of `reply_of`, `actions_of`, `state_of`, `view_of`): EngineFailure when the engine
        answered with an error, EngineGone when it broke the protocol, as for any request."""
        if self.gone is not None:
            raise EngineGone(self.gone)
        op = self.sent[0][1] if self.sent else "?"
        wait = self._wait(None, f"{op} (request {number})")
        if self.outgoing:
            self._write(f"{op} (request {number})", wait)
        answer = self._receive(number, wait)
        try:
            return parse(answer)
        except ProtocolError as exc:
            raise self._lost(f"the answer to {op} (request {number}): {exc}") from None

    def drain(self) -> None:
        """Read (and drop) the answers to every request sent ahead: what a harness does before it
        talks to the engine again after a game it stopped comparing (EngineGone as for any read;
        an error answer is dropped with the rest)."""
        if self.outgoing:
            self._write("the requests sent ahead", self.timeout)
        while self.sent:
            number = self.sent[0][0]
            try:
                self._receive(number, self._wait(None, f"answers (request {number})"))
            except EngineGone:
                raise
            except EngineFailure:
                continue

    def _wait(self, timeout: float | None, what: str) -> float:
        """Seconds the request may take; EngineFailure when the case has no time left."""
        wait = self.timeout if timeout is None else timeout
        if self.clock is not None:
            left = self.clock.left()
            if left <= 0:
                raise EngineFailure(f"{self.clock.over()} (stopped before {what})")
            wait = min(wait, left)
        return wait

    def _late(self, what: str, wait: float, unread: bool = False) -> str:
        """Why the request went unanswered (or unread) in time: its own timeout, or the case's."""
        if self.clock is not None and self.clock.left() <= 0:
            pending = "the engine had not read" if unread else "no answer to"
            return f"{self.clock.over()} ({pending} {what} yet)"
        return f"the engine did not read {what} within {wait:g}s" if unread else \
            f"no answer to {what} within {wait:g}s"

    def _ended(self, what: str, partial: int = 0, reading: bool = False) -> str:
        """Why the conversation ended: how the program exited (if it did), and its last stderr line."""
        try:
            how = _exit(self.process.wait(timeout=1.0))
            self.stderr.stop(wait=0.5)  # its last words, unless a child it left holds the pipe
        except subprocess.TimeoutExpired:
            how = "stopped reading its input" if reading else "closed its output"
        if partial:
            text = f"the engine {how} in the middle of its answer to {what} ({partial} bytes, no line break)"
        else:
            text = f"the engine {how} before answering {what}"
        last = self.stderr.last()
        return text + (f"; stderr: {last}" if last else "")

    def _check(self, op: str, number: int, answer: Json, combined: bool = False) -> Json:
        """The answer, once it is known to answer this request and to say ok (else EngineFailure)."""
        what = f"{op} (request {number})"
        got = answer.get("id")
        if type(got) is not int or got != number:
            raise self._lost(f"the answer to {what} carries id {printable(repr(got), 40)}")
        if self.validate:
            problem = schema_problem(answer, response_definition(op, answer, combined))
            if problem is not None:
                raise EngineFailure(printable(f"the answer to {what} breaks the protocol schema at {problem}",
                                              MESSAGE_LIMIT))
        ok = answer.get("ok")
        if ok is False:
            error = answer.get("error")
            text = error if isinstance(error, str) else f"(not a string) {json.dumps(error)[:200]}"
            raise EngineFailure(printable(f"engine error on {what}: {text}", MESSAGE_LIMIT))
        if ok is not True:
            raise self._lost(f"the answer to {what} has no \"ok\": true or false")
        return answer

    def _lost(self, reason: str, kind: type[EngineGone] = EngineGone) -> EngineGone:
        """Record that the engine is unusable, stop it, and return the error to raise (of `kind`)."""
        self.gone = printable(reason, MESSAGE_LIMIT)
        self.program.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=2.0)
        return kind(self.gone)

    # -- the adapter interface ---------------------------------------------------------------

    def start(self, edition: str, players: int, deck: Sequence[str], first_player: int = 0,
              tokens: Sequence[int] | None = None) -> Reply:
        counts = list(tokens) if tokens is not None else [0] * players
        return self._reply("start", self._call("start", edition=edition, players=players, deck=list(deck),
                                               first_player=first_player, tokens=counts))

    def next_round(self, deck: Sequence[str]) -> Reply:
        return self._reply("next_round", self._call("next_round", deck=list(deck)))

    def deal(self, edition: str, players: int, seed: int, first_player: int = 0,
             tokens: Sequence[int] | None = None) -> Reply:
        counts = list(tokens) if tokens is not None else [0] * players
        return self._reply("start", self._call("start", edition=edition, players=players, seed=seed,
                                               first_player=first_player, tokens=counts))

    def legal_actions(self) -> list[Json]:
        return self._read("legal_actions", actions_of)

    def apply(self, action: Json) -> Reply:
        return self._reply("apply", self._call("apply", action=action))

    def state(self) -> Json:
        return self._read("state", state_of)

    def view(self, player: int) -> Json:
        return self._read("view", view_of, player=player)

    # -- combined replies (capability `combined`): one request each --------------------------------

    def start_combined(self, edition: str, players: int, deck: Sequence[str], first_player: int = 0,
                       tokens: Sequence[int] | None = None) -> Reply:
        if "combined" not in self.hello.capabilities:
            return super().start_combined(edition, players, deck, first_player, tokens)
        counts = list(tokens) if tokens is not None else [0] * players
        return self._reply("start", self._call("start", edition=edition, players=players, deck=list(deck),
                                               first_player=first_player, tokens=counts, combined=True),
                           combined=True)

    def next_round_combined(self, deck: Sequence[str]) -> Reply:
        if "combined" not in self.hello.capabilities:
            return super().next_round_combined(deck)
        answer = self._call("next_round", deck=list(deck), combined=True)
        return self._reply("next_round", answer, combined=True)

    def apply_combined(self, action: Json) -> Reply:
        if "combined" not in self.hello.capabilities:
            return super().apply_combined(action)
        return self._reply("apply", self._call("apply", action=action, combined=True), combined=True)

    def _read(self, op: str, pick: Any, **fields: Any) -> Any:
        answer = self._call(op, **fields)
        try:
            return pick(answer)
        except ProtocolError as exc:
            raise self._lost(f"the answer to {op} (request {self.requests}): {exc}") from None

    def _reply(self, op: str, answer: Json, combined: bool = False) -> Reply:
        try:
            return self.reply_reader(op, combined)(answer)
        except ProtocolError as exc:
            raise self._lost(f"the answer to {op} (request {self.requests}): {exc}") from None

    def reply_reader(self, op: str, combined: bool) -> Callable[[Json], Reply]:
        """What reads a reply to `op` (start, next_round or apply), combined or not."""
        return self.combined_readers[op] if combined else reply_of

    def kill(self) -> None:
        """Stop the engine at once, without asking (safe to call from another thread)."""
        self.gone = self.gone or "the engine has been killed"
        self.program.kill()

    def close(self) -> None:
        """Ask the engine to stop, then make sure it and every process it started are gone."""
        if self.gone is None and self.process.poll() is None:
            self.clock = None
            with contextlib.suppress(EngineFailure):
                self.drain()  # the answers to requests sent ahead come before stop's
                self._call("stop", min(self.timeout, 2.0))
            self.program.end_input()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=1.0)
        self.gone = self.gone or "the engine has been stopped"
        self.program.kill()
        self.process.wait()
        self.stderr.stop()
        self.reader.close()
        self.program.release()


def _exit(code: int) -> str:
    """`exited with code 3` / `was killed by signal 9 (SIGKILL)`."""
    if code >= 0:
        return f"exited with code {code}"
    with contextlib.suppress(ValueError):
        return f"was killed by signal {-code} ({signal.Signals(-code).name})"
    return f"was killed by signal {-code}"


def _start_of(line: bytes, size: int = 60) -> str:
    """The first characters of a line the engine wrote, quoted for a message."""
    text = line[:size + 1].decode("utf-8", "replace")
    return '"' + printable(text[:size] + ("..." if len(text) > size else ""), size + 3) + '"'


def _as_clause(exc: ProtocolError) -> str:
    """`is not JSON (...)`, `is unusable: ...`: a decoding error read as the end of a sentence."""
    text = str(exc)
    return f"is {text}" if text.startswith("not ") else f"is unusable: {text}"


def _hello(answer: Json) -> Hello:
    """The Hello in an answer to hello (ProtocolError when it is unusable)."""
    protocol = field(answer, "protocol", str, "a string")
    if protocol != PROTOCOL_VERSION:
        raise ProtocolError(f"the engine speaks protocol {printable(repr(protocol), 40)}; "
                            f"llcheck speaks {PROTOCOL_VERSION!r}")
    editions = field(answer, "editions", list, "an array of edition ids")
    capabilities = field(answer, "capabilities", list, "an array of capabilities")
    if not all(isinstance(e, str) for e in editions):
        raise ProtocolError("field 'editions' must list edition ids (strings)")
    if not all(isinstance(c, str) for c in capabilities):
        raise ProtocolError("field 'capabilities' must list capability names (strings)")
    known, ignored = known_capabilities(capabilities)
    return Hello(printable(field(answer, "name", str, "a string"), 100),
                 printable(field(answer, "version", str, "a string"), 100),
                 tuple(editions), known, protocol, ignored, _capabilities_version(answer),
                 _player_counts(answer.get("players", {})))


def _capabilities_version(answer: Json) -> int:
    """The hello's `capabilities_version` (1 when left out)."""
    version = answer.get("capabilities_version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ProtocolError("field 'capabilities_version' must be a positive integer")
    return version


def _player_counts(value: Any) -> dict[str, tuple[int, ...]]:
    """The hello's `players`: per edition id, the player counts played."""
    if not isinstance(value, dict):
        raise ProtocolError("field 'players' must be an object: per edition id, an array of player counts")
    counts = {}
    for edition, numbers in value.items():
        if not isinstance(numbers, list) or not all(type(n) is int and n > 0 for n in numbers):
            raise ProtocolError(f"players[{printable(repr(edition), 40)}] must be an array of player counts")
        counts[edition] = tuple(sorted(set(numbers)))
    return counts


_TEXT = {str}


def reply_of(answer: Json) -> Reply:
    """The Reply in an answer to start, next_round or apply (ProtocolError when unusable), with the
    legal actions (accepted) or the state (refused) a combined reply adds, when it has them."""
    accepted = field(answer, "accepted", bool, "true or false")
    if not accepted:
        reason, clause = answer.get("reason", ""), answer.get("clause")
        if not isinstance(reason, str) or not (clause is None or isinstance(clause, str)):
            raise ProtocolError("a refusal's 'reason' and 'clause' must be strings")
        state = field(answer, "state", dict, "an object") if "state" in answer else None
        return Reply(False, state=state, reason=printable(reason, MESSAGE_LIMIT),
                     clause=printable(clause, 100) if clause is not None else None)
    events = objects(answer.get("events", []), "events")
    if not set(map(type, map(dict.get, events, repeat("type")))) <= _TEXT:  # each a string, without a loop
        index = next((i for i, event in enumerate(events) if not isinstance(event.get("type"), str)), None)
        if index is not None:
            raise ProtocolError(f"events[{index}] has no 'type'")
    legal = actions_of(answer, "legal_actions") if "legal_actions" in answer else None
    return Reply(True, events, field(answer, "state", dict, "an object"), legal=legal)



def combined_reply_of(op: str, hello: Hello) -> Callable[[Json], Reply]:
    """What reads a combined reply to `op` (ProtocolError when unusable): `reply_of`, and an accepted
    reply must list the legal actions (from an engine claiming legal_actions), a refused apply
    carry the state."""
    lists = "legal_actions" in hello.capabilities

    def parse(answer: Json) -> Reply:
        reply = reply_of(answer)
        if reply.accepted and lists and reply.legal is None:
            raise ProtocolError("a combined reply must list the legal actions now due ('legal_actions')")
        if not reply.accepted and op == "apply" and reply.state is None:
            raise ProtocolError("a combined reply refusing an action must carry the state ('state')")
        return reply

    return parse


def actions_of(answer: Json, name: str = "actions") -> list[Json]:
    """The actions an answer to legal_actions lists (or a combined reply's `legal_actions`)."""
    return objects(answer.get(name), name)


def state_of(answer: Json) -> Json:
    """The state in an answer to state."""
    state: Json = field(answer, "state", dict, "an object")
    return state


def view_of(answer: Json) -> Json:
    """The view in an answer to view."""
    seen: Json = field(answer, "view", dict, "an object")
    return seen
