#!/usr/bin/env python3
"""Write the README's sample outputs from real runs, or check that they still match (`--check`).

A sample is a ```text block right after a comment saying which lines of the output it shows,
its first line the command, `$ llcheck ...`, run from the repository's top with this Python's
`llcheck` first on the PATH:

    <!-- sample: head 13, tail 4 -->      the first 13 lines and the last 4
    <!-- sample: lines REGEX -->          the lines matching REGEX

Lines left out are one `...` line. Times (`in 1.34s`) are compared as any time, since no two runs
take the same; everything else must be the same, so a change to the corpus or the reports that
changes a sample fails `tests/test_readme_samples.py` until this tool is run again.

    python tools/readme_samples.py [--check]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

from llcheck.atomic import write_atomic

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SAMPLE = re.compile(r"<!-- sample: (?P<how>[^>]*?) -->\n```text\n\$ (?P<command>[^\n]+)\n(?P<shown>.*?)```\n",
                    re.DOTALL)
TIME = re.compile(r"\b\d+\.\d+s\b")


def run(command: str) -> list[str]:
    """The stdout lines of `command`, run by bash at the top of the repository."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "LLCHECK_PROGRESS_EVERY": "0", "COLUMNS": "100"}
    done = subprocess.run(["bash", "-c", command], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600, check=False)
    return done.stdout.splitlines()


def selected(how: str, lines: list[str]) -> list[str]:
    """The lines a sample shows, each run of lines left out as one `...`."""
    head = re.fullmatch(r"head (\d+), tail (\d+)", how)
    if head:
        first, last = int(head.group(1)), int(head.group(2))
        keep = set(range(first)) | set(range(max(first, len(lines) - last), len(lines)))
    elif how.startswith("lines "):
        pattern = re.compile(how.removeprefix("lines "))
        keep = {n for n, line in enumerate(lines) if pattern.search(line)}
    else:
        raise SystemExit(f"README.md: unknown sample selection {how!r}")
    shown: list[str] = []
    for n, line in enumerate(lines):
        if n in keep:
            shown.append(line)
        elif not shown or shown[-1] != "...":
            shown.append("...")
    return shown


def regenerated(text: str) -> str:
    """The README with every sample replaced by what its command prints now."""
    def sample(found: re.Match[str]) -> str:
        shown = selected(found["how"], run(found["command"]))
        body = "".join(f"{line}\n" for line in shown)
        return f"<!-- sample: {found['how']} -->\n```text\n$ {found['command']}\n{body}```\n"
    return SAMPLE.sub(sample, text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a sample differs from a real run")
    parser.add_argument("--readme", type=Path, default=README, help="the file (default: README.md)")
    args = parser.parse_args()
    text = args.readme.read_text(encoding="utf-8")
    if not SAMPLE.search(text):
        raise SystemExit(f"{args.readme}: no sample")
    new = regenerated(text)
    if args.check:
        if TIME.sub("N.NNs", new) != TIME.sub("N.NNs", text):
            old_lines, new_lines = TIME.sub("N.NNs", text).splitlines(), TIME.sub("N.NNs", new).splitlines()
            first = next((n for n, (a, b) in enumerate(zip(old_lines, new_lines, strict=False)) if a != b),
                         min(len(old_lines), len(new_lines)))
            print(f"{args.readme.name}:{first + 1}: the sample differs from a real run:\n"
                  f"  README: {old_lines[first] if first < len(old_lines) else '(end)'}\n"
                  f"  run:    {new_lines[first] if first < len(new_lines) else '(end)'}\n"
                  "run python tools/readme_samples.py to write the samples again")
            return 1
        return 0
    write_atomic(args.readme, new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
