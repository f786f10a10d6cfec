"""The pytest plugin: `pytest --llcheck-impl=...` runs each case as a test named by its id; the
`llcheck_engine_factory` fixture; nothing changes in a run without the option."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from llcheck import pytest_plugin
from llcheck.harness.cases import STATUSES
from llcheck.harness.select import DEFAULT_GROUPS

TESTS = Path(__file__).parent
CORPUS = str(TESTS / "cases")


def pytest_in(folder: Path, *args: str, hypothesis: bool = False) -> subprocess.CompletedProcess[str]:
    """Run pytest in `folder` (the plugin is loaded through its pytest11 entry point; hypothesis's
    own plugin only when `hypothesis`)."""
    env = dict(os.environ, PYTHONPATH=str(TESTS))
    env.pop("PYTEST_ADDOPTS", None)
    env.pop("HYPOTHESIS_PROFILE", None)
    plugins = [] if hypothesis else ["-p", "no:hypothesispytest"]
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *plugins, *args]
    return subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, timeout=300)


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
    assert (f"  replay: llcheck check --impl python:adapters:DropDiscards --corpus {shlex.quote(CORPUS)} "
            "--run runner/guard-hit\n") in run.stdout
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


def test_the_editions_come_from_the_engines_hello_unless_one_is_chosen(tmp_path):
    """Regression: without --llcheck-edition a classic-only engine got a skipped test for every case
    of the other editions."""
    run = pytest_in(tmp_path, "--llcheck-impl=python:adapters:ClassicOnly", "-k", "baron.compare", "-v",
                    "-rs")
    assert run.returncode == 0, run.stdout
    ran = re.findall(r"^llcheck-corpus::(\S+) (?:PASSED|SKIPPED)", run.stdout, flags=re.MULTILINE)
    assert ran and all(case.startswith("classic.") for case in ran)
    assert "does not play" not in run.stdout  # what is skipped needs a capability it lacks
    run = pytest_in(tmp_path, "--llcheck-impl=reference", "-k", "baron.compare", "-v")
    assert {"classic", "z19", "premium"} <= set(re.findall(r"^llcheck-corpus::([a-z0-9]+)\.", run.stdout,
                                                           flags=re.MULTILINE))


def test_a_node_id_from_the_summary_runs_that_case_alone(tmp_path):
    """Regression: `pytest 'llcheck-corpus::ID'` said "file or directory not found"."""
    (tmp_path / "test_mine.py").write_text("def test_mine():\n    assert False\n")
    impl = "--llcheck-impl=python:adapters:DropDiscards"
    run = pytest_in(tmp_path, impl, f"--llcheck-corpus={CORPUS}", "-rf")
    failed = re.findall(r"^FAILED (llcheck-corpus::\S+)", run.stdout, flags=re.MULTILINE)
    assert failed == ["llcheck-corpus::runner/guard-hit"], run.stdout
    again = pytest_in(tmp_path, impl, f"--llcheck-corpus={CORPUS}", failed[0], "-v")
    assert again.returncode == 1, again.stdout + again.stderr
    assert re.findall(r"^(llcheck-corpus::\S+) FAILED", again.stdout, flags=re.MULTILINE) == failed
    assert "test_mine" not in again.stdout and "1 failed in" in again.stdout
    both = pytest_in(tmp_path, impl, f"--llcheck-corpus={CORPUS}", failed[0], "test_mine.py")
    assert "2 failed in" in both.stdout
    wrong = pytest_in(tmp_path, impl, f"--llcheck-corpus={CORPUS}", "llcheck-corpus::no/such-case")
    assert wrong.returncode == 4
    assert "ERROR: llcheck: no case no/such-case in the corpus" in wrong.stderr


@pytest.mark.parametrize(("options", "said"), [
    (["--llcheck-impl=python:no_such_module:Engine"],
     "ERROR: llcheck: cannot start the engine: cannot import 'no_such_module'"),
    (["--llcheck-impl=python:adapters:NoSuchClass"],
     "ERROR: llcheck: cannot start the engine: module 'adapters' has no 'NoSuchClass'"),
    (["--llcheck-impl=python:adapters:ClassicOnly", "--llcheck-edition=z-man-2019"],
     "ERROR: llcheck: --llcheck-edition: the engine does not play z-man-2019 (it plays: classic)"),
    (["--llcheck-impl=reference", "--llcheck-timeout=0"], "argument --llcheck-timeout: must be a number of "
                                                          "seconds above 0"),
])
def test_an_engine_or_option_that_cannot_work_is_one_usage_error(tmp_path, options, said):
    """Regression: a wrong --llcheck-impl failed every test, a wrong edition ran nothing and
    passed, a timeout of 0 timed every request out."""
    run = pytest_in(tmp_path, *options)
    assert run.returncode == 4, run.stdout + run.stderr
    assert said in run.stderr and "failed" not in run.stdout


def test_properties_under_pytest_name_their_clauses_and_replay_and_honour_known_failures(tmp_path):
    """Regression: a failed property showed neither its clauses nor a command that runs it again,
    and --llcheck-known-failures did not apply to properties."""
    impl = "--llcheck-impl=python:llcheck.mutants.engines:winner_gets_two_tokens"
    chosen = ["--pyargs", "llcheck.properties", impl, "-k", "property and tokens-classic-2p"]
    run = pytest_in(tmp_path, *chosen, hypothesis=True)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "  clause classic.tokens.round-win: " in run.stdout
    replay = ("  replay: llcheck check --impl python:llcheck.mutants.engines:winner_gets_two_tokens "
              "--properties --profile ci --seed 0 --edition classic --run property/tokens/classic/2p\n")
    assert replay in run.stdout
    known = tmp_path / "known.txt"
    known.write_text("property/tokens/classic/2p   pays two tokens\n")
    run = pytest_in(tmp_path, *chosen, f"--llcheck-known-failures={known}", hypothesis=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 xfailed" in run.stdout


def test_the_thorough_profile_can_be_named_on_the_command_line(tmp_path):
    """Regression: `--hypothesis-profile thorough` (docs/properties.md) stopped pytest with "Profile
    'thorough' is not registered" outside the project's own test suite."""
    run = pytest_in(tmp_path, "--pyargs", "llcheck.properties", "--llcheck-impl=reference",
                    "--hypothesis-profile", "thorough", "--collect-only", "-q", hypothesis=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "test_property[tokens-classic-2p]" in run.stdout


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
