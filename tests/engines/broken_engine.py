#!/usr/bin/env python3
"""A protocol engine that misbehaves on purpose: the reference engine behind the protocol server,
except for the one way of breaking the protocol named on the command line.

    python tests/engines/broken_engine.py MODE

Modes: ok, silent (never answers), old-protocol, crash-on-start, crash-like-node (a stack trace and
Node's version line after the error), hang-on-apply, garbage-on-apply,
wrong-id, error-on-view, bad-events (breaks the schema, not the comparison), spawn-and-hang
(starts a child that would outlive it, writes the child's pid to the file named by
LLCHECK_TEST_MARKER, then hangs), banner (prints text before the hello),
crash-once (crashes on the first start only, using a marker file named by LLCHECK_TEST_MARKER),
dies-after-crash (crashes on its first start; every later copy dies before its hello),
new-capability (claims a capability this llcheck does not know, besides the real ones).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from llcheck.engines import ReferenceEngine
from llcheck.engines.server import Server


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main(mode: str) -> int:
    server = Server(ReferenceEngine())
    if mode == "dies-after-crash" and not _first_time():
        print("cannot bind port 9999: address in use", file=sys.stderr, flush=True)
        return 7
    if mode == "banner":
        print("my engine 1.0 starting up", flush=True)
    for line in sys.stdin.buffer:
        request = json.loads(line)
        op = request.get("op")
        if mode == "silent":
            continue
        if mode == "old-protocol" and op == "hello":
            send({"id": request["id"], "ok": True, "protocol": "0", "name": "old", "version": "0",
                  "editions": ["classic"], "capabilities": []})
            continue
        if op == "start" and (mode in ("crash-on-start", "dies-after-crash")
                              or (mode == "crash-once" and _first_time())):
            print("Traceback: something went very wrong", file=sys.stderr, flush=True)
            return 3
        if op == "start" and mode == "crash-like-node":  # the error, its stack, then Node's version
            lines = ["/engine.js:12", "    null.hand;", "",
                     "TypeError: Cannot read properties of null (reading 'hand')",
                     "    at Game.effect (/engine.js:12:5)", "", "Node.js v20.20.2"]
            print("\n".join(lines), file=sys.stderr, flush=True)
            return 1
        if op == "apply" and mode == "hang-on-apply":
            time.sleep(3600)
        if op == "apply" and mode == "spawn-and-hang":
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
            with open(os.environ["LLCHECK_TEST_MARKER"], "w") as out:
                out.write(str(child.pid))
            time.sleep(3600)
        if op == "apply" and mode == "garbage-on-apply":
            print("<html>oops</html>", flush=True)
            continue
        response = server.respond(line)
        if mode == "new-capability" and op == "hello":
            response["capabilities"] = ["undo", *response["capabilities"]]
        if mode == "wrong-id" and op == "state":
            response["id"] += 1
        if mode == "error-on-view" and op == "view":
            response = {"id": request["id"], "ok": False, "error": "views are not implemented yet"}
        if mode == "bad-events" and response.get("events"):
            response["events"] = [dict(e, player=str(e["player"])) if "player" in e else e
                                  for e in response["events"]]
        send(response)
        if server.stopped:
            return 0
    return 0


def _first_time() -> bool:
    marker = os.environ["LLCHECK_TEST_MARKER"]
    if os.path.exists(marker):
        return False
    open(marker, "w").close()
    return True


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
