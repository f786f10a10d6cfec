"""Our own CI holds the reference engine to its checked-in baselines, as docs/ci.md tells users to.

A change in the reference engine's behaviour (or in an edition's spec) that is not recorded in
`conformance/baselines/` fails here, naming each changed case or game at its first differing
step, with the command that records the baseline again once the change is meant.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from llcheck.baseline.checking import BaselineCheck
from llcheck.baseline.report import record_command, text_lines
from llcheck.engines import ReferenceEngine
from llcheck.harness.select import Selection

ROOT = Path(__file__).resolve().parents[1]
EDITIONS = ("classic", "z-man-2019", "premium")


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_reference_engine_behaves_as_its_baseline(edition, monkeypatch):
    monkeypatch.chdir(ROOT)
    path = f"conformance/baselines/reference-{edition}.jsonl"
    replay = BaselineCheck([path])
    assert replay.run(ReferenceEngine, Selection(), [], None) is False
    done = replay.files[0]
    assert done.baseline.edition == edition and done.baseline.engine.startswith("loveletter-reference ")
    assert done.outcomes and not done.notes
    again = record_command("reference", [], {})
    report = "\n".join(text_lines(replay.files, "llcheck check --impl reference", again, False))
    assert not done.changed and done.count("not_run") == 0, (
        f"the reference engine no longer behaves as {path} records:\n{report}\n\n"
        f"If the change is meant, record the baseline again (from the checkout) and commit it:\n"
        f"    llcheck record --impl reference --out {path}")
