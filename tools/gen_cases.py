#!/usr/bin/env python3
"""Write the hand-written conformance cases from their scenario descriptions in tools/casegen/.

Each scenario module maps a file name to (description, cases for an edition); this script
expands them into `conformance/cases/<status>/<edition>/<file>.json`. Running it again writes
identical files. `--check` writes nothing and exits 1 when a file differs from what it would
write (the test suite runs it so that the JSON and the scenarios never drift apart). Files it
does not generate (cases written by hand) are left alone; when a scenario group is renamed or
removed, delete its old file by hand.

    python tools/gen_cases.py [--check]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from casegen import cards, disputed, premium, rounds, setup, z19  # noqa: E402
from casegen.dsl import Ed, Json, edition  # noqa: E402

from llcheck.harness.jsonfmt import dumps  # noqa: E402

Groups = dict[str, tuple[str, Callable[[Ed], list[Json]]]]

LAYOUT: list[tuple[str, list[str], list[Groups]]] = [
    ("required", ["classic", "z-man-2019"], [setup.GROUPS, cards.GROUPS, rounds.GROUPS]),
    ("required", ["z-man-2019"], [z19.GROUPS]),
    ("required", ["premium"], [premium.GROUPS]),
    ("disputed", ["classic", "z-man-2019"], [disputed.GROUPS]),
]
"""(status, editions, scenario groups) for every folder this script writes."""

CASES = ROOT / "conformance" / "cases"


def files() -> Iterator[tuple[Path, Json]]:
    """Every case file this script writes, with its content."""
    for status, names, modules in LAYOUT:
        for name in names:
            ed = edition(name)
            for groups in modules:
                for group, (description, build) in groups.items():
                    cases = build(ed)
                    if cases:
                        doc = {"description": description, "cases": cases}
                        yield CASES / status / name / f"{group}.json", doc


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="compare instead of writing; exit 1 on a difference")
    args = parser.parse_args()
    content = dict(files())
    wanted = {path: dumps(doc) + "\n" for path, doc in content.items()}
    changed = [path for path, text in wanted.items()
               if not path.exists() or path.read_text(encoding="utf-8") != text]
    if args.check:
        for path in changed:
            print(f"{path.relative_to(ROOT)}: out of date (run python tools/gen_cases.py)")
        return 1 if changed else 0
    for path in changed:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(wanted[path], encoding="utf-8")
    cases = sum(len(doc["cases"]) for doc in content.values())
    print(f"{len(wanted)} case files, {cases} cases; {len(changed)} written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
