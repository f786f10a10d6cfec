"""Every command stops on a signal with exit 130 and says what it did not run; a z3 solver does not
swallow the signal."""

from __future__ import annotations

import subprocess
import sys

import pytest

from llcheck import catalogue
from llcheck.cli import main
from llcheck.commands import probe
from llcheck.progress import Progress

SOLVING = """
import os, signal, sys, threading
import z3
from llcheck import interrupts
import loveletter_ref.probes  # z3 leaves SIGINT alone from here on
interrupts.watch_solvers()
signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
solver = z3.SolverFor("QF_FD")
n = 11  # the pigeonhole principle for 12 pigeons: minutes of search
holes = [[z3.Bool(f"p{i}h{j}") for j in range(n)] for i in range(n + 1)]
solver.add(*(z3.Or(*row) for row in holes))
solver.add(*(z3.Or(z3.Not(holes[a][j]), z3.Not(holes[b][j]))
             for j in range(n) for a in range(n + 1) for b in range(a + 1, n + 1)))
threading.Timer(1.0, os.kill, (os.getpid(), getattr(signal, sys.argv[1]))).start()
try:
    print("answered", solver.check(), solver.reason_unknown())
except KeyboardInterrupt:
    print("stopped")
"""


@pytest.mark.parametrize("signal_name", ["SIGINT", "SIGTERM"])
def test_a_signal_interrupts_a_z3_solver_instead_of_becoming_unknown(signal_name):
    """Without it, z3 answers "unknown" to Ctrl-C and the command goes on (disputes --all wrote its
    files and exited 0); other signals waited until the solver returned."""
    done = subprocess.run([sys.executable, "-c", SOLVING, signal_name], capture_output=True, text=True,
                          timeout=300)
    assert done.stdout == "stopped\n", done.stdout + done.stderr


def stop_at(monkeypatch: pytest.MonkeyPatch, done: int) -> None:
    """Progress bars raise KeyboardInterrupt (as Ctrl-C does) once `done` units are done."""
    update = Progress.update

    def interrupted(self: Progress, count: int) -> None:
        update(self, count)
        if count == done:
            raise KeyboardInterrupt

    monkeypatch.setattr(Progress, "update", interrupted)


def stopped(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 130
    return capsys.readouterr().err


def test_simulate_says_how_many_games_it_did_not_play(capsys, monkeypatch):
    stop_at(monkeypatch, 3)
    err = stopped(capsys, "simulate", "--edition", "classic", "--players", "2", "--games", "10")
    assert err == "llcheck simulate: interrupted; not run: 7 of 10 games\n"


def test_record_says_what_it_did_not_record_and_leaves_the_file(capsys, monkeypatch, tmp_path):
    out = tmp_path / "b.jsonl"
    recording = ["record", "--impl", "reference", "--edition", "classic", "--out", str(out)]
    assert main([*recording, "--games", "1"]) == 0
    before = out.read_bytes()
    capsys.readouterr()
    stop_at(monkeypatch, 2)
    err = stopped(capsys, *recording, "--games", "2")
    assert err.startswith("llcheck record: interrupted; not run: ") and \
        err.endswith(f" cases and games (--out {out} is left as it was)\n")
    assert out.read_bytes() == before


def test_probe_says_which_seats_it_did_not_probe(capsys, monkeypatch):
    def interrupted(report: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(probe, "_print", interrupted)
    err = stopped(capsys, "probe", "--edition", "classic", "--query", "no-winner")
    assert err == "llcheck probe: interrupted; not run: 2 of 3 editions and player counts\n"


def test_disputes_says_what_it_did_not_settle_and_writes_nothing(capsys, monkeypatch, tmp_path):
    def interrupted(self: catalogue.Catalogue, n: int, total: int, entry: object) -> None:
        if n == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(catalogue.Catalogue, "_progress", interrupted)
    output, data = tmp_path / "d.md", tmp_path / "d.json"
    err = stopped(capsys, "disputes", "--all", "--refresh", "--games", "2", "--rlimit", "100000",
                  "--output", str(output), "--data", str(data))
    assert err.startswith("llcheck disputes: interrupted; not run: ")
    assert err.endswith(f" entries to settle ({output} and {data} are left as they were)\n")
    assert not output.exists() and not data.exists()


def test_perft_says_its_count_was_not_finished(capsys, monkeypatch):
    from llcheck.commands import perft

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(perft, "_count", interrupted)
    err = stopped(capsys, "perft", "--edition", "classic", "--players", "2", "--seed", "1", "--depth", "3")
    assert err == "llcheck perft: interrupted; not run: the count of the deal (depth 3); what was printed " \
                  "is complete\n"
