"""Closes its output at the first start and lingers."""

import os
import time

import wire

for request in wire.requests():
    if request["op"] == "hello":
        wire.send(wire.hello(request))
    elif request["op"] == "stop":
        wire.send(wire.done(request))
    elif request["op"] == "start":
        os.close(1)
        time.sleep(600)
