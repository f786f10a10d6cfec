"""What long commands show on a terminal while they work, and leave behind when they end."""

from __future__ import annotations

from llcheck.progress import Status
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
