"""Nothing is lost when a run is stopped: a real `llcheck check` process is interrupted while its
engine hangs in the third case, and every verdict reached before is on disk. A run with worker
processes (`--jobs`) stops at once, and takes its workers and their engines along."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hostile import CORPUS, PROC, ZOO, carrying, no_survivors, written_so_far
from test_check_command import schema_validator

from llcheck.harness.cases import load_corpus
from llcheck.interrupts import StopSignals

pytestmark = [pytest.mark.skipif(not PROC.is_dir(), reason="finding leftover processes needs /proc"),
              pytest.mark.usefixtures("sigint_delivered")]


@pytest.fixture
def token():
    with no_survivors() as value:
        yield value

SUMMARY = "2 passed, 0 failed, 0 errored, 0 skipped in "
STREAM_LINE = schema_validator("stream_line")


class Run:
    """`llcheck check` against an engine that plays two cases, then hangs deaf to SIGTERM."""

    def __init__(self, tmp_path: Path, token: str, *env: str):
        self.stream, self.report, self.junit = (tmp_path / name for name in ("r.jsonl", "r.json", "r.xml"))
        impl = shlex.join([sys.executable, str(ZOO / "hangs.py")])
        options = [f"--engine-env={e}" for e in ("HANG_AFTER=2", f"ZOO_TOKEN={token}", *env)]
        self.process = subprocess.Popen(
            [sys.executable, "-m", "llcheck", "check", "--corpus", CORPUS, "--impl", impl, "--timeout", "60",
             *options, "--results", str(self.stream), "--json", str(self.report), "--junit", str(self.junit),
             "-q"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.token = token

    def lines(self) -> list[dict]:
        """The results stream so far, each line parsed and valid (a partial line would fail)."""
        text = written_so_far(self.stream)
        lines = [json.loads(line) for line in text.splitlines()]
        for line in lines:
            STREAM_LINE.validate(line)
        return lines

    def stop_with(self, signum: int) -> tuple[int, str, str]:
        """Wait until two results are streamed and the engine hangs, send `signum`; code, stdout, stderr."""
        deadline = time.monotonic() + 60
        while sum(line["type"] == "result" for line in self.lines()) < 2 or len(carrying(self.token)) < 1:
            assert time.monotonic() < deadline and self.process.poll() is None, self.process.communicate()
            time.sleep(0.05)
        time.sleep(0.2)  # the engine is now hanging in the third case
        self.process.send_signal(signum)
        out, err = self.process.communicate(timeout=60)
        return self.process.returncode, out, err


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["Ctrl-C", "SIGTERM"])
def test_a_stopped_run_writes_every_report_with_what_ran(tmp_path, token, signum):
    run = Run(tmp_path, token)
    code, out, err = run.stop_with(signum)
    assert code == 130
    total = len(load_corpus(Path(CORPUS)))
    left = f"not run: {total - 2} of {total} cases and campaign results"
    assert err == f"llcheck check: stopped by {signum.name}; the results reached so far are kept; {left}\n"
    assert out.splitlines()[-1].startswith(SUMMARY)
    assert out.endswith(f" (interrupted: 2 results kept; {left})\n")
    lines = run.lines()
    assert [line["type"] for line in lines] == ["header", "result", "result", "summary"]
    assert [(line["id"], line["status"]) for line in lines[1:3]] == [("runner/guard-hit", "passed"),
                                                                   ("runner/refusals", "passed")]
    assert lines[-1]["interrupted"] is True and lines[-1]["exit_code"] == 130
    report = json.loads(run.report.read_text())
    schema_validator().validate(report)
    assert (report["interrupted"], report["exit_code"], len(report["results"])) == (True, 130, 2)
    assert ET.parse(run.junit).getroot().get("tests") == "2"


def test_a_killed_run_keeps_every_verdict_and_takes_its_engine_along(tmp_path, token):
    run = Run(tmp_path, token, "HANG_HELPER=0")
    code, _, _ = run.stop_with(signal.SIGKILL)
    assert code == -signal.SIGKILL
    lines = run.lines()
    assert [line["type"] for line in lines] == ["header", "result", "result"]
    assert [line["status"] for line in lines[1:]] == ["passed", "passed"]


def _send(signum: int) -> None:
    """Signal this process and give the handler (run between bytecodes) the time to run."""
    os.kill(os.getpid(), signum)
    time.sleep(0.05)


def test_a_first_signal_asks_a_second_insists_and_writing_reports_holds_them():
    before = signal.getsignal(signal.SIGTERM)
    with StopSignals() as signals:
        with signals.polled() as stop:
            _send(signal.SIGTERM)
            assert stop.is_set() and signals.received == "SIGTERM"
            with pytest.raises(KeyboardInterrupt):
                _send(signal.SIGINT)
        with signals.held():
            _send(signal.SIGINT)
        with pytest.raises(KeyboardInterrupt):
            _send(signal.SIGHUP)
    assert signal.getsignal(signal.SIGTERM) is before


def test_a_signal_the_user_ignores_stays_ignored():
    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with StopSignals() as signals:
            _send(signal.SIGHUP)
            assert signals.received is None
    finally:
        signal.signal(signal.SIGHUP, before)


PARALLEL = {
    # arguments; the processes carrying the token once running (llcheck carries it, and so do the
    # workers it forks and the engines they start); what llcheck says when stopped
    "fuzzing": (["check", "--fuzz", "100000", "--edition", "classic", "--run", "fuzz/*", "--jobs", "2", "-q"],
                5, r"llcheck check: stopped by {}; the results reached so far are kept; "
                   r"not run: [1-3] of 3 cases and campaign results\n"),
    "probes": (["probe", "--jobs", "2", "--edition", "z-man-2019"], 3,
               r"llcheck probe: interrupted; not run: [1-5] of 5 editions and player counts\n"),
}


@pytest.mark.parametrize(("command", "signum"), [("fuzzing", signal.SIGINT), ("fuzzing", signal.SIGTERM),
                                                 ("probes", signal.SIGINT)],
                         ids=["fuzzing-Ctrl-C", "fuzzing-SIGTERM", "probes-Ctrl-C"])
def test_a_stopped_parallel_run_ends_at_once_with_its_workers_and_their_engines(token, command, signum):
    args, processes, said = PARALLEL[command]
    process = subprocess.Popen([sys.executable, "-m", "llcheck", *args],
                               env={**os.environ, "ZOO_TOKEN": token}, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while len(carrying(token)) < processes:
        assert time.monotonic() < deadline and process.poll() is None, process.communicate()
        time.sleep(0.05)
    time.sleep(0.5)
    process.send_signal(signum)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert re.fullmatch(said.format(signum.name), err), err
    assert "Traceback" not in out
