"""No input of at most 2 MB makes a command use more than 1 GB or 30 s of CPU, or print a
traceback: the largest hostile files of each kind, given to the commands that read them, each in a
process of its own whose peak memory and CPU time the kernel reports (os.wait4)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

LIMIT = 2_000_000
"""The size of the largest input tried, in bytes."""
MEMORY_KIB = 1024 * 1024
CPU_SECONDS = 30.0

HEADER = "kind: edition\nid: big\nprefix: big\ntitle: Big\n"


def _padded(text: str) -> str:
    assert len(text.encode("utf-8")) <= LIMIT, len(text)
    return text


SPECS: dict[str, Callable[[], str]] = {
    "aliased-string": lambda: _padded(HEADER + f's: &s "{"x" * 1_000_000}"\ncards:\n' + "  - *s\n" * 100_000),
    "aliased-list": lambda: _padded(HEADER + "s: &s [" + ", ".join(["1"] * 9_000) + "]\ncards:\n"
                                    + "  - *s\n" * 100_000),
    "billion-laughs": lambda: _padded("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
                                      + "".join(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n"
                                                for i in range(1, 10))),
    "many-problems": lambda: _padded(HEADER + "cards:\n" + "  - 1\n" * 330_000),
    "deep-nesting": lambda: _padded("[" * 999_999 + "]" * 999_999),
    "huge-integers": lambda: _padded(HEADER + "cards:\n" + f"  - {'9' * 4000}\n" * 490),
    "one-long-line": lambda: _padded(HEADER + f'title2: "{"ab" * 999_000}"\n'),
}

CASE = {"id": "x/y", "description": "d", "clauses": ["classic.guard.guess"], "tags": [], "edition": "classic",
        "players": 2, "rounds": [{"deck": ["Guard"] * 16, "steps": []}]}
CASES: dict[str, Callable[[], str]] = {
    "many-bad-cases": lambda: _padded(json.dumps({"description": "d", "cases": [
        {**CASE, "id": f"x/{n}", "players": 9} for n in range(6_000)]})),
    "deep-nesting": lambda: _padded('{"description": "d", "cases": ' + "[" * 999_000 + "]" * 999_000 + "}"),
    "huge-integers": lambda: _padded(json.dumps({"description": "d", "cases": [CASE]}).replace(
        '"players": 2', '"players": ' + "9" * 1_900_000)),
}


def measured(argv: list[str], folder: Path) -> tuple[int, str, int, float]:
    """Exit code, stderr, peak memory (KiB) and CPU seconds of `llcheck ARGV`."""
    err_path = folder / "stderr.txt"
    with open(os.devnull, "wb") as out, open(err_path, "wb") as err:
        process = subprocess.Popen([sys.executable, "-m", "llcheck", *argv], stdout=out, stderr=err,
                                   cwd=folder)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, err_path.read_text(errors="replace"), usage.ru_maxrss, \
        usage.ru_utime + usage.ru_stime


def assert_bounded(argv: list[str], folder: Path) -> str:
    code, err, kib, cpu = measured(argv, folder)
    assert "Traceback" not in err, err[-2000:]
    assert code == 2, (code, err[-500:])
    assert kib < MEMORY_KIB, f"llcheck {' '.join(argv)}: {kib} KiB"
    assert cpu < CPU_SECONDS, f"llcheck {' '.join(argv)}: {cpu:.1f} s of CPU"
    return err


@pytest.mark.parametrize("name", SPECS)
def test_a_hostile_spec_is_refused_within_bounds_by_every_command_reading_it(tmp_path, name):
    path = tmp_path / f"{name}.yaml"
    path.write_text(SPECS[name](), encoding="utf-8")
    for argv in (["validate", str(path)], ["check", "--edition", str(path)],
                 ["simulate", "--edition", str(path), "--players", "2", "--games", "1"]):
        err = assert_bounded(argv, tmp_path)
        assert err.startswith(str(path)), err[:300]


@pytest.mark.parametrize("name", CASES)
def test_a_hostile_case_file_is_refused_within_bounds_by_every_command_reading_it(tmp_path, name):
    path = tmp_path / "corpus" / "required" / "classic" / f"{name}.json"
    path.parent.mkdir(parents=True)
    path.write_text(CASES[name](), encoding="utf-8")
    for argv in (["cases", "--validate", "--root", str(tmp_path / "corpus")],
                 ["check", "--impl", "reference", "--corpus", str(tmp_path / "corpus")]):
        err = assert_bounded(argv, tmp_path)
        assert err.startswith(str(path)), err[:300]
