"""Answers hello, then never reads its input again."""

import time

import wire

for request in wire.requests():
    wire.send(wire.hello(request))
    time.sleep(600)
