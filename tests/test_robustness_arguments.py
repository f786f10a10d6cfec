"""Every number any command takes has a documented range, checked before any work starts."""

from __future__ import annotations

import argparse

import pytest

from llcheck import arguments
from llcheck.cli import build_parser, main


def exit_code(argv: list[str]) -> int:
    """llcheck's exit code, whether it returns it or argparse exits with it."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


def numeric_options() -> list[tuple[str, str, argparse.Action]]:
    """(command, option, action) for every option whose value is a number."""
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    found = []
    for name, command in commands.choices.items():
        for action in command._actions:
            if action.option_strings and getattr(action.type, "__module__", None) == arguments.__name__:
                found.append((name, action.option_strings[-1], action))
            assert action.type not in (int, float), f"llcheck {name} {action.option_strings}: use arguments"
    return found


OPTIONS = numeric_options()


def test_the_numeric_options_are_all_found():
    names = {(command, option) for command, option, _ in OPTIONS}
    assert {("check", "--fuzz"), ("check", "--jobs"), ("check", "--engine-memory"), ("check", "--seed"),
            ("simulate", "--games"), ("disputes", "--games"), ("record", "--games"), ("perft", "--depth"),
            ("probe", "--jobs"), ("check", "--timeout")} <= names


@pytest.mark.parametrize("command, option", [(c, o) for c, o, _ in OPTIONS])
@pytest.mark.parametrize("value", ["9" * 5000, "9" * 31, "-5", "1e999", "nan", "", "x"])
def test_an_out_of_range_number_is_one_line_before_anything_runs(capsys, command, option, value):
    code = exit_code([command, option, value])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err.startswith(f"llcheck {command}: argument {option}: ") and err.count("\n") == 1, err
    assert len(err) < 300 and "Traceback" not in err


def test_the_message_gives_the_range():
    with pytest.raises(argparse.ArgumentTypeError,
                       match=r"^must be a whole number of MiB from 0 to 1,048,576, not '9{30}'$"):
        arguments.whole(0, arguments.MAX_MEMORY_MIB, "MiB")("999999999999999999999999999999")


def test_a_number_in_range_is_taken():
    assert arguments.whole(0, 10)(" 7") == 7 and arguments.SEED(str(arguments.MAX_SEED)) == arguments.MAX_SEED


def test_a_profile_is_checked_without_properties(capsys):
    assert exit_code(["check", "--impl", "reference", "--profile", "nope"]) == 2
    assert capsys.readouterr().err == ("llcheck check: --profile nope: no such hypothesis profile "
                                       "(profiles: ci, thorough)\n")
