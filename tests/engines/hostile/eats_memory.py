"""Asks for 64 MiB after 64 MiB at the first start (2 GiB at most, then hangs): it runs out of
memory under llcheck's cap, and so dies with MemoryError."""

import time

import wire

for request in wire.requests():
    if request["op"] == "hello":
        wire.send(wire.hello(request))
    elif request["op"] == "stop":
        wire.send(wire.done(request))
    elif request["op"] == "start":
        hog = [bytearray(64 << 20) for _ in range(32)]
        time.sleep(600)
