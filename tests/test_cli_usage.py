"""Wrong command-line arguments, to every llcheck command: one line on stderr naming the command
and what is wrong, nothing on stdout, exit code 2, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from llcheck.cli import COMMANDS, main

CORPUS = str(Path(__file__).parent / "cases")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of `llcheck ARGS` (argparse's own errors included)."""
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


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
    (["check", "--jobs", "two"], "llcheck check: argument --jobs: invalid int value: 'two' "
                                 "(see llcheck check --help)"),
    (["check", "--timeout", "inf"], "llcheck check: --timeout must be a positive number of seconds"),
    (["check", "--timeout", "nan"], "llcheck check: --timeout must be a positive number of seconds"),
    (["check", "--case-timeout", "0"], "llcheck check: --case-timeout must be a positive number of seconds"),
    (["check", "--engine-env", "NO_EQUALS_SIGN"], "llcheck check: argument --engine-env: expected KEY=VALUE "
                                                  "with KEY a variable name, not 'NO_EQUALS_SIGN'"),
    (["check", "--engine-env", "2X=1"], "llcheck check: argument --engine-env: expected KEY=VALUE with KEY a "
                                        "variable name, not '2X=1'"),
    (["check", "--engine-env", "LLCHECK_ENGINE_RUN=x"], "llcheck check: argument --engine-env: "
                                                        "LLCHECK_ENGINE_RUN is set by llcheck itself"),
    (["check", "--engine-cwd", "/no/such/folder"], "llcheck check: argument --engine-cwd: '/no/such/folder' "
                                                   "is not a directory"),
    (["check", "--engine-memory", "-5"], "llcheck check: argument --engine-memory: expected a whole number "
                                         "of MiB (0 for no cap), not '-5'"),
    (["check", "--status", "nope"], "llcheck check: argument --status: invalid choice: 'nope'"),
    (["check", "--impl", "reference", "--corpus", CORPUS, "--run", "nothing*"],
     "llcheck check: no case is selected"),
    (["simulate", "--edition", "classic", "--players", "many"], "llcheck simulate: argument --players: "),
    (["simulate", "--edition", "classic", "--players", "9"], "llcheck simulate: classic is for 2-4 players"),
    (["show"], "llcheck show: the following arguments are required: --edition"),
    (["validate"], "llcheck validate: the following arguments are required: FILE"),
    (["serve", "--impl", "node engine.js"], "llcheck serve: --impl must be reference or python:MODULE:CLASS"),
    (["serve", "--version-of", "x"], "llcheck serve: --version-of chooses a version of a reading's clause"),
    (["cases", "--list", "--show", "x"], "llcheck cases: argument --show: not allowed with argument --list"),
    (["perft", "--depth", "deep"], "llcheck perft: argument --depth: invalid int value: 'deep'"),
    (["perft", "--edition", "classic", "--players", "2", "--seed", "1", "--depth", "2", "--timeout", "-1"],
     "llcheck perft: --timeout must be a positive number of seconds"),
    (["disputes", "--timeout", "nan", "classic", "z-man-2019"],
     "llcheck disputes: --timeout must be positive"),
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
    assert result.stderr == ("llcheck check: argument --jobs: invalid int value: '-' "
                             "(see llcheck check --help)\n")
