"""`check --shard K/N`: the K-th of N deterministic parts of a run, for a CI job matrix
(docs/ci.md, "Sharding"); `llcheck report --merge` joins the parts' reports into the whole run's.

A result id belongs to one part, by a stable hash of its key (SHA-256, so the same on every
machine and Python): a case's key is its id; a campaign's is its kind, edition and player count
(`property/classic/2p` for every property of classic with two players), so that each edition and
player count is checked whole, by one part. Every part sees the same corpus and options, so the
parts hold each result exactly once.
"""

from __future__ import annotations

import argparse
import hashlib
from dataclasses import dataclass
from typing import Any

MAX_PARTS = 1000
"""The most parts a run is split into (beyond it, a typing slip)."""

CAMPAIGNS = ("property", "fuzz")
"""The kinds of result ids (`KIND/.../EDITION/Np`) a part takes by edition and player count."""


@dataclass(frozen=True)
class Shard:
    """Part `index` (1-based) of `count`."""

    index: int
    count: int

    def takes(self, result_id: str) -> bool:
        """True when the result id belongs to this part."""
        digest = hashlib.sha256(key(result_id).encode("utf-8")).digest()
        return int.from_bytes(digest[:8], "big") % self.count == self.index - 1

    def described(self, order: dict[str, int]) -> dict[str, Any]:
        """The `shard` field of this part's JSON report: which part it is, and where each of its
        results (by id) stands in the whole run's order."""
        return {"index": self.index, "count": self.count, "order": order}


def key(result_id: str) -> str:
    """What decides a result id's part: `KIND/EDITION/Np` for a campaign's, the id for a case's."""
    parts = result_id.split("/")
    if parts[0] in CAMPAIGNS and len(parts) >= 3:
        return "/".join((parts[0], *parts[-2:]))
    return result_id


def parse(text: str) -> Shard:
    """A `--shard` value, `K/N` with 1 <= K <= N <= MAX_PARTS."""
    index, slash, count = text.partition("/")
    if not (slash and _number(index) and _number(count) and 1 <= int(index) <= int(count) <= MAX_PARTS):
        raise argparse.ArgumentTypeError(f"expected K/N, part K of N (1 <= K <= N <= {MAX_PARTS}), "
                                         f"not {text!r}")
    return Shard(int(index), int(count))


def _number(text: str) -> bool:
    return text.isascii() and text.isdigit()
