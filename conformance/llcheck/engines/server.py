"""Run any `Engine` as a protocol program: read requests on stdin, answer each on stdout.

The server is strict about what it reads (it is the example implementers compare against): the
first request must be `hello` with a protocol version it speaks, fields must have their types,
and anything it cannot answer becomes an error response (`"ok": false`) naming the problem.

Whatever engine it serves, the server can hold the conversation of capabilities version 3: it
answers a request that says `"combined": true` with a combined reply (the engine's legal actions
after an accepted one, its state after a refused apply), and it reads requests one line at a time,
answering each before it reads the next, so that requests sent ahead simply wait in the pipe
(pipelining). `llcheck serve` claims both (`SERVED`); a server made with no `served` claims what
its engine claims.
"""

from __future__ import annotations

import contextlib
import sys
import traceback
from collections.abc import Callable, Iterator
from typing import IO, Any

from ..protocol.messages import OPS, PROTOCOL_VERSION, ProtocolError, decode, encode, field
from .base import CAPABILITIES_3, Engine, EngineFailure, Hello, Json, Reply

MAX_LINE = 1_000_000
"""The longest request line read, in bytes (a request is a few hundred)."""


SERVED = CAPABILITIES_3
"""The capabilities the server adds to any engine's (docs/protocol.md#capabilities-version-3)."""


def hello_body(hello: Hello, served: tuple[str, ...] = ()) -> Json:
    """What an engine says about itself in answer to hello (with `served`: the capabilities a
    server adds, that belong to the conversation rather than to the engine)."""
    body: Json = {"protocol": PROTOCOL_VERSION, "name": hello.name, "version": hello.version,
                  "editions": list(hello.editions), "capabilities": sorted({*hello.capabilities, *served})}
    if hello.capabilities_version > 1:
        body["capabilities_version"] = hello.capabilities_version
    if hello.players:
        body["players"] = {edition: list(counts) for edition, counts in hello.players.items()}
    return body


class Server:
    """Answers protocol requests with one engine."""

    def __init__(self, engine: Engine, served: tuple[str, ...] = ()):
        self.engine = engine
        self.served = served
        """Capabilities of the conversation the hello claims besides the engine's (`SERVED`)."""
        self.greeted = False
        self.stopped = False
        self.handlers: dict[str, Callable[[Json], Json]] = {
            "hello": self._hello, "start": self._start, "next_round": self._next_round,
            "legal_actions": self._legal_actions, "apply": self._apply, "state": self._state,
            "view": self._view, "stop": self._stop,
        }

    def respond(self, line: bytes) -> Json:
        """The response to one request line (an error response when it cannot be answered)."""
        request_id: Any = None
        try:
            request = decode(line)
            request_id = request.get("id")
            if not isinstance(request_id, int) or isinstance(request_id, bool) or request_id < 0:
                request_id = None
                raise ProtocolError("every request needs an 'id': a non-negative integer")
            body = self._dispatch(request)
        except (ProtocolError, EngineFailure) as exc:
            return {"id": request_id, "ok": False, "error": _one_line(str(exc))}
        except Exception as exc:  # an adapter's bug is reported and the server goes on
            traceback.print_exc(file=sys.stderr)
            return {"id": request_id, "ok": False, "error": _one_line(f"{type(exc).__name__}: {exc}")}
        return {"id": request_id, "ok": True, **body}

    def _dispatch(self, request: Json) -> Json:
        op = field(request, "op", str, "a string")
        handler = self.handlers.get(op)
        if handler is None:
            raise ProtocolError(f"unknown op {op!r} (known: {', '.join(OPS)})")
        if not self.greeted and op not in ("hello", "stop"):  # stop ends a session at any point
            raise ProtocolError("the first request must be hello")
        return handler(request)

    def _hello(self, request: Json) -> Json:
        version = field(request, "protocol", str, "a string")
        if version != PROTOCOL_VERSION:
            raise ProtocolError(f"this engine speaks protocol {PROTOCOL_VERSION!r}, not {version!r}")
        self.greeted = True
        return hello_body(self.engine.hello, self.served)

    def _start(self, request: Json) -> Json:
        edition = field(request, "edition", str, "an edition id")
        players = field(request, "players", int, "a number of players")
        first = field(request, "first_player", int, "a seat")
        tokens = [_count(t) for t in field(request, "tokens", list, "an array of token counts")]
        if "deck" not in request and "seed" in request:  # an engine that deals itself
            seed = _count(field(request, "seed", int, "a seed"))
            return self._reply(self.engine.deal(edition, players, seed, first, tokens))
        if _combined(request):
            return self._reply(self.engine.start_combined(edition, players, _cards(request), first, tokens),
                               combined=True)
        return self._reply(self.engine.start(edition, players, _cards(request), first, tokens))

    def _next_round(self, request: Json) -> Json:
        if _combined(request):
            return self._reply(self.engine.next_round_combined(_cards(request)), combined=True)
        return self._reply(self.engine.next_round(_cards(request)))

    def _legal_actions(self, request: Json) -> Json:
        return {"actions": self.engine.legal_actions()}

    def _apply(self, request: Json) -> Json:
        action = field(request, "action", dict, "an object")
        if _combined(request):
            return self._reply(self.engine.apply_combined(action), combined=True)
        return self._reply(self.engine.apply(action))

    def _state(self, request: Json) -> Json:
        return {"state": self.engine.state()}

    def _view(self, request: Json) -> Json:
        return {"view": self.engine.view(field(request, "player", int, "a seat"))}

    def _stop(self, request: Json) -> Json:
        self.stopped = True
        return {}

    def _reply(self, reply: Reply, combined: bool = False) -> Json:
        """A reply's body; a combined one also with the legal actions (accepted) or the state (refused)."""
        if not reply.accepted:
            body: Json = {"accepted": False, "reason": reply.reason}
            if reply.clause:
                body["clause"] = reply.clause
            if combined and reply.state is not None:
                body["state"] = reply.state
            return body
        state = reply.state if reply.state is not None else self.engine.state()
        body = {"accepted": True, "events": reply.events, "state": state}
        if combined and reply.legal is not None:
            body["legal_actions"] = reply.legal
        return body


def _combined(request: Json) -> bool:
    """True when the request asks for a combined reply."""
    return field(request, "combined", bool, "true or false") if "combined" in request else False


def _cards(request: Json) -> list[str]:
    deck = field(request, "deck", list, "an array of card names")
    if not all(isinstance(card, str) for card in deck):
        raise ProtocolError("field 'deck' must list card names (strings)")
    return deck


def _count(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ProtocolError("field 'tokens' must list whole numbers")
    return value


def _one_line(text: str) -> str:
    return " ".join(text.split()) or "unknown error"


def serve(engine: Engine, infile: IO[bytes], outfile: IO[bytes], trace: IO[str] | None = None,
          served: tuple[str, ...] = SERVED) -> None:
    """Answer requests from `infile` on `outfile` until stop or end of input; `trace` logs both ways.

    Whatever the engine prints goes to stderr, so that stdout carries protocol messages only."""
    server = Server(engine, served)
    for line in _lines(infile):
        if not line.strip():
            continue
        with contextlib.redirect_stdout(sys.stderr):
            response = server.respond(line) if len(line) <= MAX_LINE else {
                "id": None, "ok": False, "error": f"request longer than {MAX_LINE:,} bytes"}
        data = encode(response)
        if trace is not None:
            trace.write(f"> {line.decode('utf-8', 'replace').rstrip()}\n< {data.decode('utf-8').rstrip()}\n")
            trace.flush()
        outfile.write(data)
        outfile.flush()
        if server.stopped:
            break


def _lines(infile: IO[bytes]) -> Iterator[bytes]:
    """The input's lines; a line longer than MAX_LINE is read in pieces and given cut to
    MAX_LINE + 1 bytes, so that memory stays bounded whatever comes in."""
    while True:
        line = infile.readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) > MAX_LINE and not line.endswith(b"\n"):
            rest = line
            while rest and not rest.endswith(b"\n"):
                rest = infile.readline(MAX_LINE)
        yield line
