"""The recipes of docs/ci.md for a maintainer whose engine fails a case on purpose, run as written:
the record recipe, the GitHub step and the GitLab script with a known-failures list, the
.gitignore recipe against what they leave, and the recover recipe on a baseline cut short and on
one holding the markers of a merge conflict. (tests/test_ci_recipe.py runs the others.)"""

from __future__ import annotations

import json
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import yaml
from test_ci_recipe import github_env, install, machine, recipes, shell  # noqa: F401 - machine: the fixture

TESTS = Path(__file__).parent

ENGINE = '''\
"""Our engine: the reference engine, but a Baron tie knocks out the Baron's player (issue 12)."""

from broken_games import TieKnocksOutThePlayer

from llcheck.engines import ReferenceEngine


def engine():
    return ReferenceEngine(game_class=TieKnocksOutThePlayer)
'''

KNOWN = "classic.baron.tie/nobody-is-out   a Baron tie knocks out the Baron's player (issue 12)\n"


def git(host: dict[str, Any], *args: str) -> subprocess.CompletedProcess[str]:
    identity = {"GIT_AUTHOR_NAME": "m", "GIT_AUTHOR_EMAIL": "m@example.org", "GIT_COMMITTER_NAME": "m",
                "GIT_COMMITTER_EMAIL": "m@example.org"}
    return subprocess.run(["git", *args], cwd=host["repo"], env={**host["env"], **identity},
                          capture_output=True, text=True, check=False)


def check_step(host: dict[str, Any], variables: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The GitHub workflow's steps that run a command, as CI runs them (install: checked only)."""
    done = None
    for step in yaml.safe_load(recipes()["github"])["jobs"]["llcheck"]["steps"]:
        if "pip install" in step.get("run", ""):
            install(step["run"], variables, host)
        elif "run" in step:
            done = shell(step["run"], host, variables)
    assert done is not None
    return done


def test_the_recipes_with_known_failures_a_gitignore_and_a_broken_baseline(machine):  # noqa: F811
    repo = machine["repo"]
    shutil.copy(TESTS / "broken_games.py", repo)
    (repo / "our_engine.py").write_text(ENGINE, encoding="utf-8")
    variables = {**github_env(yaml.safe_load(recipes()["github"])), "ENGINE": "python:our_engine:engine"}
    done = shell(recipes()["record"], machine, variables)
    assert done.returncode == 0, done.stdout + done.stderr
    known = repo / variables["KNOWN_FAILURES"]
    assert known.read_text() == ""
    known.write_text(KNOWN, encoding="utf-8")

    done = check_step(machine, variables)
    assert done.returncode == 0 and "::warning::" not in done.stdout, done.stdout + done.stderr
    _reports(repo)
    _gitlab(machine)

    (repo / ".gitignore").write_text(recipes()["gitignore"], encoding="utf-8")
    assert git(machine, "init", "-q").returncode == 0
    for path in ("llcheck-junit.xml", "llcheck-report.json", "llcheck-results.jsonl", ".hypothesis/examples",
                 "llcheck-results/fuzz/classic-2p.json"):
        assert git(machine, "check-ignore", "-q", path).returncode == 0, path
    for path in (variables["BASELINE"], variables["KNOWN_FAILURES"]):
        assert git(machine, "check-ignore", "-q", path).returncode == 1, path
    assert git(machine, "add", "-A").returncode == 0
    assert git(machine, "commit", "-q", "-m", "llcheck in CI").returncode == 0

    baseline = repo / variables["BASELINE"]
    recorded = baseline.read_text(encoding="utf-8").splitlines(keepends=True)
    for broken in (recorded[:40], recorded[:30] + ["<<<<<<< HEAD\n"] + recorded[30:]):
        baseline.write_text("".join(broken), encoding="utf-8")
        done = check_step(machine, variables)
        assert done.returncode == 2
        again = (f"llcheck record --impl python:our_engine:engine --edition classic --games 2 --seed 0 --out "
                 f"{variables['BASELINE']}")
        assert f"; to record it again, remove the file and run: {again}\n" in done.stderr
        done = shell(recipes()["recover"], machine, variables)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "against the previous baseline: 0 changed, 0 new, 0 gone" in done.stdout
        assert baseline.read_text(encoding="utf-8") == "".join(recorded)  # the one the check passed


def _reports(repo: Path) -> None:
    """What the check leaves: the known failure in every report, and a results stream that ended."""
    report = json.loads((repo / "llcheck-report.json").read_text(encoding="utf-8"))
    assert (report["exit_code"], report["summary"]["known_failure"], report["summary"]["failed"]) == (0, 1, 0)
    lines = [json.loads(line) for line in (repo / "llcheck-results.jsonl").read_text().splitlines()]
    assert lines[0]["type"] == "header" and lines[-1]["type"] == "summary" and lines[-1]["exit_code"] == 0
    assert [line["status"] for line in lines if line.get("id") == "classic.baron.tie/nobody-is-out"] == \
        ["known_failure"]
    skipped = [c for c in ET.parse(repo / "llcheck-junit.xml").getroot().iter("testcase")
               if c.find("skipped") is not None]
    assert [c.get("name") for c in skipped] == ["classic.baron.tie/nobody-is-out"]


def _gitlab(host: dict[str, Any]) -> None:
    """The GitLab job's script, in a copy of the repository, with the same list."""
    job = yaml.safe_load(recipes()["gitlab"])["llcheck"]
    assert job["artifacts"]["paths"] == ["llcheck-report.json", "llcheck-results.jsonl"]
    variables = {**{key: str(value) for key, value in job["variables"].items()},
                 "ENGINE": "python:our_engine:engine"}
    copy = {**host, "repo": host["repo"].parent / "repo-gitlab"}
    shutil.copytree(host["repo"], copy["repo"])
    done = shell("\n".join(job["script"]), copy, variables)
    assert done.returncode == 0, done.stdout + done.stderr
    _reports(copy["repo"])
