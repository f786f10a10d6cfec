"""The CI recipes of docs/ci.md, run as written in a clean environment.

A temporary folder plays the user's repository and a fresh virtual environment their CI machine.
The test installs llcheck, records a baseline with the page's *record* command, runs the GitHub
workflow's `run` steps (the reference engine, in process, standing in for `ENGINE`; `PROFILE` as
on a push) and, at the same time in a copy of the repository, the GitLab job's script with an
engine that changed since the baseline, checks the reports they leave and the exit codes CI sees,
and records again with the *update* command. The `uses:` steps are GitHub's own actions: the test
checks what they are given. The install step needs the network, so by default the virtual
environment gets this checkout's llcheck instead (as pip would leave it: a `.pth` file and the
`llcheck` console script) and the test checks that the step installs this project; with
LLCHECK_TEST_INSTALL=1 it runs the step for real (once), with `LLCHECK` naming this checkout.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "ci.md"
REAL_INSTALL = os.environ.get("LLCHECK_TEST_INSTALL") == "1"

PUSH = {"${{ github.event_name == 'schedule' && 'thorough' || 'ci' }}": "ci"}
"""The value each GitHub expression of the workflow's `env` has on a push."""

CHANGED_ENGINE = (ROOT / "tests" / "broken_games.py").read_text(encoding="utf-8") + """

def engine():
    \"\"\"The reference engine, but a Baron tie knocks out the Baron's player: a known failure (the
    list names the one case that shows it), and not what was recorded.\"\"\"
    from llcheck.engines import ReferenceEngine

    return ReferenceEngine(game_class=TieKnocksOutThePlayer)
"""

KNOWN = "classic.baron.tie/nobody-is-out   a Baron tie knocks out the Baron's player\n"


def recipes() -> dict[str, str]:
    """The blocks of docs/ci.md that follow a `<!-- recipe: NAME -->` marker, by name."""
    text = PAGE.read_text(encoding="utf-8")
    return dict(re.findall(r"<!-- recipe: (\w+) -->\n```\w+\n(.*?)```", text, re.S))


def project_name() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["name"]


@pytest.fixture
def machine(tmp_path: Path) -> dict[str, Any]:
    """A fresh virtual environment and an empty repository holding only the changed engine."""
    base = tmp_path
    venv, repo = base / "venv", base / "repo"
    repo.mkdir()
    (repo / "changed_engine.py").write_text(CHANGED_ENGINE, encoding="utf-8")
    subprocess.run([sys.executable, "-m", "venv", *([] if REAL_INSTALL else ["--without-pip"]), str(venv)],
                   check=True)
    if not REAL_INSTALL:
        _provide_llcheck(venv)
    env = {"PATH": f"{venv / 'bin'}{os.pathsep}/usr/bin{os.pathsep}/bin", "HOME": str(base),
           "LANG": "C.UTF-8", "VIRTUAL_ENV": str(venv)}
    return {"venv": venv, "repo": repo, "env": env}


def _provide_llcheck(venv: Path) -> None:
    """What installing llcheck leaves in a virtual environment: importable, and an `llcheck` script."""
    python = venv / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    ours = sysconfig.get_paths()["purelib"]
    Path(purelib, "llcheck-checkout.pth").write_text(f"import site; site.addsitedir({ours!r})\n")
    script = venv / "bin" / "llcheck"
    script.write_text(f"#!{python}\nimport sys\nfrom llcheck.cli import main\nsys.exit(main())\n")
    script.chmod(0o755)


def shell(script: str, machine: dict[str, Any], variables: dict[str, str]) -> subprocess.CompletedProcess:
    """Run a script as CI runners do (bash, stop at the first failing command) in the repository."""
    return started(script, machine, variables).finish()


class started:  # noqa: N801 - used like a function that returns a running script
    """A script started in the background; `finish()` waits for it."""

    def __init__(self, script: str, machine: dict[str, Any], variables: dict[str, str]):
        self.args = ["bash", "-e", "-o", "pipefail", "-c", script]
        self.process = subprocess.Popen(self.args, cwd=machine["repo"], env={**machine["env"], **variables},
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def finish(self) -> subprocess.CompletedProcess[str]:
        """Wait for the script; what it printed and its exit code."""
        out, err = self.process.communicate(timeout=600)
        return subprocess.CompletedProcess(self.args, self.process.returncode, out, err)


def install(command: str, variables: dict[str, str], machine: dict[str, Any]) -> None:
    """The install step: checked for what it installs; with LLCHECK_TEST_INSTALL=1 also run, once."""
    assert "pip install" in command and '"$LLCHECK"' in command
    assert variables["LLCHECK"].startswith(f"{project_name()} @ ")
    if REAL_INSTALL and not machine.get("installed"):
        done = shell(command, machine, {**variables, "LLCHECK": f"{project_name()} @ file://{ROOT}"})
        assert done.returncode == 0, done.stdout + done.stderr
        machine["installed"] = True


def github_env(workflow: dict[str, Any]) -> dict[str, str]:
    job = workflow["jobs"]["llcheck"]
    return {key: PUSH.get(value, value) for key, value in job["env"].items()}


def test_the_page_has_every_recipe():
    assert set(recipes()) == {"github", "gitlab", "record", "update", "gitignore", "recover"}


def test_the_github_workflow_triggers_and_actions():
    workflow = yaml.safe_load(recipes()["github"])
    triggers = workflow[True]  # YAML 1.1 reads the key `on` as true
    assert {"push", "pull_request", "schedule"} <= set(triggers)
    env = github_env(workflow)
    assert not any("${{" in value for value in env.values()), "an expression the test cannot evaluate"
    steps = workflow["jobs"]["llcheck"]["steps"]
    uses = {step["uses"].partition("@")[0]: step.get("with", {}) for step in steps if "uses" in step}
    assert uses["actions/cache"]["path"] == env["HYPOTHESIS_STORAGE_DIRECTORY"] == ".hypothesis"
    assert uses["mikepenz/action-junit-report"]["report_paths"] == "llcheck-junit.xml"
    assert uses["actions/upload-artifact"]["path"].split() == ["llcheck-report.json", "llcheck-results.jsonl"]
    published = [step for step in steps if step.get("uses", "").startswith(("mikepenz", "actions/upload"))]
    assert all(step["if"] == "always()" for step in published)


def test_the_recipes_run_as_written(machine):
    workflow = yaml.safe_load(recipes()["github"])
    variables = github_env(workflow)
    variables["ENGINE"] = "reference"
    steps = workflow["jobs"]["llcheck"]["steps"]
    installs = [step["run"] for step in steps if "pip install" in step.get("run", "")]
    assert len(installs) == 1
    install(installs[0], variables, machine)  # as on the machine where the first baseline is recorded
    done = shell(recipes()["record"], machine, variables)
    assert done.returncode == 0, done.stdout + done.stderr
    baseline = machine["repo"] / variables["BASELINE"]
    assert baseline.is_file() and "llcheck record: loveletter-reference" in done.stdout

    elsewhere = {**machine, "repo": machine["repo"].parent / "repo-copy"}  # the same machine, another job
    shutil.copytree(machine["repo"], elsewhere["repo"])
    # the changed engine fails one case on purpose: the list of the GitLab copy names it
    (elsewhere["repo"] / variables["KNOWN_FAILURES"]).write_text(KNOWN, encoding="utf-8")
    gitlab = _gitlab(elsewhere, changed=True)
    _github(machine, variables, changed=False)
    gitlab()

    changed = {**variables, "ENGINE": "python:changed_engine:engine"}
    update = shell(recipes()["update"], machine, changed)
    assert update.returncode == 0, update.stdout + update.stderr
    assert re.search(r"against the previous baseline: [1-9]\d* changed, 0 new, 0 gone\n", update.stdout)
    assert '"loser":0' in baseline.read_text(encoding="utf-8")


def _github(machine: dict[str, Any], variables: dict[str, str], changed: bool) -> None:
    for step in yaml.safe_load(recipes()["github"])["jobs"]["llcheck"]["steps"]:
        if "run" not in step:
            continue
        if "pip install" in step["run"]:
            install(step["run"], variables, machine)
            continue
        done = shell(step["run"], machine, variables)
        assert done.returncode == 0, done.stdout + done.stderr
        assert ("::warning::" in done.stdout) == changed
    _reports(machine, changed)


def _gitlab(machine: dict[str, Any], changed: bool) -> Callable[[], None]:
    """Start the GitLab job's script; the function that waits for it and checks what it left."""
    job = yaml.safe_load(recipes()["gitlab"])["llcheck"]
    variables = {key: str(value) for key, value in job["variables"].items()}
    assert job["cache"]["paths"] == [".hypothesis/"]
    assert variables["HYPOTHESIS_STORAGE_DIRECTORY"] == ".hypothesis"
    assert job["artifacts"]["reports"]["junit"] == "llcheck-junit.xml"
    assert job["artifacts"]["when"] == "always"
    for command in job["before_script"]:
        install(command, variables, machine)
    variables["ENGINE"] = "python:changed_engine:engine" if changed else "reference"
    running = started("\n".join(job["script"]), machine, variables)

    def finish() -> None:
        done = running.finish()
        allowed = job["allow_failure"]["exit_codes"]
        assert done.returncode == (4 if changed else 0), done.stdout + done.stderr
        assert done.returncode == 0 or done.returncode in ([allowed] if isinstance(allowed, int) else allowed)
        _reports(machine, changed)
    return finish


def _reports(machine: dict[str, Any], changed: bool) -> None:
    report = json.loads((machine["repo"] / "llcheck-report.json").read_text(encoding="utf-8"))
    assert report["exit_code"] == (4 if changed else 0)
    assert report["summary"]["failed"] == 0 and report["summary"]["errored"] == 0
    assert report["summary"]["known_failure"] == (1 if changed else 0)
    assert any(r["kind"] == "property" for r in report["results"])
    root = ET.parse(machine["repo"] / "llcheck-junit.xml").getroot()
    suite = next(s for s in root.iter("testsuite") if s.get("name") == "baseline/classic")
    assert suite.find(".//failure") is None  # a change only warns (exit 4): no red test
    changes = [c for c in suite.iter("testcase") if c.find("properties/property[@name='baseline_changed']")
               is not None]
    assert bool(changes) == changed
    if changed:
        assert '"loser": 0' in changes[0].find("system-out").text
