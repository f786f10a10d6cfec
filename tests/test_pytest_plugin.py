"""The pytest plugin: `pytest --llcheck-impl=...` runs each case as a test named by its id; the
`llcheck_engine_factory` fixture; nothing changes in a run without the option."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from llcheck import pytest_plugin
from llcheck.harness.cases import STATUSES
from llcheck.harness.select import DEFAULT_GROUPS

TESTS = Path(__file__).parent
CORPUS = str(TESTS / "cases")


def pytest_in(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run pytest in `folder` (the plugin is loaded through its pytest11 entry point)."""
    env = dict(os.environ, PYTHONPATH=str(TESTS))
    env.pop("PYTEST_ADDOPTS", None)
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", *args]
    return subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, timeout=120)


def test_each_case_is_a_test_named_by_its_id(tmp_path):
    run = pytest_in(tmp_path, f"--llcheck-impl={sys.executable} -m llcheck serve",
                    f"--llcheck-corpus={CORPUS}", "-v", "-k", "not views-only")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "llcheck-corpus::runner/guard-hit PASSED" in run.stdout
    assert "4 passed, 1 deselected" in run.stdout


def test_a_failing_case_shows_the_divergence_and_known_failures_are_xfail(tmp_path):
    run = pytest_in(tmp_path, "--llcheck-impl=python:adapters:DropDiscards", f"--llcheck-corpus={CORPUS}",
                    "-k", "classic.guard.guess")
    assert run.returncode == 1
    assert "round 1, step 1 (Guard on 1 naming Priest): events" in run.stdout
    assert "1 failed, 1 passed, 3 deselected" in run.stdout
    known = tmp_path / "known.txt"
    known.write_text("runner/guard-hit   drops discard events\n")
    run = pytest_in(tmp_path, "--llcheck-impl=python:adapters:DropDiscards", f"--llcheck-corpus={CORPUS}",
                    f"--llcheck-known-failures={known}", "-rx")
    assert run.returncode == 0, run.stdout
    assert "XFAIL llcheck-corpus::runner/guard-hit - known failure (drops discard events)" in run.stdout
    assert "4 passed, 1 xfailed" in run.stdout


def test_the_engine_factory_fixture_and_no_interference_without_the_option(tmp_path):
    (tmp_path / "test_mine.py").write_text(
        "def test_fresh_engines(llcheck_engine_factory):\n"
        "    one, two = llcheck_engine_factory(), llcheck_engine_factory()\n"
        "    assert one is not two and one.hello.can('views')\n"
        "    one.close(); two.close()\n")
    run = pytest_in(tmp_path, "-rs")
    assert run.returncode == 0, run.stdout
    assert "1 skipped" in run.stdout
    assert "no engine under test: run pytest with --llcheck-impl=IMPL" in run.stdout
    run = pytest_in(tmp_path, "--llcheck-impl=reference", f"--llcheck-corpus={CORPUS}")
    assert run.returncode == 0, run.stdout
    assert "6 passed" in run.stdout


def test_the_plugin_names_the_corpus_folders_as_the_harness_does():
    assert (pytest_plugin.FOLDERS, pytest_plugin.DEFAULT_FOLDERS) == (STATUSES, DEFAULT_GROUPS)


def test_the_editions_the_engine_does_not_play_are_skipped_unless_one_is_chosen(tmp_path):
    run = pytest_in(tmp_path, "--llcheck-impl=python:adapters:ClassicOnly", "-k", "baron.compare", "-rs")
    assert run.returncode == 0, run.stdout
    assert "the engine does not play z-man-2019" in run.stdout
    assert "the engine does not play premium" in run.stdout
    run = pytest_in(tmp_path, "--llcheck-impl=python:adapters:ClassicOnly", "--llcheck-edition=classic",
                    "-k", "baron.compare", "-rs")
    assert run.returncode == 0, run.stdout
    assert "does not play" not in run.stdout and " passed" in run.stdout


class _Options:
    """Stands for pytest's parser: records the options a plugin adds."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def getgroup(self, *args: object) -> _Options:
        return self

    def addoption(self, name: str, **kwargs: object) -> None:
        self.names.append(name)


def test_docs_ci_documents_every_option_of_the_plugin():
    options = _Options()
    pytest_plugin.pytest_addoption(options)  # type: ignore[arg-type]
    page = (TESTS.parent / "docs" / "ci.md").read_text(encoding="utf-8")
    documented = re.findall(r"^\| `(--llcheck-[a-z-]+)", page, flags=re.MULTILINE)
    assert documented == options.names
