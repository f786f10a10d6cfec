"""`llcheck check --edition READING.yaml`: an engine checked against a rulebook reading by
differential fuzzing, the reference engine playing the reading."""

from __future__ import annotations

import shlex
import sys

import pytest

from llcheck.cli import main
from loveletter_ref.paths import spec_dir

TR = str(spec_dir() / "readings" / "tr-2019.yaml")
"""The Turkish quick-teach reading of z-man-2019, given as a file (as a reading of your own is)."""

SERVE = f"{sys.executable} -m llcheck serve"
"""The reference engine over the protocol (the tests may run with llcheck off the PATH)."""


def test_an_engine_playing_the_edition_departs_from_the_reading_where_the_rulebook_does(capsys, tmp_path):
    """tr-2019.priest.target: «Bir oyuncunun eline gizlice bak» (Secretly look at a player's hand)
    names no other player, so the reading lets the Priest choose more than the edition does."""
    assert main(["check", "--impl", SERVE, "--edition", TR, "--fuzz", "30", "-q",
                 "--fuzz-dir", str(tmp_path), "--run", "fuzz/*/2p"]) == 1
    out = capsys.readouterr().out
    assert "editions: z-man-2019;" in out  # the engine is asked for the edition the reading describes
    assert "FAILED fuzz/z-man-2019/2p" in out and "clause tr-2019.priest.target: " in out
    assert f"replay: llcheck check --impl {shlex.quote(SERVE)} --fuzz 30 --seed 0 --fuzz-dir {tmp_path} " \
           f"--edition {TR} " in out
    saved = list(tmp_path.rglob("*.json"))  # the difference is saved where --fuzz-dir says, nowhere else
    assert len(saved) == 1 and f"saved as {saved[0]}" in out


def test_the_reference_playing_the_reading_agrees_and_games_reaching_a_silence_are_counted(capsys):
    assert main(["check", "--impl", "reference", "--edition", TR, "--fuzz", "20", "-q"]) == 0
    out = capsys.readouterr().out
    assert "stopped where the rules are silent" in out and "5 passed, 0 failed" in out


@pytest.mark.parametrize(("args", "message"), [
    ([], f"--edition {TR}: the corpus's z-man-2019 cases state the edition's rules, not the reading's"),
    (["--edition", "z-man-2019", "--fuzz", "5"], "--edition z-man-2019 is also given as a reading of it"),
    (["--properties", "--fuzz", "5"], f"--properties checks an edition's rules; {TR} is a reading"),
])
def test_a_reading_is_checked_by_fuzzing_only(capsys, args, message):
    assert main(["check", "--impl", "reference", "--edition", TR, *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"llcheck check: {message}") and err.count("\n") == 1
