"""Greets the user on stdout before the handshake (stdout is for answers only)."""

import wire

print("LoveLetter engine v2.1 -- ready", flush=True)
for request in wire.requests():
    wire.send(wire.hello(request))
