"""The conformance corpus checks itself: valid files, unique ids, known clauses and decks, every
clause covered by a required case, every case passing against the reference engine, and the
generated files matching their generators."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from conftest import CORPUS_COVERAGE, EDITIONS

from llcheck.harness.cases import Case, corpus_problems, coverage, editions, load_corpus, readings
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
    request.config.stash[CORPUS_COVERAGE] = _table(table)
    assert set(editions()) >= set(EDITIONS)
    assert [clause for clause, ids in table.items() if not ids] == []


def _table(table: dict[str, list[str]]) -> str:
    width = max(len(clause) for clause in table)
    lines = [f"{clause:<{width}} {len(ids):>3}  {ids[0] if ids else 'UNCOVERED'}"
             + (f" (+{len(ids) - 1})" if len(ids) > 1 else "") for clause, ids in table.items()]
    covered = sum(1 for ids in table.values() if ids)
    total = f"{covered} of {len(table)} clauses covered (llcheck cases --coverage lists every case)"
    return "\n".join(lines + [total])


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
            assert case.result is not None and case.result["game_winners"]
            assert all("state" in step["expect"] and "events" in step["expect"]
                       for round_ in case.rounds for step in round_["steps"])


@pytest.mark.parametrize("script", ["gen_cases.py", "gen_golden.py"])
def test_the_checked_in_files_are_what_the_generators_write(script):
    result = subprocess.run([sys.executable, str(ROOT / "tools" / script), "--check"], capture_output=True,
                            text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
