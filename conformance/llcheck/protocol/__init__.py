"""The engine protocol: line-delimited JSON between the harness and an engine (docs/protocol.md).

`messages` holds the message forms, `schema` validates messages against the published schema,
`server` runs any `Engine` as a protocol program (what `llcheck serve` does; import it from
`llcheck.protocol.server`).
"""

from .messages import OPS, PROTOCOL_VERSION, ProtocolError, decode, encode
from .schema import schema_path, schema_problem

__all__ = ["OPS", "PROTOCOL_VERSION", "ProtocolError", "decode", "encode", "schema_path", "schema_problem"]
