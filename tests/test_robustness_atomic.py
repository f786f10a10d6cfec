"""Output files are written at once: an interrupted write leaves the file as it was."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from llcheck import atomic
from llcheck.atomic import write_atomic

ROOT = Path(__file__).parents[1]


def test_a_write_replaces_the_file_whole_and_keeps_its_mode(tmp_path):
    target = tmp_path / "report.json"
    target.write_text("old\n")
    target.chmod(0o640)
    assert write_atomic(target, "new ☃\n") == len("new ☃\n".encode())
    assert target.read_text(encoding="utf-8") == "new ☃\n"
    assert target.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]


@pytest.mark.parametrize("stop", [KeyboardInterrupt, OSError(28, "No space left on device")])
def test_an_interrupted_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch, stop):
    target = tmp_path / "docs.md"
    target.write_text("whole old text\n")

    def interrupted(*args: object) -> None:
        raise stop

    monkeypatch.setattr(atomic.os, "replace", interrupted)
    with pytest.raises(type(stop) if isinstance(stop, OSError) else stop):
        write_atomic(target, "x" * 1_000_000)
    assert target.read_text() == "whole old text\n"
    assert [p.name for p in tmp_path.iterdir()] == ["docs.md"]


def test_a_device_is_written_in_place():
    assert write_atomic(os.devnull, b"dropped") == 7
    with pytest.raises(OSError, match="No space left"):
        write_atomic("/dev/full", "x")


WRITES = re.compile(r"\.write_text\(|\.write_bytes\(|open\([^)]*[\"'][wa]b?[\"']")


def test_every_output_file_is_written_by_the_one_helper():
    """The only other writers: the helper itself, the results stream (line by line by design:
    each verdict on disk at once) and the check that a report path can be opened."""
    allowed = {"conformance/llcheck/atomic.py": 2, "conformance/llcheck/harness/report.py": 1,
               "conformance/llcheck/commands/check.py": 1}
    found = {}
    for folder in ("conformance/llcheck", "loveletter_ref", "tools"):
        for path in (ROOT / folder).rglob("*.py"):
            count = len(WRITES.findall(path.read_text(encoding="utf-8")))
            if count:
                found[str(path.relative_to(ROOT))] = count
    assert found == allowed
