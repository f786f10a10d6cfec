"""Plays for real, taking $SLOW_SECONDS (default 0.4) over every answer but hello."""

import os
import time

import wire

DELAY = float(os.environ.get("SLOW_SECONDS", "0.4"))


def dawdle(request: wire.Json) -> bool:
    if request["op"] != "hello":
        time.sleep(DELAY)
    return False


wire.serve(dawdle)
