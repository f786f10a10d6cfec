"""Answers every request after hello with an error, and keeps running."""

import wire

for request in wire.requests():
    if request["op"] == "hello":
        wire.send(wire.hello(request))
    else:
        wire.send({"id": request["id"], "ok": False, "error": "not implemented yet"})
        if request["op"] == "stop":
            break
