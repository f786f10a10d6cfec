"""The JUnit report as CI tools read it (junitparser): a baseline change (exit 4, which the CI
recipes only warn about) is no failure but a property and system-out; `file=` is relative to the
repository when the file is inside it."""

from __future__ import annotations

import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import run_llcheck
from junitparser import Error, Failure
from junitparser.xunit2 import JUnitXml  # the schema with testcase properties (pytest's, Jenkins')

from llcheck.harness.junit import repository_path

TESTS = Path(__file__).parent
BUNDLED = TESTS.parent / "conformance" / "cases"
CHANGE = "baseline_changed"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git repository playing the user's, holding a small corpus, as the working directory."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    root = tmp_path / "cases" / "required" / "classic"
    root.mkdir(parents=True)
    shutil.copy(BUNDLED / "required" / "classic" / "baron.json", root)
    (tmp_path / "baselines").mkdir()
    monkeypatch.chdir(tmp_path / "baselines")  # a run from a subfolder still names files from the top
    return tmp_path


def _check(capsys, repo: Path, impl: str, *more: str) -> int:
    code, _, _ = run_llcheck(capsys, "check", "--impl", impl, "--edition", "classic", "--corpus",
                             str(repo / "cases"), "--baseline", str(repo / "baselines" / "b.jsonl"),
                             "--junit", str(repo / "r.xml"), "-q", *more)
    return code



def _files(repo: Path, suite: str) -> dict[str, str]:
    """The `file=` of each testcase of a suite, by name (junitparser leaves the attribute out)."""
    root = ET.parse(repo / "r.xml").getroot()
    cases = root.findall(f"testsuite[@name='{suite}']/testcase")
    return {case.get("name", ""): case.get("file", "") for case in cases}


def test_a_baseline_change_is_a_property_and_system_out_not_a_failure(capsys, repo):
    out = str(repo / "baselines" / "b.jsonl")
    code, _, _ = run_llcheck(capsys, "record", "--impl", "reference", "--edition", "classic", "--corpus",
                             str(repo / "cases"), "--games", "1", "--out", out)
    assert code == 0
    code = _check(capsys, repo, "python:baseline_engines:tie_knocks_out", "--skip", "classic.baron.tie/*")
    assert code == 4  # conformant (no case shows the rule), but the baseline's games changed
    xml = JUnitXml.fromfile(str(repo / "r.xml"))
    assert (xml.failures, xml.errors) == (0, 0)
    baseline = next(suite for suite in xml if suite.name == "baseline/classic")
    counted = {p.name: p.value for p in baseline.properties()}
    changed = [case for case in baseline if any(p.name == CHANGE for p in case.properties())]
    assert changed and counted[CHANGE] == str(len(changed))
    assert counted["baseline"] == "baselines/b.jsonl"
    for case in changed:
        assert case.is_passed and not any(isinstance(r, Failure | Error) for r in case.result)
        [change] = [p.value for p in case.properties() if p.name == CHANGE]
        assert change.startswith("behaves differently from the baseline: ")
        assert "before: " in case.system_out and "replay: llcheck check " in case.system_out
    assert set(_files(repo, "baseline/classic").values()) == {"baselines/b.jsonl"}


def test_file_names_the_case_file_relative_to_the_repository(capsys, repo):
    code, _, _ = run_llcheck(capsys, "check", "--impl", "python:llcheck.mutants.engines:baron_tie_eliminates",
                             "--edition", "classic", "--corpus", str(repo / "cases"), "--junit",
                             str(repo / "r.xml"), "-q")
    assert code == 1
    cases = [case for suite in JUnitXml.fromfile(str(repo / "r.xml")) for case in suite]
    assert any(isinstance(r, Failure) for case in cases for r in case.result)
    assert set(_files(repo, "required/classic").values()) == {"cases/required/classic/baron.json"}


def test_a_file_outside_the_repository_keeps_its_path(tmp_path):
    inside, outside = tmp_path / "repo", tmp_path / "elsewhere" / "x.json"
    (inside / ".git").mkdir(parents=True)
    assert repository_path(str(inside / "a" / "b.json"), inside / "a") == "a/b.json"
    assert repository_path(str(outside), inside) == str(outside)
    no_repo = tmp_path / "plain"
    no_repo.mkdir()
    assert repository_path(os.fspath(no_repo / "c.json"), no_repo) == str(no_repo / "c.json")
