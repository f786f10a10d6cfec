"""The engine protocol: line-delimited JSON between the harness and an engine (docs/protocol.md).

`messages` holds the message forms, `schema` validates messages against the published schema.
Both ends are engines of `llcheck.engines`: `subprocess` talks to a protocol program, `server`
runs any `Engine` as one (what `llcheck serve` does).
"""

from .messages import OPS, PROTOCOL_VERSION, ProtocolError, decode, encode
from .schema import schema_path, schema_problem

__all__ = ["OPS", "PROTOCOL_VERSION", "ProtocolError", "decode", "encode", "schema_path", "schema_problem"]
