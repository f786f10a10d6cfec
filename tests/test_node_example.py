"""The Node.js example engine (conformance/examples/node) passes the classic corpus over the protocol,
every message it sends matching the protocol schema: an adapter in another language than ours."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from llcheck.harness.cases import load_corpus
from llcheck.harness.select import Selection

ROOT = Path(__file__).resolve().parents[1]
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed: the Node.js example cannot run")


def check(*args: str) -> subprocess.CompletedProcess[str]:
    impl = "node conformance/examples/node/engine.js"
    command = [sys.executable, "-m", "llcheck", "check", "--impl", impl, *args]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_the_node_example_passes_the_classic_corpus():
    result = check("--edition", "classic", "--validate-protocol")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    chosen = Selection(editions=["classic"]).choose(load_corpus())
    golden = sum(case.status == "golden" for case in chosen)
    assert (f"{len(chosen) - golden} passed, 0 failed, 0 errored, 0 skipped; golden traces: {golden} passed, "
            "0 failed, 0 errored, 0 skipped") in result.stdout


def test_the_node_example_refuses_editions_it_does_not_play():
    result = check("--edition", "z-man-2019")
    assert result.returncode == 2
    assert "z-man-2019" in result.stderr and "Traceback" not in result.stderr
