"""`--cluster`: campaigns as tasks on a Dask cluster (a local one of two workers here) report what
one process reports, byte for byte once the timings are left out; a task whose worker is killed
is run again elsewhere; Ctrl-C cancels the rest and keeps what finished."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from cluster_adapters import MARK
from conftest import run_llcheck
from hostile import streamed_results
from untimed import untimed

from llcheck.cli import build_parser

pytest.importorskip("distributed")

TESTS = Path(__file__).parent

def report_bytes(path: Path) -> bytes:
    return json.dumps(untimed(json.loads(path.read_text())), indent=1, ensure_ascii=False).encode()


def llcheck(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "llcheck", *args], cwd=TESTS, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=600)


def fuzz_and_properties(out: Path, impl: str, *more: str, env: dict[str, str] | None = None
                        ) -> subprocess.CompletedProcess[str]:
    """A campaign of 20 fuzzed games for each of the 3 classic seats (60 in all) and the
    properties of the two-player seat, JSON report in `out`."""
    return llcheck("check", "--impl", impl, "--edition", "classic", "--run", "fuzz/*",
                   "--run", "property/*/2p", "--fuzz", "20", "--properties", "--seed", "7",
                   "--fuzz-dir", str(out.parent), "--json", str(out), "-q", *more, env=env)


def test_a_campaign_on_a_local_cluster_reports_what_one_process_reports(tmp_path):
    alone = fuzz_and_properties(tmp_path / "alone.json", "reference")
    spread = fuzz_and_properties(tmp_path / "spread.json", "reference", "--cluster", "local:2")
    assert (alone.returncode, spread.returncode) == (0, 0), alone.stderr + spread.stderr
    assert report_bytes(tmp_path / "spread.json") == report_bytes(tmp_path / "alone.json")
    results = json.loads((tmp_path / "spread.json").read_text())["results"]
    assert [r["id"] for r in results if r["kind"] == "fuzz"] == [f"fuzz/classic/{n}p" for n in (2, 3, 4)]
    assert all("no difference in 20 games" in r["message"] for r in results if r["kind"] == "fuzz")


def test_a_killed_worker_loses_no_result(tmp_path):
    """The three-player seat's first try kills its worker (SIGKILL): the scheduler runs it again on
    another worker, stderr says so, and the report is the one a single process gives."""
    impl = "python:cluster_adapters:KillsItsWorkerOnce"
    mark = tmp_path / "killed"
    alone = fuzz_and_properties(tmp_path / "alone.json", impl, env={MARK: str(mark)})
    assert not mark.exists()  # nothing is killed outside a worker
    spread = fuzz_and_properties(tmp_path / "spread.json", impl, "--cluster", "local:2",
                                 env={MARK: str(mark)})
    assert mark.exists(), "no worker was killed"
    assert (alone.returncode, spread.returncode) == (0, 0), alone.stderr + spread.stderr
    assert report_bytes(tmp_path / "spread.json") == report_bytes(tmp_path / "alone.json")
    assert "was started again after its worker was lost" in spread.stderr


def test_a_seat_that_kills_every_worker_it_runs_on_is_an_errored_result(tmp_path):
    """As with --jobs: the seat's result says its worker died, the other seats are checked."""
    run = llcheck("check", "--impl", "python:hostile_adapters:EndsItsProcessWithThreePlayers", "--edition",
                  "classic", "--run", "fuzz/*", "--fuzz", "3", "--cluster", "local:2", "--fuzz-dir",
                  str(tmp_path), "--json", str(tmp_path / "r.json"), "-q")
    assert run.returncode == 1, run.stderr
    statuses = {r["id"]: r["status"] for r in json.loads((tmp_path / "r.json").read_text())["results"]}
    assert statuses == {"fuzz/classic/2p": "passed", "fuzz/classic/3p": "errored",
                        "fuzz/classic/4p": "passed"}
    assert "ERRORED fuzz/classic/3p" in run.stdout
    assert "the worker process running it died (its exit code unknown)" in run.stdout


def test_ctrl_c_cancels_the_tasks_and_keeps_what_finished(tmp_path):
    """The two-player seat hangs; once the other two are reported, Ctrl-C: exit 130, the two kept."""
    stream, report = tmp_path / "r.jsonl", tmp_path / "r.json"
    process = subprocess.Popen(
        [sys.executable, "-m", "llcheck", "check", "--impl", "python:hostile_adapters:HangsWithTwoPlayers",
         "--edition", "classic", "--run", "fuzz/*", "--fuzz", "2", "--cluster", "local:2", "--fuzz-dir",
         str(tmp_path), "--results", str(stream), "--json", str(report), "-q"],
        cwd=TESTS, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    done = streamed_results(process, stream, 2)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    kept = json.loads(report.read_text())
    assert kept["interrupted"] is True
    assert sorted(r["id"] for r in kept["results"]) == sorted(done) == ["fuzz/classic/3p", "fuzz/classic/4p"]


@pytest.mark.parametrize("value", ["local:0", "local:x", "local:", "local:9999", "", "tcp://a b"])
def test_a_bad_cluster_address_is_a_usage_error(capsys, value):
    with pytest.raises(SystemExit) as stopped:
        build_parser().parse_args(["check", "--cluster", value])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("llcheck check: argument --cluster: ") and len(err.splitlines()) == 1


def test_an_unreachable_scheduler_is_one_line_and_exit_code_2(tmp_path):
    run = llcheck("check", "--impl", "reference", "--edition", "classic", "--run", "fuzz/*", "--fuzz", "1",
                  "--cluster", "tcp://127.0.0.1:9", "--fuzz-dir", str(tmp_path), "-q")
    assert run.returncode == 2, run.stderr
    assert run.stderr.splitlines()[-1].startswith("llcheck check: --cluster tcp://127.0.0.1:9: cannot reach "
                                                  "the scheduler")


def test_a_probe_on_a_local_cluster_answers_what_one_process_answers():
    """One spec and player count, so that the prover starts afresh in either process (z3's search,
    and so a witness game, depends on what the process asked z3 before: docs/scale.md)."""
    args = ("probe", "--edition", "classic", "--players", "2", "--json")
    alone, spread = llcheck(*args), llcheck(*args, "--cluster", "local:2")
    assert (alone.returncode, spread.returncode) == (0, 0), alone.stderr + spread.stderr
    answers = untimed(json.loads(spread.stdout))
    assert answers == untimed(json.loads(alone.stdout))
    assert {r["status"] for r in answers[0]["results"]} >= {"reachable", "unreachable"}



def test_disputes_takes_cluster_with_all_only(capsys):
    code, out, err = run_llcheck(capsys, "disputes", "classic", "z-man-2019", "--cluster", "local:2")
    assert (code, out) == (2, "")
    assert err == ("llcheck disputes: --check, --refresh, --jobs, --cluster, --output and --data go with "
                   "--all\n")
