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
    (["disputes", "--rlimit", "nan", "classic", "z-man-2019"],
     "llcheck disputes: argument --rlimit: must be a whole number of z3 resource units from 1 to "
     "4,294,967,295, not 'nan'"),
    (["disputes", "classic", "z-man-2019", "--jobs", "0"],
     "llcheck disputes: argument --jobs: must be a whole number from 1 to 256, not '0'"),
    (["probe", "--rlimit", "1e308"], "llcheck probe: argument --rlimit: must be a whole number of z3"),
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


def _subparsers() -> dict:
    import argparse

    from llcheck.cli import build_parser
    actions = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(actions[0].choices)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_help_page_has_examples_that_parse_and_help_on_every_option(command):
    import argparse
    import shlex

    from llcheck.cli import build_parser
    parser = _subparsers()[command]
    assert parser.epilog and parser.epilog.startswith("examples:\n")
    examples = [line.split("  # ")[0].strip() for line in parser.epilog.splitlines()[1:] if line.strip()]
    assert examples
    for example in examples:
        argv = shlex.split(example.rpartition("&& ")[2].split(" > ")[0])  # the command, not its shell
        assert argv[0] == "llcheck"
        build_parser().parse_args(argv[1:])  # exits 2 on an example that does not parse
    silent = [a.option_strings or [a.dest] for a in parser._actions
              if not a.help and not isinstance(a, argparse._HelpAction)]
    assert silent == []


def test_the_top_help_page_has_examples(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "\nexamples:\n  llcheck smoke --impl " in out


def test_plural_forms_follow_the_count():
    from loveletter_ref.plural import counted
    assert [counted(n, "clause differs", "clauses differ") for n in (0, 1, 2)] == \
        ["0 clauses differ", "1 clause differs", "2 clauses differ"]
    assert counted(1, "result") == "1 result" and counted(3, "property", "properties") == "3 properties"


MUTANT = "python:llcheck.mutants.engines:countess_not_forced"


def test_check_stops_at_the_first_failure_with_x(capsys, tmp_path):
    code, out, err = run(capsys, "check", "--impl", MUTANT, "--edition", "classic", "-q", "-x",
                         "--json", str(tmp_path / "r.json"))
    assert code == 1
    assert out.splitlines()[-1].split(",")[1] == " 1 failed"
    assert err == ("llcheck check: stopped after 1 result went wrong (--max-fail 1): what was left is not "
                   "run\n")
    import json
    results = json.loads((tmp_path / "r.json").read_text())["results"]
    assert [r["status"] for r in results].count("failed") == 1
    code, out, err = run(capsys, "check", "--impl", MUTANT, "--edition", "classic", "-q", "--max-fail", "2")
    assert code == 1 and out.splitlines()[-1].split(",")[1] == " 2 failed"
    code, _, err = run(capsys, "check", "--impl", MUTANT, "--max-fail", "0")
    assert code == 2 and err == ("llcheck check: argument --max-fail: must be a whole number of failures "
                                 "from 1 to 1,000,000, not '0' (see llcheck check --help)\n")


def test_lf_runs_again_only_what_went_wrong(capsys, tmp_path):
    results = str(tmp_path / "last.jsonl")
    code, out, _ = run(capsys, "check", "--impl", MUTANT, "--edition", "classic", "-q", "--results", results)
    failed = int(out.splitlines()[-1].split(",")[1].split()[0])
    assert code == 1 and failed > 0
    code, out, err = run(capsys, "check", "--impl", MUTANT, "--edition", "classic", "-q", "--lf", "--results",
                         results)
    assert code == 1 and out.splitlines()[-1].startswith(f"0 passed, {failed} failed")
    assert err == f"llcheck check: --lf: running again {failed} results that went wrong in {results}\n"
    code, out, err = run(capsys, "check", "--impl", "reference", "--edition", "classic", "-q", "--lf",
                         "--results", results, "--run", "classic.countess.forced/with-king")
    assert code == 0 and out.splitlines()[-1].startswith("1 passed, 0 failed")
    code, out, err = run(capsys, "check", "--impl", "reference", "--edition", "classic", "-q", "--lf",
                         "--results", results)  # that run passed: nothing went wrong, so everything runs
    assert code == 0 and "nothing went wrong" in err and " 0 failed" in out.splitlines()[-1]
    code, _, err = run(capsys, "check", "--impl", "reference", "--lf")
    assert code == 2 and "--lf reads the previous run's results from --results FILE" in err
    (tmp_path / "bad.jsonl").write_text('{"type": "header"}\nnot json\n')
    bad = str(tmp_path / "bad.jsonl")
    code, _, err = run(capsys, "check", "--impl", "reference", "--lf", "--results", bad)
    assert code == 2 and err.startswith(f"llcheck check: {tmp_path / 'bad.jsonl'}:2: not a line of a results")


def test_json_alone_prints_the_report_on_stdout_as_in_every_command(capsys):
    import json
    code, out, err = run(capsys, "check", "--impl", "reference", "--run", "classic.countess.*", "--json")
    assert code == 0 and err == ""
    report = json.loads(out)
    assert report["report"] == "llcheck-check"
    assert report["summary"]["passed"] == report["summary"]["total"] > 0
    for command in (["simulate", "--edition", "classic", "--players", "2", "--games", "3"],
                    ["show", "classic"]):
        code, out, _ = run(capsys, *command, "--json")
        assert code == 0 and isinstance(json.loads(out), dict)
