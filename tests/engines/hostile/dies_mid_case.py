"""Plays for real, but crashes at the second action of every game."""

import os
import sys

import wire

applied = 0


def crash_at_second_apply(request: wire.Json) -> bool:
    global applied
    if request["op"] == "start":
        applied = 0
    if request["op"] == "apply":
        applied += 1
        if applied == 2:
            print("Traceback (most recent call last):\nZeroDivisionError: division by zero", file=sys.stderr)
            sys.stderr.flush()
            os._exit(1)
    return False


wire.serve(crash_at_second_apply)
