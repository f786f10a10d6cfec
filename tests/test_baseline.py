"""Baselines: `llcheck record` writes an engine's behaviour, `llcheck check --baseline` holds it to it."""

from __future__ import annotations

import json
import re
import shutil
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from baseline_engines import InterruptedAfterFive
from hypothesis import given
from hypothesis import strategies as st
from test_check_command import schema_validator

from llcheck.baseline.checking import BaselineCheck
from llcheck.baseline.delta import apply_change, change
from llcheck.baseline.observe import canonical, seen_as_hidden, view_after
from llcheck.cli import main
from llcheck.harness.select import Selection

TESTS = Path(__file__).parent
BUNDLED = TESTS.parent / "conformance" / "cases"
BROKEN = f"{sys.executable} {TESTS / 'engines' / 'broken_engine.py'}"
SERVE = f"{sys.executable} -m llcheck serve"
TIE = "python:baseline_engines:tie_knocks_out"


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A small classic corpus: the Baron cases and the runner's cases."""
    root = tmp_path / "corpus" / "required" / "classic"
    root.mkdir(parents=True)
    shutil.copy(BUNDLED / "required" / "classic" / "baron.json", root)
    shutil.copy(TESTS / "cases" / "required" / "classic" / "runner.json", root)
    return tmp_path / "corpus"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def record(capsys, corpus: Path, out: Path, impl: str = "reference", *more: str) -> tuple[int, str, str]:
    return run(capsys, "record", "--impl", impl, "--edition", "classic", "--corpus", str(corpus),
               "--games", "1", "--out", str(out), *more)


def check(capsys, corpus: Path, baseline: Path, impl: str = "reference", *more: str) -> tuple[int, str, str]:
    return run(capsys, "check", "--impl", impl, "--edition", "classic", "--corpus", str(corpus),
               "--baseline", str(baseline), "-q", *more)


def section(out: str) -> str:
    """The baseline part of a check's text report."""
    return out[out.index("\nbaseline "):]


# -- the file ------------------------------------------------------------------------------------


def test_record_writes_a_stable_diff_friendly_file(capsys, corpus, tmp_path):
    first, second, served = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    code, out, _ = record(capsys, corpus, first)
    assert code == 0
    assert out.startswith("llcheck record: loveletter-reference 0.1.0 (classic; events, games, "
                          "legal_actions, views): 8 cases (0 skipped) and 3 games, ")
    lines = first.read_text(encoding="utf-8").splitlines()
    parsed = [json.loads(line) for line in lines]
    assert all(canonical(value) == line for value, line in zip(parsed, lines, strict=True))
    header, end = parsed[0], parsed[-1]
    assert (header["format"], header["version"], header["edition"]) == ("llcheck-baseline", 1, "classic")
    assert header["generated"] == "by llcheck record from loveletter-reference 0.1.0; do not edit"
    assert header["recorded"] == {"corpus": str(corpus), "games": 1, "groups": ["required", "optional",
                                  "disputed", "golden"], "players": [2, 3, 4], "seed": 0}
    assert end == {"end": {"records": len(lines) - 2, "units": 11}}
    steps = [line["at"] for line in parsed[1:-1]]
    assert steps[0] == {"case": "classic.baron.compare/the-lower-hand-is-out", "round": 1, "step": 0}
    assert sum(1 for at in steps if "game" in at) > 20
    assert record(capsys, corpus, second)[0] == 0
    assert record(capsys, corpus, served, SERVE)[0] == 0
    assert first.read_bytes() == second.read_bytes() == served.read_bytes()


def test_the_order_of_legal_actions_does_not_matter(capsys, corpus, tmp_path):
    listed, reversed_ = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    record(capsys, corpus, listed)
    record(capsys, corpus, reversed_, "python:baseline_engines:ReversedLegalActions")
    assert listed.read_bytes() == reversed_.read_bytes()


@given(st.dictionaries(st.sampled_from("abcd+-="), st.recursive(
    st.none() | st.booleans() | st.integers(-2, 2) | st.text("xy", max_size=2),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text("xy", max_size=2), inner, max_size=2),
    max_leaves=6)), st.dictionaries(st.sampled_from("abcd"), st.lists(st.integers(0, 3), max_size=4)))
def test_a_change_turns_the_old_value_into_the_new(new, old):
    delta = change(old, new)
    assert canonical(apply_change(old, delta)) == canonical(new)
    assert change(new, new) == ({"=": new} if set("+-=") & new.keys() else {})


def test_a_view_is_stored_as_what_it_hides():
    state = {"hands": [["Guard"], ["Priest"]], "turn": 0}
    events = [{"type": "deal", "player": 0, "card": "Guard"}, {"type": "deal", "player": 1, "card": "Priest"}]
    seen = {"hand": ["Priest"], "turn": 0, "log": [{"type": "deal", "player": 0}, events[1]]}
    delta = seen_as_hidden(change({"turn": 0, "hands": state["hands"]}, seen), events)
    assert delta == {"hand": ["Priest"], "log": {"hidden": [["card"], []]}, "-": ["hands"]}
    assert view_after(None, state, delta, events) == seen


# -- comparing -----------------------------------------------------------------------------------


def test_an_unchanged_engine_shows_no_difference(capsys, corpus, tmp_path):
    baseline, report, junit = tmp_path / "b.jsonl", tmp_path / "r.json", tmp_path / "r.xml"
    record(capsys, corpus, baseline)
    code, out, err = check(capsys, corpus, baseline, SERVE, "--json", str(report), "--junit", str(junit))
    assert code == 0, out + err
    lines = section(out).splitlines()[1:]
    assert lines[0] == f"baseline {baseline}: classic, recorded from loveletter-reference 0.1.0"
    assert len(lines) == 2
    assert lines[1].startswith("baseline: 8 cases and 3 games: 11 same, 0 changed, 0 not run in ")
    data = json.loads(report.read_text())
    schema_validator().validate(data)
    assert data["baseline"][0]["summary"] == {"total": 11, "same": 11, "changed": 0, "not_run": 0}
    suite = next(s for s in ET.parse(junit).getroot() if s.get("name") == "baseline/classic")
    assert (suite.get("tests"), suite.get("failures")) == ("11", "0")


def test_one_changed_rule_is_named_at_its_first_differing_step(capsys, corpus, tmp_path):
    baseline, report = tmp_path / "b.jsonl", tmp_path / "r.json"
    record(capsys, corpus, baseline)
    code, out, _ = check(capsys, corpus, baseline, TIE, "--json", str(report))
    assert code == 1  # the conformance failure of the Baron tie case wins over the baseline change
    assert "FAILED classic.baron.tie/nobody-is-out  [required, classic]" in out
    block = section(out).split("\n\n")[1].splitlines()
    assert block[0] == "CHANGED case classic.baron.tie/nobody-is-out"
    assert block[1].startswith("  round 1, step 1 (Baron on 1): events, state (discards, eliminated, "
                               "hands), ")
    assert block[2] == ('    event 2: before {"cards": ["Priest", "Priest"], "loser": null, "player": 0, '
                        '"target": 1, "type": "compare"}, after {"cards": ["Priest", "Priest"], "loser": 0, '
                        '"player": 0, "target": 1, "type": "compare"}')
    assert block[-1] == (f"  replay: llcheck check --impl {TIE} --corpus {corpus} --baseline {baseline} "
                         "--run classic.baron.tie/nobody-is-out")
    assert ("once the failures above are fixed, to accept these changes on purpose: "
            f"llcheck record --impl {TIE} --out {baseline}") in out  # exit 1: not a change to accept as is
    code, out, _ = check(capsys, corpus, baseline, TIE, "--engine-env", "MODE=tie", "--engine-memory", "512")
    assert (f"to accept these changes on purpose: llcheck record --impl {TIE} --engine-env MODE=tie "
            f"--engine-memory 512 --out {baseline}") in out  # the engine as the check ran it
    unit = next(u for u in json.loads(report.read_text())["baseline"][0]["units"]
                if u["id"] == "classic.baron.tie/nobody-is-out")
    change_ = unit["change"]
    assert (change_["round"], change_["step"], change_["input"]) == (1, 1, {"apply": {
        "type": "play", "card": "Baron", "target": 1}})
    assert "state.eliminated" in change_["what"] and "view 1.log" in change_["what"]


def test_conformant_but_different_exits_4_and_the_replay_runs_just_that_one(capsys, corpus, tmp_path):
    baseline = tmp_path / "b.jsonl"
    record(capsys, corpus, baseline)
    code, out, _ = check(capsys, corpus, baseline, TIE, "--skip", "classic.baron.tie/*")  # no case shows it
    assert code == 4
    assert "7 passed, 0 failed, 0 errored" in out
    block = section(out).split("\n\n")[1].splitlines()
    assert block[0] == "CHANGED game classic.random/4-players-seed-3893063342"
    assert block[1].startswith("  round 6, step 6 (Baron on 3): events, state (discards, eliminated, "
                               "hands), ")
    replay = block[-1].removeprefix("  replay: llcheck ").split()
    assert replay[-2:] == ["--run", "classic.random/4-players-seed-3893063342"]
    code, out, _ = run(capsys, *replay, "-q")  # no corpus case is selected, one game of the baseline is
    assert code == 4
    assert out.splitlines()[-1].startswith("baseline: 0 cases and 1 game: 0 same, 1 changed")


def test_keys_the_formats_do_not_define_are_neither_recorded_nor_compared(capsys, corpus, tmp_path):
    """Regression: a constant `"debug": false` in the state gave `81 changed`, exit 4."""
    plain, extra, numbered = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    record(capsys, corpus, plain)
    record(capsys, corpus, extra, "python:adapters:ExtraKeys")
    record(capsys, corpus, numbered, "python:test_runner:NumberedStates")
    assert plain.read_bytes() == extra.read_bytes() == numbered.read_bytes()
    for engine in ("python:adapters:ExtraKeys", "python:test_runner:NumberedStates",
                   "python:baseline_engines:LabelledViews"):
        code, out, _ = check(capsys, corpus, plain, engine)
        assert code == 0, out
        assert out.splitlines()[-1].startswith("baseline: 8 cases and 3 games: 11 same, 0 changed")


def test_capabilities_gained_and_lost(capsys, corpus, tmp_path):
    without_views, full = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    record(capsys, corpus, without_views, "python:baseline_engines:NoViews")
    assert '"skipped":{"needs":["views"],"reason":"needs capability views"}' in without_views.read_text()
    code, out, _ = check(capsys, corpus, without_views)
    assert code == 4
    assert "  note: the engine now also claims views: record the baseline again to pin what it answers" in out
    assert "CHANGED case runner/views-only\n  the case: skipped\n" in out
    assert out.splitlines()[-1].startswith("baseline: 8 cases and 3 games: 10 same, 1 changed")

    record(capsys, corpus, full)
    for lost in ("views", "events", "games"):
        junit = tmp_path / f"{lost}.xml"
        code, out, _ = check(capsys, corpus, full, f"python:baseline_engines:No{lost.title()}",
                             "--junit", str(junit))
        assert code == 4
        suite = next(s for s in ET.parse(junit).getroot() if s.get("name") == "baseline/classic")
        # CI's test report shows it too, as a change, not a failure (exit 4 only warns)
        capabilities = suite.find("testcase[@name='capabilities']")
        [change] = capabilities.findall("properties/property[@name='baseline_changed']")
        assert f"no longer claims {lost}" in change.get("value")
        assert suite.find(".//failure") is None
        assert suite.get("failures") == "0" and suite.get("tests") == "12"
        assert f"the engine no longer claims {lost}, which the baseline recorded" in out
        assert out.splitlines()[-1].endswith(f"; capabilities no longer claimed: {lost}")
        assert "CHANGED" not in out  # what the other capabilities give is compared, and the same


def test_a_change_deep_in_a_views_log_names_the_item_that_changed(capsys, corpus, tmp_path):
    baseline = tmp_path / "b.jsonl"
    record(capsys, corpus, baseline)
    code, out, _ = check(capsys, corpus, baseline, "python:baseline_engines:LastSeenChanged")
    assert code == 1  # the corpus compares views too
    detail = next(line for line in section(out).splitlines() if " item " in line)
    found = re.fullmatch(r"    log item (\d+): before (\{.*\}), after (\{.*\})", detail)
    assert found, detail
    assert json.loads(found[3]) == {**json.loads(found[2]), "type": "pass"} and int(found[1]) > 1


def test_random_games_of_an_engine_without_legal_actions(capsys, corpus, tmp_path):
    baseline = tmp_path / "b.jsonl"
    record(capsys, corpus, baseline, "python:baseline_engines:NoLegalActions")
    games = [json.loads(line) for line in baseline.read_text().splitlines() if '"game":' in line]
    assert max(line["at"]["round"] for line in games) > 1
    assert not any("legal_actions" in line["out"] for line in games)
    assert check(capsys, corpus, baseline, "python:baseline_engines:NoLegalActions")[0] == 0


def test_failures_are_recorded_and_compared_as_failures(capsys, corpus, tmp_path):
    baseline = tmp_path / "b.jsonl"
    record(capsys, corpus, baseline, "python:baseline_engines:BaronUnsupported")
    errors = [json.loads(line) for line in baseline.read_text().splitlines() if '"error":' in line]
    message = "engine error on apply: the Baron is not implemented yet"
    assert errors and all(e["error"] == message for e in errors)
    code, out, _ = check(capsys, corpus, baseline, "python:baseline_engines:BaronUnsupported")
    assert code == 1 and "baseline: 8 cases and 3 games: 11 same" in out
    code, out, _ = check(capsys, corpus, baseline)
    assert code == 4
    assert (f"  round 1, step 1 (Baron on 1): error\n    the engine failed here before ({message}); now it "
            "answers") in out


def test_a_crashing_engine_is_recorded_failing_and_restarted(capsys, corpus, tmp_path):
    baseline = tmp_path / "b.jsonl"
    code, _, err = record(capsys, corpus, baseline, f"{BROKEN} garbage-on-apply", "--games", "0")
    assert code == 0, err
    lines = [json.loads(line) for line in baseline.read_text().splitlines()[1:-1]]
    assert all(line["at"]["step"] <= 1 for line in lines)  # every case ends at its first action
    actions = [line for line in lines if line["at"]["step"] == 1]
    assert len(actions) == 6 and all("apply" in line["error"] for line in actions)
    deals = [line for line in lines if line["at"]["step"] == 0]
    assert len(deals) == 8 and sum(line["out"]["accepted"] for line in deals) == 7  # restarted each time


def test_recording_again_says_what_changed(capsys, corpus, tmp_path):
    baseline = tmp_path / "b.jsonl"
    record(capsys, corpus, baseline, "reference", "--seed", "7")
    header = baseline.read_text().splitlines()[0]
    code, out, _ = run(capsys, "record", "--impl", TIE, "--out", str(baseline))
    assert code == 0
    assert baseline.read_text().splitlines()[0] == header  # the settings come from the file
    assert "\nagainst the previous baseline: " in out
    assert "  changed case classic.baron.tie/nobody-is-out at round 1, step 1\n" in out


def test_an_interrupted_replay_keeps_what_it_compared(capsys, corpus, tmp_path):
    baseline = tmp_path / "b.jsonl"
    record(capsys, corpus, baseline)
    replay = BaselineCheck([str(baseline)])
    assert replay.run(InterruptedAfterFive, Selection(), [], None) is True
    outcomes = replay.files[0].outcomes
    compared = [o for o in outcomes if o.status == "same"]
    assert 0 < len(compared) < 11 and len(outcomes) == 11  # the rest counted as not run, not left out
    assert all(o.message == "not run: the run was stopped before it" for o in outcomes[len(compared):])
    assert replay.files[0].seconds > 0


def test_a_run_stopped_before_the_replay_counts_every_case_and_game_as_not_run(capsys, corpus, tmp_path):
    baseline = tmp_path / "b.jsonl"
    record(capsys, corpus, baseline)
    replay = BaselineCheck([str(baseline), str(baseline)])
    replay.stopped(Selection())
    assert replay.interrupted and len(replay.files) == 2
    assert [len(f.outcomes) for f in replay.files] == [11, 11]
    assert all(f.count("not_run") == 11 for f in replay.files)


# -- bad input -----------------------------------------------------------------------------------


@pytest.fixture
def small(capsys, tmp_path) -> tuple[Path, Path]:
    """A corpus of two runner cases and a baseline of them, without games."""
    cases = tmp_path / "cases" / "required" / "classic"
    cases.mkdir(parents=True)
    text = (TESTS / "cases" / "required" / "classic" / "runner.json").read_text()
    doc = json.loads(text)
    doc["cases"] = [case for case in doc["cases"] if case["id"] in ("runner/refusals", "runner/bad-deck")]
    (cases / "runner.json").write_text(json.dumps(doc))
    good = tmp_path / "good.jsonl"
    assert record(capsys, tmp_path / "cases", good, "reference", "--games", "0")[0] == 0
    return tmp_path / "cases", good


@pytest.mark.parametrize(("edit", "message"), [
    (lambda lines: lines[:-1], ":6: the file is cut short: it has no end line"),
    (lambda lines: lines[:2] + ["{oops"] + lines[2:], ":3: malformed JSON at column 2: Expecting property "
                                                     "name enclosed in double quotes"),
    (lambda lines: lines[:3] + ["<<<<<<< HEAD"] + lines[3:],
     ":4: a git merge conflict marker (<<<<<<<): a baseline is not merged by hand, it is recorded again"),
    (lambda lines: lines[:6] + [lines[1]] + lines[6:], ":7: case 'runner/refusals' appears again (first at "
                                                       "line 2)"),
    (lambda lines: lines[:1] + lines[2:],
     ":2: case 'runner/refusals' must begin with the start of round 1, step 0"),
    (lambda lines: lines[:1] + [lines[1].replace('"accepted":true', '"accepted":"yes"')] + lines[2:],
     ":2: out.accepted: 'yes' is not of type 'boolean'"),
    (lambda lines: lines[:-1] + ['{"end":{"records":9,"units":1}}'],
     ":7: the end line counts 1 units and 9 records, the file has 2 and 5"),
])
def test_a_bad_baseline_says_where_and_how_to_record_it_again(capsys, tmp_path, small, edit, message):
    cases, good = small
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(line + "\n" for line in edit(good.read_text().splitlines())))
    code, out, err = check(capsys, cases, bad, "reference", "--engine-env", "A=1")
    assert (code, out) == (2, "")
    again = (f"llcheck record --impl reference --engine-env A=1 --edition classic --games 0 --seed 0 "
             f"--corpus {cases} --out {bad}")
    assert err == f"llcheck check: {bad}{message}; to record it again, remove the file and run: {again}\n"
    code, _, err = run(capsys, "record", "--impl", "reference", "--out", str(bad))
    assert code == 2
    assert err == (f"llcheck record: --out {bad} exists and is not a usable baseline ({bad}{message}); to "
                   f"record it again, remove the file and run: {again.replace(' --engine-env A=1', '')}\n")
    bad.unlink()
    assert main(again.split()[1:]) == 0  # as the message says
    assert bad.read_bytes() == good.read_bytes()


@pytest.mark.parametrize(("edit", "message"), [
    (lambda lines: [lines[0].replace('"version":1', '"version":2')] + lines[1:],
     ":1: baseline format version 2 is newer than this llcheck reads (1); upgrade llcheck"),
    (lambda lines: ['{"hello": 1}'] + lines[1:], ':1: not an llcheck baseline (the first line must have '
                                                 '"format": "llcheck-baseline")'),
    (lambda lines: ["<<<<<<< HEAD"] + lines, ":1: a git merge conflict marker (<<<<<<<): a baseline is not "
                                             "merged by hand, it is recorded again"),
    (lambda lines: [], ":1: the file is empty (record a baseline with llcheck record)"),
])
def test_a_baseline_without_a_header_is_one_located_line_and_exit_2(capsys, tmp_path, small, edit, message):
    cases, good = small
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(line + "\n" for line in edit(good.read_text().splitlines())))
    code, out, err = check(capsys, cases, bad)
    assert (code, out, err) == (2, "", f"llcheck check: {bad}{message}\n")
    code, _, err = run(capsys, "record", "--impl", "reference", "--out", str(bad))
    assert (code, err) == (2, f"llcheck record: --out {bad} exists and is not a usable baseline "
                              f"({bad}{message}); remove it or choose another file\n")


def test_a_baseline_of_an_edition_not_checked_is_bad_input(capsys, tmp_path):
    """Regression: a z-man-2019 baseline replayed on a classic-only engine gave 85 CHANGED blocks, exit 4."""
    zman = TESTS.parent / "conformance" / "baselines" / "reference-z-man-2019.jsonl"
    report = tmp_path / "r.json"
    code, out, err = run(capsys, "check", "--impl", "python:adapters:ClassicOnly", "--baseline", str(zman),
                         "--json", str(report))
    assert (code, out) == (2, "")
    assert err == (f"llcheck check: --baseline {zman} is a baseline of z-man-2019, which the engine does not "
                   "play (it plays: classic)\n")
    assert not report.exists()
    code, out, err = run(capsys, "check", "--impl", "reference", "--edition", "classic", "--baseline",
                         str(zman))
    assert (code, out) == (2, "")
    assert err == (f"llcheck check: --baseline {zman} is a baseline of z-man-2019, but --edition says "
                   "classic (add --edition z-man-2019, or leave --edition out)\n")


def test_a_selection_that_matches_nothing_is_bad_input_with_a_baseline_too(capsys, tmp_path, small):
    """Regression: with --baseline, `--run` matching nothing gave `0 passed ...`, exit 0."""
    cases, good = small
    code, out, err = check(capsys, cases, good, "reference", "--run", "nomatch*")
    assert (code, out) == (2, "")
    assert err == ("llcheck check: no case is selected (check --edition, --status, --assume, --run and "
                   "--skip)\n")
    code, out, _ = check(capsys, cases, good, "reference", "--run", "runner/refusals", "--skip", "runner/*")
    assert code == 2
    code, out, _ = check(capsys, cases, good, "reference", "--run", "runner/refusals")
    assert code == 0 and "baseline: 1 case and 0 games: 1 same" in out
    code, _, err = run(capsys, "check", "--baseline", "")
    assert (code, err) == (2, "llcheck check: --baseline '': the path is empty\n")


def test_record_refuses_what_it_cannot_do(capsys, corpus, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    code, _, err = record(capsys, corpus, notes)
    assert code == 2
    assert err.startswith(f"llcheck record: --out {notes} exists and is not a usable baseline (")
    assert notes.read_text() == "my notes\n"
    out = tmp_path / "b.jsonl"
    assert run(capsys, "record", "--impl", "reference", "--out", str(out))[2] == \
        "llcheck record: --edition is required (or --out must name a baseline to record again)\n"
    code, _, err = run(capsys, "record", "--impl", "python:adapters:ClassicOnly", "--edition", "z-man-2019",
                       "--out", str(out))
    assert (code, err) == (2, "llcheck record: the engine does not play z-man-2019 (it plays: classic)\n")
    code, _, err = record(capsys, corpus, out, f"{BROKEN} old-protocol")
    assert code == 3 and err.startswith(f"llcheck record: cannot talk to the engine {BROKEN} old-protocol: ")
    assert not out.exists()


def test_the_totals_line_does_not_count_the_baseline_replay(capsys, corpus, tmp_path, monkeypatch):
    """Regression: "97 passed ... in 6.46s" included the 5 s the baseline replay took."""
    baseline, report = tmp_path / "b.jsonl", tmp_path / "r.json"
    record(capsys, corpus, baseline)
    replay = BaselineCheck.run

    def slow(self, *args, **kwargs):
        time.sleep(1.0)
        return replay(self, *args, **kwargs)

    monkeypatch.setattr(BaselineCheck, "run", slow)
    code, out, _ = check(capsys, corpus, baseline, "reference", "--json", str(report))
    assert code == 0
    totals = next(line for line in out.splitlines() if line.startswith("8 passed, "))
    assert float(totals.rsplit(" in ", 1)[1].rstrip("s")) < 1.0
    data = json.loads(report.read_text())
    assert data["seconds"] < 1.0
