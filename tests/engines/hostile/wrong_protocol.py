"""Speaks a protocol version llcheck does not."""

import wire

for request in wire.requests():
    wire.send(wire.hello(request, protocol="2"))
