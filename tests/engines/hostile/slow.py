"""Plays for real, taking $SLOW_SECONDS (default 30) over every answer from request $SLOW_FROM
on (default 2: all but the hello); the answers before it come at once. Counted in requests, not
timed, so that where a limit cuts it off does not depend on the speed of the machine."""

import os
import time

import wire

DELAY = float(os.environ.get("SLOW_SECONDS", "30"))
FROM = int(os.environ.get("SLOW_FROM", "2"))


def dawdle(request: wire.Json) -> bool:
    if request["id"] >= FROM:
        time.sleep(DELAY)
    return False


wire.serve(dawdle)
