"""Wrong command-line arguments, to every llcheck command: one line on stderr naming the command
and what is wrong, nothing on stdout, exit code 2, never a traceback."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_llcheck

from llcheck.cli import COMMANDS

CORPUS = str(Path(__file__).parent / "cases")


run = run_llcheck


def assert_usage_error(code: int, out: str, err: str, prefix: str) -> None:
    assert (code, out) == (2, ""), err
    assert err.startswith(prefix) and err.count("\n") == 1 and "Traceback" not in err, err


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_unknown_option_to_any_command(capsys, command):
    code, out, err = run(capsys, command, "--no-such-option", "7")
    assert_usage_error(code, out, err, f"llcheck {command}: ")


@pytest.mark.parametrize("args", [[], ["nosuch"], ["--nosuch"]], ids=["no command", "unknown", "option"])
def test_no_or_an_unknown_command(capsys, args):
    code, out, err = run(capsys, *args)
    assert_usage_error(code, out, err, "llcheck: ")
    assert err.endswith(" (see llcheck --help)\n")


BAD = [
    (["check", "--jobs", "two"], "llcheck check: argument --jobs: must be a whole number from 1 to 256, "
                                 "not 'two' (see llcheck check --help)"),
    (["check", "--timeout", "inf"], "llcheck check: argument --timeout: must be a number of seconds above 0 "
                                    "and at most 1,000,000, not 'inf'"),
    (["check", "--timeout", "nan"], "llcheck check: argument --timeout: must be a number of seconds"),
    (["check", "--case-timeout", "0"], "llcheck check: argument --case-timeout: must be a number of seconds"),
    (["check", "--timeout", "1e10"], "llcheck check: argument --timeout: must be a number of seconds"),
    (["check", "--engine-env", "NO_EQUALS_SIGN"], "llcheck check: argument --engine-env: expected KEY=VALUE "
                                                  "with KEY a variable name, not 'NO_EQUALS_SIGN'"),
    (["check", "--engine-env", "2X=1"], "llcheck check: argument --engine-env: expected KEY=VALUE with KEY a "
                                        "variable name, not '2X=1'"),
    (["check", "--engine-env", "LLCHECK_ENGINE_RUN=x"], "llcheck check: argument --engine-env: "
                                                        "LLCHECK_ENGINE_RUN is set by llcheck itself"),
    (["check", "--engine-cwd", "/no/such/folder"], "llcheck check: argument --engine-cwd: '/no/such/folder' "
                                                   "is not a directory"),
    (["check", "--engine-memory", "-5"], "llcheck check: argument --engine-memory: must be a whole number "
                                         "of MiB from 0 to 1,048,576, not '-5'"),
    (["check", "--status", "nope"], "llcheck check: argument --status: invalid choice: 'nope'"),
    (["check", "--impl", "reference", "--corpus", CORPUS, "--run", "nothing*"],
     "llcheck check: no case is selected"),
    (["simulate", "--edition", "classic", "--players", "many"], "llcheck simulate: argument --players: "),
    (["simulate", "--edition", "classic", "--players", "9"], "llcheck simulate: classic is for 2-4 players"),
    (["show"], "llcheck show: give the spec to show, as NAME|FILE or --edition NAME|FILE (one of them)"),
    (["validate"], "llcheck validate: the following arguments are required: FILE"),
    (["serve", "--impl", "node engine.js"], "llcheck serve: --impl must be reference or python:MODULE:CLASS"),
    (["serve", "--version-of", "x"], "llcheck serve: --version-of chooses a version of a reading's clause"),
    (["cases", "--list", "--show", "x"], "llcheck cases: argument --show: not allowed with argument --list"),
    (["perft", "--depth", "deep"], "llcheck perft: argument --depth: must be a whole number from 1 to 40, "
                                   "not 'deep'"),
    (["perft", "--edition", "classic", "--players", "2", "--seed", "1", "--depth", "2", "--timeout", "-1"],
     "llcheck perft: argument --timeout: must be a number of seconds above 0 and at most 1,000,000, "
     "not '-1'"),
    (["disputes", "--timeout", "nan", "classic", "z-man-2019"],
     "llcheck disputes: argument --timeout: must be a number of seconds above 0 and at most 1,000,000, "
     "not 'nan'"),
    (["disputes", "classic", "z-man-2019", "--jobs", "0"],
     "llcheck disputes: argument --jobs: must be a whole number from 1 to 256, not '0'"),
    (["probe", "--timeout", "1e308"], "llcheck probe: argument --timeout: must be a number of seconds"),
    (["record", "--impl", "reference", "--edition", "classic", "--out", "x.jsonl", "--timeout", "inf"],
     "llcheck record: argument --timeout: must be a number of seconds"),
    (["simulate", "--edition", "fa-guide", "--players", "2", "--version-of", "setup.deck=7"],
     "llcheck simulate: --version-of setup.deck: fa-guide's setup.deck has 2 versions, not 7"),
    (["simulate", "--edition", "classic", "--players", "2", "--version-of", "foo=1"],
     "llcheck simulate: --version-of foo: no spec given contradicts itself on that clause"),
    (["probe", "--edition", "fa-guide", "--version-of", "nothing=1"],
     "llcheck probe: --version-of nothing: no spec given contradicts itself on that clause"),
    (["show", "--edition", "a" * 300], "a" * 300 + ":1:1: cannot read file: File name too long"),
    (["validate", "b" * 300], "b" * 300 + ":1:1: cannot read file: File name too long"),
    (["disputes", "a", "b", "c"], "llcheck disputes: give one reading, two specs, or --all"),
]


@pytest.mark.parametrize(("args", "message"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_a_bad_value_is_named_in_one_line(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert_usage_error(code, out, err, message)


def test_a_real_process_gets_one_line_and_exit_2():
    result = subprocess.run([sys.executable, "-m", "llcheck", "check", "--jobs", "-"],
                            capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == ("llcheck check: argument --jobs: must be a whole number from 1 to 256, not '-' "
                             "(see llcheck check --help)\n")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize(("args", "message"), [
    (["validate", "/dev/zero"], "/dev/zero:1:1: file is larger than the limit of 2,000,000 bytes"),
    (["show", "--edition", "/dev/zero"], "/dev/zero:1:1: file is larger than the limit"),
    (["check", "--baseline", "/dev/zero"], "llcheck check: /dev/zero: file is larger than the limit"),
    (["check", "--known-failures", "/dev/zero"], "llcheck check: /dev/zero: file is larger than the limit"),
], ids=["validate", "show", "baseline", "known-failures"])
def test_an_endless_input_is_refused_at_its_size_limit(capsys, args, message):
    """A device or a pipe has no size to check first: the readers stop one byte past the limit."""
    code, out, err = run(capsys, *args)
    assert_usage_error(code, out, err, message)


def test_a_full_clause_id_chooses_a_version_too(capsys):
    code, out, err = run(capsys, "simulate", "--edition", "fa-guide", "--players", "3", "--games", "1",
                         "--version-of", "fa-guide.setup.deck=2")
    assert "--version-of" not in err


def test_sigterm_stops_any_command_with_exit_130():
    """Ctrl-C, SIGTERM and SIGHUP all end a command with 130 (README, exit codes)."""
    import signal
    import time
    process = subprocess.Popen([sys.executable, "-m", "llcheck", "simulate", "--edition", "classic",
                                "--players", "4", "--games", "100000000", "--seed", "1"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for _ in range(1200):  # until llcheck handles SIGTERM (Linux says so in /proc), at most 60 s
        status = Path(f"/proc/{process.pid}/status")
        caught = [line for line in status.read_text().splitlines() if line.startswith("SigCgt:")] \
            if status.exists() else ["SigCgt: 4000"]  # elsewhere: assume it does
        if int(caught[0].split()[1], 16) & (1 << (signal.SIGTERM - 1)):
            break
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert re.fullmatch(r"llcheck simulate: interrupted; not run: \d+ of 100000000 games",
                        err.strip().splitlines()[-1])


def test_a_terminal_that_cannot_show_a_quote_gets_it_escaped():
    env = {**__import__("os").environ, "PYTHONIOENCODING": "ascii"}
    result = subprocess.run([sys.executable, "-m", "llcheck", "show", "--edition", "fa-guide", "--quotes"],
                            capture_output=True, text=True, timeout=60, env=env)
    assert result.returncode == 0, result.stderr
    assert "\\u0627" in result.stdout and "Traceback" not in result.stderr
