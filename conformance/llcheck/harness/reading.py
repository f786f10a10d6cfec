"""Your engine's reading: the clauses on which fuzzing found the engine playing a variant of the
spec, said at the end of `llcheck check` and written, with `--write-reading FILE`, as a reading
(spec data) that `llcheck disputes` compares with any edition or rulebook reading."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from loveletter_ref.errors import SpecError
from loveletter_ref.spec import check_spec, load_spec
from loveletter_ref.variants import Alternative, reading_of

from ..atomic import write_atomic
from .results import Result

Played = dict[str, list[tuple[Alternative, str]]]
"""Edition id -> each clause variant the engine plays, with the id of the result that found it."""


def played(results: Iterable[Result]) -> Played:
    """The clause variants fuzzing results found, per edition (the first found for each clause)."""
    out: Played = {}
    for result in results:
        for change in result.reading:
            found = out.setdefault(result.edition, [])
            if all(known.key != change.key for known, _ in found):
                found.append((change, result.id))
    return out


def text_lines(found: Played) -> list[str]:
    """The report's last lines: each clause the engine plays as a variant."""
    lines = ["your engine's reading (clauses on which it plays a variant of the spec):"]
    for edition, changes in found.items():
        prefix = _prefix(edition)
        lines += [f"  {prefix}.{change.key}: {change.text}" + (
            f" (as {change.source} states it)" if change.source != "catalogue" else "") + f"; found by {rid}"
            for change, rid in changes]
    return lines


def _prefix(edition: str) -> str:
    try:
        return load_spec(edition).prefix
    except SpecError:
        return edition


def write(found: Played, path: str, impl: str) -> list[str]:
    """Write each edition's reading (FILE, or FILE-EDITION.yaml beside it when several); lines to print."""
    lines = []
    target = Path(path)
    for edition, changes in found.items():
        out = target if len(found) == 1 else target.with_name(f"{target.stem}-{edition}.yaml")
        try:
            spec = load_spec(edition)
        except SpecError:
            lines.append(f"llcheck check: no reading written for {edition}: it is not a spec of its own")
            continue
        evidence = {change.key: f"llcheck check --fuzz ({rid}) found the engine playing this rule"
                    for change, rid in changes}
        data = reading_of(spec, [c for c, _ in changes], f"engine-{spec.prefix}",
                          f"{impl} as llcheck observed it playing {edition}", evidence)
        header = (f"# Written by llcheck check --write-reading: {impl} plays {edition} as this "
                  f"reading states it.\n# Compare: llcheck disputes {out} {edition}\n")
        try:
            write_atomic(out, header + json.dumps(data, indent=1, ensure_ascii=False) + "\n")
        except OSError as exc:
            lines.append(f"llcheck check: cannot write --write-reading {out}: {exc.strerror or exc}")
            continue
        problems = check_spec(out)
        said = f" (not valid: {problems[0]})" if problems else ""
        lines.append(f"wrote the engine's reading of {edition} to {out}{said}: "
                     f"llcheck disputes {out} {edition}")
    return lines
