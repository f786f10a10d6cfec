"""Plays for real, writing 256 KiB of log to stderr before every answer (four times what a pipe
holds) and 2 MiB without a line break at the start: it blocks unless the harness drains stderr."""

import sys

import wire


def chatter(request: wire.Json) -> bool:
    if request["op"] == "hello":
        sys.stderr.write("=" * (2 << 20))
    sys.stderr.write(f"debug: handling {request['op']} {'.' * 1000}\n" * 256)
    sys.stderr.flush()
    return False


wire.serve(chatter)
