"""Answers hello, then answers start with one kind of broken answer (the argument):

not-json, truncated (then exits), not-an-object, no-ok, schema (events is not an array), nan,
deep (nested 100,000 times), huge-number (5,000 digits), bad-utf8, huge-line (100 MB),
stale (answers hello twice, so its answer to start is the second answer to hello),
controls (an error answer full of terminal escapes, 10,000 characters long), error-object (an
error answer whose error is an object, not a message).
"""

import json
import os
import sys

import wire


def answer(kind: str, request: wire.Json) -> bytes:
    number = request["id"]
    accepted = {"id": number, "ok": True, "accepted": True, "events": [], "state": {}}
    if kind == "not-json":
        return b"Segmentation fault (core dumped)\n"
    if kind == "not-an-object":
        return b"[1, 2, 3]\n"
    if kind == "no-ok":
        return json.dumps({"id": number, "accepted": True}).encode() + b"\n"
    if kind == "schema":
        return json.dumps(dict(accepted, events="none")).encode() + b"\n"
    if kind == "nan":
        return json.dumps(dict(accepted, state={"round": float("nan")})).encode() + b"\n"
    if kind == "deep":
        return b"[" * 100_000 + b"]" * 100_000 + b"\n"
    if kind == "huge-number":
        return b'{"id": ' + str(number).encode() + b', "ok": true, "n": 1' + b"0" * 5000 + b"}\n"
    if kind == "bad-utf8":
        return b'{"id": ' + str(number).encode() + b', "ok": false, "error": "caf\xe9"}\n'
    if kind == "error-object":
        return json.dumps({"id": number, "ok": False, "error": {"code": 7}}).encode() + b"\n"
    if kind == "controls":
        error = "\x1b[2J\x1b[31mboom\x07\nsecond line\r" + "x" * 10_000
        return json.dumps({"id": number, "ok": False, "error": error}).encode() + b"\n"
    raise SystemExit(f"unknown kind {kind}")


def main(kind: str) -> None:
    for request in wire.requests():
        if request["op"] == "hello":
            wire.send(wire.hello(request))
            if kind == "stale":
                wire.send(wire.hello(request))
        elif request["op"] == "start" and kind == "truncated":
            wire.write(b'{"id": ' + str(request["id"]).encode() + b', "ok": true, "accepted": tr')
            os._exit(0)
        elif request["op"] == "start" and kind == "huge-line":
            for _ in range(100):
                wire.write(b"x" * (1 << 20))
            wire.write(b"\n")
        elif request["op"] == "start" and kind != "stale":
            wire.write(answer(kind, request))
        elif request["op"] == "stop":
            wire.send(wire.done(request))
            return


main(sys.argv[1])
