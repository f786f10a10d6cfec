"""`llcheck smoke`: the handshake, one deal and one action of an engine, compared with the rules,
with a plain diagnosis and an exit code for each way it can go wrong."""

from __future__ import annotations

import sys
from pathlib import Path

from conftest import run_llcheck

BROKEN = f"{sys.executable} {Path(__file__).parent / 'engines' / 'broken_engine.py'}"


def test_a_conformant_engine_passes_every_step(capsys):
    code, out, err = run_llcheck(capsys, "smoke", "--impl", f"{sys.executable} -m llcheck serve",
                               "--edition", "z-man-2019")
    assert (code, err) == (0, "")
    steps = [line.split(":")[0] for line in out.splitlines()]
    assert steps == ["ok      handshake", "ok      deal (z-man-2019, 2 players, seed 0)",
                     "ok      legal actions", steps[3], "smoke test passed"]
    assert steps[3].startswith("ok      action (")


def test_a_wrong_answer_is_diagnosed_with_exit_1(capsys):
    mutant = "python:llcheck.mutants.engines:guard_may_name_guard"
    code, out, _ = run_llcheck(capsys, "smoke", "--impl", mutant)
    assert code == 1
    assert out.splitlines()[-1] == ('FAILED  legal actions after the deal: 1 not legal (first: '
                                    '{"type": "play", "card": "Guard", "target": 1, "guess": "Guard"})')


def test_an_engine_that_will_not_start_gets_exit_3(capsys):
    code, out, _ = run_llcheck(capsys, "smoke", "--impl", "/no/such/engine")
    assert code == 3
    assert out.startswith("FAILED  handshake: cannot talk to the engine /no/such/engine")
    assert out.count("\n") == 1


def test_an_engine_that_crashes_on_the_deal_gets_exit_3(capsys):
    code, out, _ = run_llcheck(capsys, "smoke", "--impl", f"{BROKEN} crash-on-start", "--timeout", "5")
    assert code == 3
    assert out.splitlines()[-1].startswith("FAILED  the engine stopped answering: the engine exited with "
                                           "code 3 before answering start")


def test_an_engine_that_hangs_on_an_action_gets_exit_3(capsys):
    code, out, _ = run_llcheck(capsys, "smoke", "--impl", f"{BROKEN} hang-on-apply", "--timeout", "1")
    assert code == 3
    assert out.splitlines()[-1] == ("FAILED  the engine stopped answering: no answer to apply (request 4) "
                                    "within 1s")


def test_an_edition_the_engine_does_not_play(capsys):
    code, out, _ = run_llcheck(capsys, "smoke", "--impl", "python:llcheck.mutants.engines:counterclockwise",
                               "--edition", "tr-2019")
    assert code == 1
    assert out.splitlines()[-1].startswith("FAILED  the engine does not play tr-2019 (its hello")
    code, out, err = run_llcheck(capsys, "smoke", "--impl", "reference", "--edition", "nowhere")
    assert (code, out) == (2, "")
    assert err.startswith("llcheck smoke: --edition nowhere: not a bundled edition")
