"""Every command of the README's tour runs as printed, with the paths it names.

The tour's lines are read from README.md itself, so that a renamed path, option or subcommand
fails here before a reader meets it. They run in order in a scratch folder that sees the checkout's
folders (the tour writes a baseline file), with the virtual environment's `llcheck` on PATH as
the README asks. Exit 1 is what `disputes` documents when two readings differ observably; every
other command of the tour must succeed."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
TOUR = "## A short tour"

EXPECTED_CODE = {"disputes": 1}
"""Subcommand -> the exit code its tour line documents, when not 0."""


def tour_commands() -> list[str]:
    """The command lines of the tour's first shell block, without their trailing comments."""
    text = README.read_text(encoding="utf-8")
    tour = text[text.index(TOUR):]
    block = re.search(r"```sh\n(.*?)```", tour, re.S)
    assert block, "the README's tour has no sh block"
    lines = []
    for line in block.group(1).splitlines():
        command = re.sub(r"\s+#\s.*$", "", line).strip()
        if command:
            lines.append(command)
    return lines


def subcommand(line: str) -> str:
    """The llcheck subcommand of the last `llcheck` a line runs."""
    words = shlex.split(line)
    return words[len(words) - 1 - words[::-1].index("llcheck") + 1]


def test_the_tour_is_found_and_names_every_documented_job():
    jobs = {subcommand(line) for line in tour_commands()}
    assert {"validate", "show", "simulate", "check", "serve", "disputes", "probe", "record"} <= jobs


@pytest.mark.skipif(shutil.which("node") is None, reason="the tour checks the Node.js example engine")
def test_the_tour_runs_as_printed_line_by_line_in_one_folder(tmp_path):
    """In order, as a reader would: the baseline the tour records is the one it then checks."""
    for name in ("spec", "conformance", "docs"):
        (tmp_path / name).symlink_to(ROOT / name)
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    for line in tour_commands():
        done = subprocess.run(["bash", "-c", line], cwd=tmp_path, env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True)
        want = EXPECTED_CODE.get(subcommand(line), 0)
        assert "Traceback" not in done.stderr and done.returncode == want, (
            f"{line}\nexit {done.returncode}, not {want}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")


def test_the_main_job_of_the_set_up_runs():
    """The set-up's first command ends with the main job: the corpus against the reference."""
    text = README.read_text(encoding="utf-8")
    first = re.search(r"```sh\n(.*?)\n```", text[text.index("## Set-up"):], re.S)
    assert first
    job = first.group(1).split("&&")[-1].strip()
    assert job == ".venv/bin/llcheck check"
    done = subprocess.run([str(Path(sys.executable).parent / "llcheck"), "check"], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert " 0 failed, 0 errored" in done.stdout


REPO_FOLDERS = ("spec/", "conformance/", "docs/", "tools/", "tests/", "loveletter_ref/")


def documented_commands() -> list[tuple[str, int, str]]:
    """(file, line, command) of every llcheck or tools/ command in a sh block of the README and
    docs/*.md."""
    found = []
    for path in [README, *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for block in re.finditer(r"```(?:sh|bash|console)\n(.*?)```", text, re.S):
            first = text.count("\n", 0, block.start(1)) + 1
            for offset, line in enumerate(block.group(1).splitlines()):
                command = re.sub(r"\s+#\s.*$", "", line.removeprefix("$ ")).strip()
                if re.search(r"(^|&& |\| )(\.venv/bin/)?(llcheck|python3? tools/)", command):
                    found.append((str(path.relative_to(ROOT)), first + offset, command))
    return found


def test_every_path_a_documented_command_names_exists():
    missing = []
    for file, line, command in documented_commands():
        try:
            words = shlex.split(command)
        except ValueError:
            continue
        for word in words:
            for part in re.split(r"[=:]", word):
                if part.startswith(REPO_FOLDERS) and "*" not in part and "<" not in part \
                        and part.split("/")[-1] and not (ROOT / part).exists() \
                        and not any(part.startswith(w) for w in ("docs/disputes", "tests/tmp")):
                    missing.append(f"{file}:{line}: {part}")
    assert not missing, "documented commands name paths that are not in the checkout:\n" + "\n".join(missing)


def test_every_documented_llcheck_command_parses():
    from llcheck.cli import build_parser

    wrong = []
    for file, line, command in documented_commands():
        for part in re.split(r"&&|\|", command):
            words = shlex.split(part) if part.count("'") % 2 == 0 else []
            placeholder = any("..." in w or "<" in w for w in words)
            if not words or words[0].split("/")[-1] != "llcheck" or placeholder:
                continue
            try:
                args, extra = build_parser().parse_known_args(words[1:])
            except SystemExit:
                wrong.append(f"{file}:{line}: {part.strip()}")
                continue
            if extra:
                wrong.append(f"{file}:{line}: {part.strip()} (unknown: {' '.join(extra)})")
    assert not wrong, "documented llcheck commands that llcheck refuses:\n" + "\n".join(wrong)
