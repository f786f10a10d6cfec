"""Plays for real, after starting a daemon that leaves its process group and its parent (setsid
and a double fork), so that only its environment still ties it to the engine."""

import os
import time

import wire

started = False


def daemonize_once(request: wire.Json) -> bool:
    global started
    if request["op"] == "start" and not started:
        started = True
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                time.sleep(600)
            os._exit(0)
        os.wait()
    return False


wire.serve(daemonize_once)
