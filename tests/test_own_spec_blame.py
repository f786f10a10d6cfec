"""An edition of your own that leaves a situation without an answer is blamed, as a spec: the
clause and where it is (or that the file lacks it), exit code 2, never "engine error"; and its
clauses are quoted from the file, not looked up among the bundled specs."""

from __future__ import annotations

from pathlib import Path

from conftest import run_llcheck

from llcheck.specs import blamed_on_spec, gap_message
from loveletter_ref.spec import load_spec

CLASSIC = Path(__file__).parent.parent / "spec" / "editions" / "classic.yaml"


def house(tmp_path: Path) -> Path:
    """Classic, but a Baron tie knocks both players out: with two players, nobody is left, and
    the file has no rule for a round where everyone is out."""
    text = CLASSIC.read_text(encoding="utf-8").replace("id: classic\n", "id: house\n", 1)
    text = text.replace("prefix: classic\n", "prefix: house\n", 1)
    text = text.replace("on_tie: nothing", "on_tie: both_out")
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_gap_in_your_edition_is_blamed_on_the_spec(capsys, tmp_path):
    path = house(tmp_path)
    assert run_llcheck(capsys, "validate", str(path))[0] == 0  # the schema and semantic checks pass
    for impl in (["--impl", "reference"], []):  # in process, and served over the protocol
        code, out, err = run_llcheck(capsys, "check", *impl, "--edition", str(path), "--properties", "-q",
                                     "--run", "property/legality/house/2p")
        assert code == 2, out + err
        assert "engine error" not in out + err
        where = (f"under your spec {path}, clause house.round.all-eliminated (no such clause in {path}: "
                 "add it)")
        assert f"  {where} leaves this situation without an answer: every player is out" in out
        assert err == (f"llcheck check: {where} leaves this situation without an answer (1 result stopped "
                       "there): the spec is incomplete, not the engine\n")
        assert "no bundled spec has this clause" not in out


def test_the_clauses_of_your_edition_are_quoted_from_its_file(capsys, tmp_path):
    path = house(tmp_path)
    code, out, _ = run_llcheck(capsys, "check", "--impl", "reference", "--edition", str(path), "--properties",
                               "--run", "property/deck-conservation/house/2p", "-q")
    assert code == 2
    quoted = [line for line in out.splitlines() if line.startswith("  clause house.setup.deck: ")]
    assert quoted and "«" in quoted[0]


def test_a_clause_of_the_file_is_named_with_its_line(tmp_path):
    spec = load_spec(str(house(tmp_path)))
    clause = spec.clauses["house.baron.tie"]
    message = gap_message(spec, "house.baron.tie", "no rule")
    place = f"{clause.where[0]}:{clause.where[1]}"
    assert message == (f"under your spec {spec.path}, clause house.baron.tie ({place}) leaves this situation "
                       "without an answer: no rule")
    assert blamed_on_spec(f"engine error on apply (request 9): {message}") == message
    assert gap_message(load_spec("classic"), "classic.round.all-eliminated", "no rule") is None
    assert gap_message(load_spec("tr-2019"), "tr-2019.x", "no rule") is None  # a reading's silence is its own


def test_a_later_run_forgets_the_files_of_an_earlier_one(capsys, tmp_path):
    from llcheck.harness.clauses import clause_quote
    run_llcheck(capsys, "check", "--impl", "reference", "--edition", str(house(tmp_path)), "--properties",
                "--run", "property/legality/house/2p", "-q")
    assert clause_quote("house.setup.deck") == "(no bundled spec has this clause)"
