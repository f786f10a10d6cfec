"""Known-failures lists as a run uses them: an entry the engine never runs is noted, and the replay
of an unexpected pass reproduces it."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_llcheck

TIE = "classic.baron.tie/nobody-is-out"


@pytest.fixture
def known(tmp_path: Path) -> Path:
    """A list naming one classic and one Z-Man case."""
    path = tmp_path / "known.txt"
    path.write_text(f"# our deviations\nz19.baron.tie/nobody-is-out   we lose ties\n{TIE}   we lose ties\n")
    return path


def test_an_entry_of_an_edition_the_engine_does_not_play_is_noted(capsys, known):
    """Regression: it was accepted in silence, though it is never checked."""
    code, out, err = run_llcheck(capsys, "check", "--impl", "python:adapters:ClassicOnly", "--known-failures",
                                 str(known), "--run", "classic.baron.*", "-q")
    assert code == 1  # the classic entry passes: an unexpected pass
    assert err == (f"llcheck check: note: {known} lists cases the engine never runs (it does not play their "
                   "edition): z19.baron.tie/nobody-is-out (line 2)\n")
    code, _, err = run_llcheck(capsys, "check", "--impl", "reference", "--known-failures", str(known),
                               "--edition", "classic", "--run", "classic.baron.*", "-q")
    assert err == ""  # the engine plays Z-Man: the entry is only left out of this run


def test_the_replay_of_an_unexpected_pass_reproduces_it(capsys, known):
    code, out, _ = run_llcheck(capsys, "check", "--impl", "reference", "--known-failures", str(known),
                               "--edition", "classic", "--run", "classic.baron.*", "-q")
    assert code == 1 and f"UNEXPECTED PASS {TIE}" in out
    replay = next(line for line in out.splitlines() if line.startswith("  replay: "))
    assert replay == f"  replay: llcheck check --impl reference --known-failures {known} --run {TIE}"
    code, out, _ = run_llcheck(capsys, *replay.split()[2:], "-q")
    assert code == 1 and f"UNEXPECTED PASS {TIE}" in out
