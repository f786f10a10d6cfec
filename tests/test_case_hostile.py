"""Hostile case files: mutations of the bundled cases (deleted keys, wrong types, unknown names,
absurd numbers, broken bytes) either load, and then play against the reference engine without
crashing the harness, or end as located lines (`FILE:LINE:COL: case ID: message`), never a
traceback."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from mutations import mutate, paths

from llcheck.cli import main
from llcheck.engines import ReferenceEngine
from llcheck.harness.cases import CaseError, corpus_dir, corpus_problems, load_file
from llcheck.harness.runner import run_case

SOURCES = [corpus_dir() / "required" / edition / name for edition, name in (
    ("classic", "baron.json"), ("classic", "guard.json"), ("classic", "countess.json"),
    ("z-man-2019", "next-round.json"))]
LOCATED = re.compile(r"^(?P<file>.+):\d+:\d+: (case (?P<case>\S+): )?\S.*$")
STATUSES = {"passed", "failed", "errored", "skipped"}

ABSURD = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False), st.text(max_size=8), st.sampled_from(["Spy", "Jester", "Guard", "", "0"]),
    st.lists(st.integers(min_value=-3, max_value=9), max_size=3),
    st.dictionaries(st.sampled_from(["type", "card", "target", "player", "x"]), st.integers(0, 5),
                    max_size=2),
)
"""Values put where they do not belong: wrong types, unknown card names, absurd numbers."""


def _write(folder: Path, source: Path, content: bytes) -> Path:
    target = folder / source.parent.parent.name / source.parent.name / source.name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(content)
    return target


def _assert_located(problems: list[Any], path: Path) -> None:
    assert problems
    for problem in problems:
        match = LOCATED.match(str(problem))
        assert match and match["file"] == str(path), str(problem)


def _load_and_play(path: Path, source: Path) -> None:
    """Load a case file; its problems are located, or each of its cases plays to a result."""
    try:
        cases = load_file(path, source.parent.parent.name, source.parent.name)
    except CaseError as exc:
        _assert_located(exc.problems, path)
        return
    found = corpus_problems(cases)
    if found:
        _assert_located(found, path)
        return
    engine = ReferenceEngine()
    for case in cases:
        assert run_case(engine, case).status in STATUSES


@settings(max_examples=80)
@given(st.sampled_from(SOURCES), st.data())
def test_mutated_cases_load_and_play_or_give_located_problems(tmp_path_factory, source, data):
    document = json.loads(source.read_text(encoding="utf-8"))
    path = data.draw(st.sampled_from(paths(document)))
    how = data.draw(st.sampled_from(["delete", "replace", "rename"]) if path else st.just("replace"))
    mutated = mutate(copy.deepcopy(document), path, how, data.draw(ABSURD))
    text = json.dumps(mutated, indent=1, ensure_ascii=False)
    _load_and_play(_write(tmp_path_factory.mktemp("case"), source, text.encode("utf-8")), source)


@settings(max_examples=40)
@given(st.sampled_from(SOURCES), st.data())
def test_broken_bytes_give_located_problems(tmp_path_factory, source, data):
    content = bytearray(source.read_bytes())
    at = data.draw(st.integers(0, len(content) - 1))
    how = data.draw(st.sampled_from(["truncate", "overwrite", "insert"]))
    junk = data.draw(st.binary(min_size=1, max_size=4))
    if how == "truncate":
        del content[at:]
    elif how == "overwrite":
        content[at:at + len(junk)] = junk
    else:
        content[at:at] = junk
    _load_and_play(_write(tmp_path_factory.mktemp("bytes"), source, bytes(content)), source)


def test_a_mutated_corpus_is_one_located_line_per_problem_on_the_command_line(tmp_path, capsys):
    source = SOURCES[0]
    document = json.loads(source.read_text(encoding="utf-8"))
    document["cases"][1]["players"] = 10**40
    del document["cases"][2]["rounds"]
    path = _write(tmp_path, source, json.dumps(document, indent=1).encode("utf-8"))
    code = main(["check", "--impl", "reference", "--corpus", str(tmp_path)])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        f"{path}:260:1: case classic.baron.compare/the-player-may-lose: players: {10**40} is greater than "
        "the maximum of 16",
        f"{path}:368:1: case classic.baron.tie/nobody-is-out: 'rounds' is a required property"]
