"""Hangs at a start (the first, or the one after $HANG_AFTER games played for real), deaf to
SIGTERM, after starting a helper process in its group (unless $HANG_HELPER is 0); the harness
must kill both."""

import os
import signal
import subprocess
import sys
import time

import wire

games = 0


def hang_at_start(request: wire.Json) -> bool:
    global games
    if request["op"] == "start":
        games += 1
        if games > int(os.environ.get("HANG_AFTER", "0")):
            if os.environ.get("HANG_HELPER") != "0":
                subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            time.sleep(600)
    return False


if os.environ.get("HANG_AFTER", "0") == "0":  # no game to play for real: answer hello alone
    for request in wire.requests():
        if request["op"] == "hello":
            wire.send(wire.hello(request))
        elif request["op"] == "stop":
            wire.send(wire.done(request))
        hang_at_start(request)
else:
    wire.serve(hang_at_start)
