"""Refuses every deal and every action (a valid answer, and a wrong rules decision)."""

import wire

for request in wire.requests():
    if request["op"] == "hello":
        wire.send(wire.hello(request))
    elif request["op"] == "stop":
        wire.send(wire.done(request))
        break
    elif request["op"] == "state":
        wire.send({"id": request["id"], "ok": True, "state": {}})
    else:
        wire.send({"id": request["id"], "ok": True, "accepted": False, "reason": "not implemented yet"})
