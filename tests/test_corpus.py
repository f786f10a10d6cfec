"""The conformance corpus checks itself: valid files, unique ids, known clauses and decks, every
clause, clause pair and player-count clause covered by required cases, every case passing against
the reference engine, every file in the canonical formatting, and the golden traces matching their
generator."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from conftest import CORPUS_COVERAGE, EDITIONS

from llcheck.harness.cases import (
    Case,
    corpus_files,
    corpus_problems,
    coverage,
    editions,
    load_corpus,
    readings,
    reformatted,
)
from llcheck.harness.pairs import PairCoverage, pair_coverage
from llcheck.harness.selfcheck import against_reference

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def corpus() -> list[Case]:
    return load_corpus()


def test_every_case_file_validates_with_unique_ids_known_clauses_and_real_decks(corpus):
    assert corpus_problems(corpus) == []
    assert len({case.id for case in corpus}) == len(corpus)


def test_every_clause_of_every_edition_is_covered_by_a_required_case(corpus, request):
    table = coverage(corpus)
    pairs = pair_coverage(corpus)
    request.config.stash[CORPUS_COVERAGE] = _table(table, pairs)
    assert set(editions()) >= set(EDITIONS)
    assert [clause for clause, ids in table.items() if not ids] == []
    assert [str(pair) for pair in pairs.uncovered] == []
    assert pairs.count_gaps == []


def _table(table: dict[str, list[str]], pairs: PairCoverage) -> str:
    width = max(len(clause) for clause in table)
    lines = [f"{clause:<{width}} {len(ids):>3}  {ids[0] if ids else 'UNCOVERED'}"
             + (f" (+{len(ids) - 1})" if len(ids) > 1 else "") for clause, ids in table.items()]
    covered = sum(1 for ids in table.values() if ids)
    total = f"{covered} of {len(table)} clauses covered (llcheck cases --coverage lists every case)"
    paired = f"{len(pairs.pairs) - len(pairs.uncovered)} of {len(pairs.pairs)} clause pairs covered"
    counted = sum(1 for groups in pairs.player_counts.values() if all(groups.values()))
    counts = f"{counted} of {len(pairs.player_counts)} player-count clauses at 2 players and at 3 or more"
    return "\n".join(lines + [total, paired, counts])


def test_the_whole_corpus_passes_against_the_reference_engine(corpus):
    failures = [f"{r.id}: {r.status}: {r.message}" for r in against_reference(corpus) if r.status != "passed"]
    assert failures == []


def test_each_folder_holds_cases_for_both_editions(corpus):
    found = Counter((case.status, case.edition) for case in corpus)
    for status in ("required", "disputed", "golden"):
        for edition in EDITIONS:
            assert found[status, edition] > 0, (status, edition)


def test_disputed_cases_follow_bundled_readings_and_name_the_clause_in_dispute(corpus):
    for case in corpus:
        if case.status == "disputed":
            assert case.assumes in readings()
            assert any(clause.startswith(f"{case.assumes}.") for clause in case.clauses), case.id


def test_golden_traces_cover_every_edition_and_player_count(corpus):
    golden = {(case.edition, case.players) for case in corpus if case.status == "golden"}
    expected = {(name, n) for name, spec in editions().items()
                for n in range(spec.min_players, spec.max_players + 1)}
    assert golden == expected
    for case in corpus:
        if case.status == "golden":
            assert case.result is not None
            ended = "round_winners" if "one-round" in case.tags else "game_winners"
            finished = case.result.get(ended)
            assert finished is not None
            assert all("state" in step["expect"] and "events" in step["expect"]
                       for round_ in case.rounds for step in round_["steps"])


def test_every_file_is_in_the_canonical_formatting():
    """Case files are edited by hand: one formatting keeps their diffs reviewable."""
    misformatted = [str(path) for path in corpus_files() if len(set(reformatted(path))) > 1]
    assert misformatted == [], "run llcheck cases --format"


def test_every_golden_trace_names_its_source_and_its_seed_is_data(corpus):
    listed = json.loads((ROOT / "tools" / "data" / "golden-traces.json").read_text())["traces"]
    seeds = {(trace["edition"], trace["players"], trace.get("rounds")): trace["seed"] for trace in listed}
    golden = [case for case in corpus if case.status == "golden"]

    def rounds(case: Case) -> int | None:
        return 1 if "one-round" in case.tags else None

    assert sorted((case.edition, case.players, rounds(case) or 0) for case in golden) == sorted(
        (edition, players, n or 0) for edition, players, n in seeds)
    for case in golden:
        seed = seeds[case.edition, case.players, rounds(case)]
        name = f"{case.players}-players{'-one-round' if rounds(case) else ''}.json"
        assert case.path == ROOT / "conformance" / "golden" / case.edition / name
        assert len(case.rounds) == 1 or not rounds(case)
        assert case.generated == (f"by tools/gen_golden.py from spec/editions/{case.edition}.yaml, "
                                  f"seed {seed}; do not edit")
    assert not any(case.generated for case in corpus if case.status != "golden")


def test_the_golden_traces_are_what_the_reference_engine_records():
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_golden.py"), "--check"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


PRIEST_LOOK = {
    "description": "A Priest looks at the chosen player's card, which only its player sees",
    "clauses": ["classic.priest.look"],
    "tags": ["priest", "hand-written"],
    "edition": "classic",
    "players": 2,
    "rounds": [{
        "deck": ["Princess", "Guard", "Guard", "Guard", "Priest", "Baron", "Guard", "Handmaid", "Priest",
                 "Baron", "Handmaid", "Prince", "Prince", "King", "Countess", "Guard"],
        "steps": [{"action": {"type": "play", "card": "Priest", "target": 1}, "expect": {
            "events": [{"type": "play", "player": 0, "card": "Priest", "target": 1},
                       {"type": "look", "player": 0, "target": 1, "card": "Baron"},
                       {"type": "turn", "player": 1},
                       {"type": "draw", "player": 1, "card": "Handmaid", "from": "deck"}],
            "state": {"hands": [["Guard"], ["Baron", "Handmaid"]]}}}],
    }],
}
"""Seat 0 draws a Guard to its Priest and looks at seat 1's Baron."""

FA_FACE_UP = {
    "description": "The Persian guide lays one card face up with four players too",
    "clauses": ["fa-guide.setup.face-up", "classic.setup.face-up"],
    "tags": ["setup", "hand-written"],
    "edition": "classic",
    "players": 4,
    "assumes": "fa-guide",
    "rounds": [{
        "deck": ["Princess", "King", "Guard", "Priest", "Baron", "Handmaid", "Guard", "Guard", "Guard",
                 "Guard", "Priest", "Baron", "Handmaid", "Prince", "Prince", "Countess"],
        "start": {"state": {"set_aside": ["Princess"], "face_up": ["King"],
                            "hands": [["Guard", "Guard"], ["Priest"], ["Baron"], ["Handmaid"]]}},
    }],
}
"""Dealt with one card set aside and one face up, as the guide says for any number of players."""


def test_a_case_written_by_hand_can_sit_in_any_case_folder(capsys, tmp_path):
    """Nothing generates the case files: a new file written by hand, in any formatting, in each
    status folder is loaded, validated and run like the others, and `--format` tidies it."""
    from llcheck.cli import main
    from llcheck.harness.cases import corpus_dir
    root = tmp_path / "cases"
    shutil.copytree(corpus_dir(), root)
    written = {"required": ("classic.priest.look/by-hand", PRIEST_LOOK),
               "optional": ("classic.priest.look/by-hand-optional", PRIEST_LOOK),
               "disputed": ("fa-guide.setup.face-up/by-hand-four-players", FA_FACE_UP)}
    for status, (case_id, case) in written.items():
        path = root / status / "classic" / "by-hand.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"description": "Written by hand", "cases": [{"id": case_id, **case}]},
                                   indent=4))
    assert main(["cases", "--validate", "--root", str(root)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"\(\d+ required, 1 optional, \d+ disputed\); coverage not required of a folder of "
                     r"your own \(--coverage --root shows it\); 0 failing against the reference", out), out
    assert main(["cases", "--list", "--root", str(root), "--tag", "hand-written"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in listed[:-1]] == [
        [case_id, status] for status, (case_id, _) in sorted(written.items())]
    assert main(["check", "--impl", "reference", "--corpus", str(root), "--status", "required", "--status",
                 "optional", "--run", "*/by-hand*", "-q"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("2 passed, 0 failed, 0 errored, 0 skipped in")
    assert main(["cases", "--format", "--root", str(root)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"{len(corpus_files(root))} files, 3 reformatted"
    assert all(len(set(reformatted(path))) == 1 for path in corpus_files(root))
