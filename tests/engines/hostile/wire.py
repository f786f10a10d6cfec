"""What the engines of the zoo share: requests in, answers out, and, for those that play for
real until they misbehave, the reference engine behind the protocol server (slow to import, so
only those load it)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from typing import Any

Json = dict[str, Any]


def requests() -> Iterator[Json]:
    """Each request read on stdin (blank lines skipped), until the end of input."""
    for line in sys.stdin.buffer:
        if line.strip():
            yield json.loads(line)


def write(data: bytes) -> None:
    """Write raw bytes on stdout, at once."""
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def send(message: Json) -> None:
    """Write one answer."""
    write(json.dumps(message).encode() + b"\n")


def hello(request: Json, **changes: Any) -> Json:
    """A valid answer to hello: classic only, no optional capability (unless `changes` say otherwise)."""
    return {"id": request["id"], "ok": True, "protocol": "1", "name": "zoo", "version": "0",
            "editions": ["classic"], "capabilities": [], **changes}


def done(request: Json) -> Json:
    """The answer to stop."""
    return {"id": request["id"], "ok": True}


def serve(misbehave: Callable[[Json], bool] | None = None) -> None:
    """Answer as the reference engine does; `misbehave(request)` runs first, and True skips the answer."""
    from llcheck.engines import ReferenceEngine
    from llcheck.engines.server import Server
    from loveletter_ref.spec import load_spec

    server = Server(ReferenceEngine({"classic": load_spec("classic")}))
    for request in requests():
        if misbehave is not None and misbehave(request):
            continue
        send(server.respond(json.dumps(request).encode()))
        if server.stopped:
            return
