"""What long commands show on a terminal while they work, and leave behind when they end."""

from __future__ import annotations

import io
import os
import pty
import re
import subprocess
import sys
import termios
import time
from pathlib import Path

from llcheck.progress import Progress, Status
from loveletter_ref.disputes.search import Budget
from loveletter_ref.disputes.settle import compare
from loveletter_ref.disputes.sides import open_side


def test_a_status_line_is_rewritten_in_place_and_erased(capsys):
    status = Status(enabled=True)
    status("probing classic with 3 players")
    status("done 1")
    status.close()
    err = capsys.readouterr().err
    assert err == ("\rprobing classic with 3 players" + "\rdone 1" + " " * 24 + "\r" + " " * 6 + "\r")


def test_a_status_line_is_silent_off_a_terminal(capsys):
    status = Status(enabled=False)
    status("anything")
    status.close()
    assert capsys.readouterr().err == ""


def test_disputes_say_what_they_are_doing_as_they_start_it():
    said: list[str] = []
    compare(open_side("tr-2019", {}), open_side("nl-2019", {}), Budget(games=20), 3_000_000,
            keys=["priest.target", "game.end"], alone=False, say=said.append)
    assert said[0] == "playing games that tell tr-2019 and nl-2019 apart on 2 clauses"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _lines(text: str) -> list[str]:
    return [part for part in re.split(r"[\r\n]", re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)) if part.strip()]


def test_the_bar_fits_the_terminal_and_its_count_never_passes_its_total(monkeypatch):
    monkeypatch.setenv("COLUMNS", "40")
    out = _Terminal()
    bar = Progress(5, "cases and results", stream=out)
    for done in range(1, 8):  # more results than expected: the total follows
        bar.update(done, f"case/{done}")
        bar.bar.refresh()
    bar.close()
    shown = [line for line in _lines(out.getvalue()) if "/" in line]
    assert shown and all(len(line) <= 40 for line in _lines(out.getvalue()))
    counts = [tuple(map(int, re.search(r"(\d+)/(\d+)", line).groups())) for line in shown]
    assert all(done <= total for done, total in counts)
    assert counts[-1] == (7, 7)


def _closed_stays_quiet(status: Status, capsys) -> None:
    """Once closed, a status prints no more plain lines."""
    status.close()
    capsys.readouterr()
    time.sleep(0.05)
    assert capsys.readouterr().err == ""


def _wait_for(condition, tries: int = 500) -> None:
    for _ in range(tries):
        if condition():
            return
        time.sleep(0.01)


def test_off_a_terminal_a_plain_line_comes_every_few_seconds_with_the_time_left():
    out = io.StringIO()
    progress = Progress(4, "games", every=0.01, stream=out)
    progress.update(1, "game 1")
    _wait_for(lambda: "game 1" in out.getvalue())
    progress.close()
    line = next(line for line in out.getvalue().splitlines() if "game 1" in line)
    assert re.fullmatch(r"progress: 1/4 games, \d+:\d\d spent, about \d+:\d\d left \(last: game 1\)", line)
    after = out.getvalue()
    time.sleep(0.05)
    assert out.getvalue() == after  # closed: no more lines


def test_a_status_off_a_terminal_says_what_it_is_doing_every_few_seconds(capsys):
    status = Status(enabled=False, every=0.01)
    status("probing classic with 3 players")
    _wait_for(lambda: "probing" in capsys.readouterr().err)
    _closed_stays_quiet(status, capsys)


def test_check_piped_to_a_file_prints_progress_lines(tmp_path):
    err = tmp_path / "err.txt"
    command = [sys.executable, "-m", "llcheck", "check", "--impl", "reference", "--edition", "classic",
               "--fuzz", "100", "--run", "fuzz/*", "--progress-every", "0.05", "-q"]
    with err.open("w") as stderr:
        code = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=stderr, check=False).returncode
    assert code == 0
    lines = [line for line in err.read_text().splitlines() if line.startswith("progress: ")]
    assert lines, err.read_text()
    for line in lines:
        done, total = map(int, re.match(r"progress: (\d+)/(\d+) cases and results", line).groups())
        assert done <= total == 3  # classic's three player counts


def _on_a_terminal(command: list[str], columns: int) -> str:
    """What `command` writes on a terminal `columns` wide: a pseudo-terminal whose size is set before
    the command starts and that nothing else resizes (`script` resized its own after `stty` now and
    then, so a loaded machine saw 80 columns)."""
    master, slave = pty.openpty()
    termios.tcsetwinsize(slave, (20, columns))
    process = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
                               env={name: value for name, value in os.environ.items() if name != "COLUMNS"})
    os.close(slave)
    written = bytearray()
    try:
        while chunk := os.read(master, 65536):
            written += chunk
    except OSError:  # EIO: the command ended and closed its side
        pass
    finally:
        os.close(master)
    assert process.wait(timeout=600) == 0, written.decode(errors="replace")
    return written.decode("utf-8", errors="replace")


def test_on_a_terminal_check_shows_one_bar_that_fits_and_never_passes_its_total():
    """The acceptance of issue 29, small: a terminal 60 columns wide."""
    llcheck = str(Path(sys.executable).parent / "llcheck")
    command = [llcheck, "check", "--impl", "reference", "--edition", "classic", "--fuzz", "40",
               "--properties", "--run", "fuzz/*", "--run", "property/legality/*", "-q"]
    shown = _lines(_on_a_terminal(command, 60))
    bars = [line for line in shown if "cases and results" in line]
    assert bars, shown
    assert [line for line in bars if len(line) > 60] == []
    counts = [tuple(map(int, re.search(r"(\d+)/(\d+)", line).groups())) for line in bars]
    assert {total for _, total in counts} == {6}  # 3 fuzzing and 3 property results, from the start
    assert all(done <= total for done, total in counts)
    assert any(line.startswith("6 passed, 0 failed") for line in shown)


def test_a_status_goes_on_after_a_pause_for_output(capsys):
    """probe closes its status to print a report, then says what it does next: the plain lines
    must come again (they stopped for good after the first report)."""
    status = Status(enabled=False, every=0.01)
    status("probing classic with 2 players")
    status.close()
    status("probing classic with 3 players (1 of 3 done, about 0:08 left)")
    _wait_for(lambda: "3 players" in capsys.readouterr().err)
    _closed_stays_quiet(status, capsys)


def test_probe_says_how_long_is_left_once_a_seat_is_done():
    from llcheck.commands.probe import _working
    from loveletter_ref.spec import load_spec
    jobs = [(load_spec("classic"), players) for players in (2, 3, 4)]
    assert "about" not in _working(jobs, 0, 0.0)
    assert _working(jobs, 1, 10.0).startswith("probing classic with 3 players (1 of 3 done, about 0:20 left;")
