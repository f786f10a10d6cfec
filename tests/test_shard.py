"""`check --shard K/N` splits a run into parts that hold each result once, and `llcheck report
--merge` joins the parts' reports into the whole run's: the same JSON, JUnit, text and exit code
as the run without --shard, timings aside."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import run_llcheck
from untimed import untimed

from llcheck.shard import Shard, key

run = run_llcheck

TIMES = re.compile(r' (time|timestamp|hostname)="[^"]*"| in [0-9.]+s$', re.MULTILINE)
"""JUnit's timings and host, the text report's duration."""


def whole_and_parts(capsys: pytest.CaptureFixture[str], tmp_path: Path, parts: int, *args: str
                    ) -> tuple[tuple[int, str], tuple[int, str], list[int]]:
    """(exit code, text) of the whole run and of the merge of its parts (`args` include -q), and each
    part's exit code; the reports in tmp_path (whole.json, whole.xml, merged.json, merged.xml)."""
    code, whole, _ = run(capsys, "check", *args, "--json", str(tmp_path / "whole.json"),
                         "--junit", str(tmp_path / "whole.xml"))
    codes = [run(capsys, "check", *args, "--shard", f"{k}/{parts}", "--json", str(tmp_path / f"{k}.json"))[0]
             for k in range(1, parts + 1)]
    given = [str(tmp_path / f"{k}.json") for k in reversed(range(1, parts + 1))]  # any order will do
    merged_code, merged, err = run(capsys, "report", "-q", "--merge", *given, "--json",
                                   str(tmp_path / "merged.json"), "--junit", str(tmp_path / "merged.xml"))
    assert err == ""
    return (code, TIMES.sub("", whole)), (merged_code, TIMES.sub("", merged)), codes


def same_reports(tmp_path: Path) -> None:
    whole, merged = (json.loads((tmp_path / f"{name}.json").read_text()) for name in ("whole", "merged"))
    assert untimed(merged) == untimed(whole)
    assert "shard" not in merged
    junit = [TIMES.sub("", (tmp_path / f"{name}.xml").read_text()) for name in ("whole", "merged")]
    assert junit[1] == junit[0]


def test_merged_parts_are_the_whole_run_failures_campaigns_and_golden_traces(capsys, tmp_path):
    """An engine that fails cases, golden traces, properties and fuzzing, split in three."""
    whole, merged, codes = whole_and_parts(
        capsys, tmp_path, 3, "--impl", "python:adapters:DropDiscards", "--edition", "classic", "--fuzz", "20",
        "--properties", "--skip", "*/3p", "--skip", "*/4p", "--fuzz-dir", str(tmp_path / "found"), "-q")
    assert whole[0] == 1 and merged == whole
    assert 1 in codes
    same_reports(tmp_path)
    report = json.loads((tmp_path / "merged.json").read_text())
    kinds = {r["kind"] for r in report["results"]}
    assert kinds == {"case", "property", "fuzz"} and report["golden"]["results"]
    assert report["summary"]["failed"] and report["golden"]["summary"]["failed"]
    parts = [json.loads((tmp_path / f"{k}.json").read_text()) for k in (1, 2, 3)]
    ids = [r["id"] for part in parts for r in [*part["results"], *part["golden"]["results"]]]
    assert sorted(ids) == sorted(r["id"] for r in [*report["results"], *report["golden"]["results"]])
    assert all(part["results"] for part in parts)  # 86 cases and a seat: no part is empty


def test_a_part_with_nothing_to_run_is_an_empty_report_that_still_merges(capsys, tmp_path):
    whole, merged, codes = whole_and_parts(capsys, tmp_path, 4, "--impl", "reference",
                                           "--run", "classic.baron.compare/the-lower-hand-is-out", "-q")
    assert codes.count(0) == 4 and merged == whole == (0, merged[1])
    same_reports(tmp_path)
    sizes = [len(json.loads((tmp_path / f"{k}.json").read_text())["results"]) for k in (1, 2, 3, 4)]
    assert sorted(sizes) == [0, 0, 0, 1]


def test_an_engine_that_will_not_start_is_reported_once_by_the_merge(capsys, tmp_path):
    whole, merged, codes = whole_and_parts(capsys, tmp_path, 2, "--impl", "python:adapters:cannot_start",
                                           "-q")
    assert codes == [3, 3] and merged[0] == whole[0] == 3  # check says why on stderr, the merge on stdout
    same_reports(tmp_path)
    results = json.loads((tmp_path / "merged.json").read_text())["results"]
    assert [r["id"] for r in results] == ["engine/start"]


def test_every_id_is_in_exactly_one_part_and_a_seat_is_checked_whole():
    ids = [f"classic.required/case-{n}" for n in range(200)] + \
        [f"property/{name}/classic/{n}p" for name in ("tokens", "all") for n in (2, 3, 4)]
    for count in (1, 2, 5):
        owners = [[k for k in range(1, count + 1) if Shard(k, count).takes(i)] for i in ids]
        assert all(len(owner) == 1 for owner in owners)
    assert key("property/tokens/classic/2p") == key("property/all/classic/2p") == "property/classic/2p"
    assert key("fuzz/z-man-2019/6p") == "fuzz/z-man-2019/6p"
    assert {Shard(k, 2).takes("property/tokens/classic/3p") for k in (1, 2)} == {True, False}
    assert Shard(1, 2).takes("property/tokens/classic/3p") == Shard(1, 2).takes("property/all/classic/3p")


@pytest.mark.parametrize("value", ["0/2", "3/2", "1/0", "2", "a/b", "1/2/3", "1/1001", "²/3", ""])
def test_a_bad_shard_is_one_line_and_exit_code_2(capsys, value):
    code, out, err = run(capsys, "check", "--shard", value)
    assert (code, out) == (2, "")
    assert err.startswith("llcheck check: argument --shard: expected K/N") and len(err.splitlines()) == 1


def test_shard_does_not_go_with_baseline(capsys, tmp_path):
    code, _, err = run(capsys, "check", "--impl", "reference", "--shard", "1/2", "--baseline",
                       str(tmp_path / "b.json"))
    assert code == 2
    assert err == ("llcheck check: --shard does not go with --baseline: check the baseline in a job of its "
                   "own\n")


@pytest.fixture(scope="module")
def parts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reports of a two-part run of the Baron cases, 1.json and 2.json."""
    folder = tmp_path_factory.mktemp("parts")
    from llcheck.cli import main

    for k in (1, 2):
        assert main(["check", "--impl", "reference", "--run", "classic.baron*", "--shard", f"{k}/2",
                     "--json", str(folder / f"{k}.json"), "-q"]) == 0
    return folder


def rewritten(parts: Path, tmp_path: Path, change: Any) -> Path:
    """Part 2's report as `change` leaves it."""
    data = json.loads((parts / "2.json").read_text())
    change(data)
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(("files", "message"), [
    (lambda p, t: [p / "1.json"], "--merge: part 2 of 2 is missing"),
    (lambda p, t: [p / "1.json", p / "1.json", p / "2.json"],
     "--merge: part 1 of 2 is given twice ({p}/1.json, {p}/1.json)"),
    (lambda p, t: [p / "1.json", t / "missing.json"], "--merge {t}/missing.json: cannot be read as JSON "
                                                      "(No such file or directory)"),
    (lambda p, t: [p / "1.json", rewritten(p, t, lambda d: d.pop("shard"))],
     "--merge {t}/changed.json: is the report of a whole run, not of a part (check --shard K/N writes "
     "those)"),
    (lambda p, t: [p / "1.json", rewritten(p, t, lambda d: d["shard"].update(count=3))],
     "--merge {t}/changed.json: is part 2 of 3, {p}/1.json of 2"),
    (lambda p, t: [p / "1.json", rewritten(p, t, lambda d: d["options"].update(seed=5))],
     "--merge {t}/changed.json: has another 'options' than {p}/1.json: parts of one run share it"),
    (lambda p, t: [p / "1.json", rewritten(p, t, lambda d: d.update(report="other"))],
     "--merge {t}/changed.json: is not a JSON report of llcheck check"),
    (lambda p, t: [p / "1.json", rewritten(p, t, lambda d: d["results"].append({"id": 1}))],
     "--merge {t}/changed.json: is not a report of a part as check --shard writes it (KeyError: "),
])
def test_reports_that_are_not_the_parts_of_one_run_are_one_line_and_exit_code_2(capsys, tmp_path, parts,
                                                                                   files, message):
    code, out, err = run(capsys, "report", "--merge", *map(str, files(parts, tmp_path)))
    assert (code, out) == (2, "")
    assert err.startswith("llcheck report: " + message.format(p=parts, t=tmp_path))
    assert len(err.splitlines()) == 1


def test_a_part_report_follows_the_schema_and_the_merge_drops_its_shard_field(capsys, tmp_path, parts):
    from test_check_command import schema_validator

    validator = schema_validator()
    part = json.loads((parts / "1.json").read_text())
    validator.validate(part)
    assert part["shard"]["index"] == 1 and part["shard"]["count"] == 2
    assert set(part["shard"]["order"]) == {r["id"] for r in part["results"]}
    code, _, err = run(capsys, "report", "--merge", str(parts / "1.json"), str(parts / "2.json"), "--json",
                       str(tmp_path / "whole.json"), "-q")
    assert code == 0, err
    validator.validate(json.loads((tmp_path / "whole.json").read_text()))


def test_the_merge_will_not_overwrite_a_part(capsys, parts):
    code, out, err = run(capsys, "report", "--merge", str(parts / "1.json"), str(parts / "2.json"), "--junit",
                         str(parts / "2.json"))
    assert (code, out) == (2, "")
    assert err == f"llcheck report: --junit {parts}/2.json would overwrite a report it joins\n"
    assert json.loads((parts / "2.json").read_text())["shard"]["index"] == 2
