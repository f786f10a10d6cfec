"""Deal-perft: the published tables, the counting convention, and comparing an engine's counts."""

from __future__ import annotations

import json
from pathlib import Path

import adapters
import pytest

from llcheck.cli import main
from llcheck.engines import Engine, ReferenceEngine, Reply
from llcheck.mutants import get
from llcheck.perft import (
    Deal,
    EngineTree,
    Level,
    PerftError,
    ReferenceTree,
    compare,
    decision_kinds,
    divide,
    load_table,
    perft,
    seeded_deal,
    table_path,
)
from loveletter_ref import Game, Phase, load_spec
from loveletter_ref.engine import build_deck

EDITIONS = ("classic", "z-man-2019", "premium")


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_reference_engine_reproduces_the_published_table(edition):
    entries = load_table(table_path(edition))
    assert {e.deal.players for e in entries} == set(range(load_spec(edition).min_players,
                                                          load_spec(edition).max_players + 1))
    for entry in entries:
        assert perft(ReferenceTree(entry.deal), len(entry.levels)) == entry.levels, entry.deal.id


def test_each_table_names_its_source_and_holds_the_deals_its_data_file_lists():
    data = json.loads((Path(__file__).parents[1] / "tools" / "data" / "perft-deals.json").read_text())
    tables = table_path("classic").parent.glob("*.json")
    assert sorted(data["editions"]) == sorted(path.stem for path in tables)
    for edition, seeds in data["editions"].items():
        table = json.loads(table_path(edition).read_text())
        assert table["generated"] == (f"by tools/make_perft_tables.py from spec/editions/{edition}.yaml and "
                                      "tools/data/perft-deals.json; do not edit")
        assert [deal["id"] for deal in table["deals"]] == [
            f"{edition}/{players}p/seed-{seed}" for players, listed in seeds.items() for seed in listed]


def test_a_complete_deal_lists_every_terminal_and_has_no_deeper_node():
    entry = next(e for e in load_table(table_path("classic")) if e.complete)
    levels = perft(ReferenceTree(entry.deal), len(entry.levels) + 1)
    assert levels[-1] == Level()
    assert sum(sum(level.terminals.values()) for level in levels) > 0


def test_a_table_that_breaks_its_schema_is_refused(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"edition": "classic", "description": "x",
                               "deals": [{"id": "a", "edition": "classic", "players": 2}]}))
    with pytest.raises(ValueError, match="bad.json: deals"):
        load_table(bad)


def _brute_force(game: Game, depth: int) -> tuple[int, int]:
    """(nodes at `depth`, terminal nodes at depths up to it), counted without the library."""
    if depth == 0:
        return 1, 0
    nodes = ends = 0
    for action in game.legal_actions():
        child = game.clone()
        child.apply_unchecked(action)
        if child.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
            ends += 1
            nodes += depth == 1
        else:
            below, below_ends = _brute_force(child, depth - 1)
            nodes += below
            ends += below_ends
    return nodes, ends


@pytest.mark.parametrize("edition,players,seed", [("classic", 2, 7), ("z-man-2019", 3, 4)])
def test_counts_follow_the_convention(edition, players, seed):
    spec = load_spec(edition)
    deal = seeded_deal(spec, players, seed)
    tree = ReferenceTree(deal, spec)
    levels = perft(tree, 4)
    root = tree.root()
    assert levels[0].nodes == len(root.legal_actions())
    assert (levels[-1].nodes, sum(sum(level.terminals.values()) for level in levels)) == \
        _brute_force(root, 4)


def test_the_divide_adds_up_to_the_count():
    deal = seeded_deal(load_spec("classic"), 3, 5)
    branches = divide(ReferenceTree(deal), 3)
    assert sum(b.levels[-1].nodes for b in branches) == perft(ReferenceTree(deal), 3)[-1].nodes
    assert len({b.key for b in branches}) == len(branches)


def test_keep_decisions_are_nodes():
    spec = load_spec("z-man-2019")
    deal = Deal(spec.id, 2, tuple(build_deck(spec, 2, ["Chancellor", "Priest"], ["Guard", "Baron", "King"])))
    tree = ReferenceTree(deal, spec)
    branch = next(b for b in divide(tree, 2) if b.label == "Chancellor")
    child, _ = tree.play(tree.root(), branch.action)
    assert child.phase is Phase.KEEP
    assert branch.levels[1].nodes == len(child.legal_actions()) == 6


def test_the_premium_table_counts_responses_and_two_player_choices_at_every_large_count():
    by_count: dict[int, set[str]] = {}
    for entry in load_table(table_path("premium")):
        kinds = decision_kinds(ReferenceTree(entry.deal), len(entry.levels))
        by_count.setdefault(entry.deal.players, set()).update(kinds)
    assert all(by_count[n] >= {"play", "respond", "targets"} for n in range(5, 9)), by_count


PREMIUM = load_spec("premium")
BISHOP_DEAL = Deal("premium", 5, tuple(build_deck(PREMIUM, 5, ["Bishop", "King", "Guard", "Priest", "Baron"],
                                                  ["Handmaid"])))
"""Seat 0 holds the Bishop and draws the Handmaid; seat 1 holds the King (value 6)."""


def test_a_response_to_an_offer_is_a_node_with_one_child_per_answer():
    tree = ReferenceTree(BISHOP_DEAL, PREMIUM)
    branches = {b.key: b for b in divide(tree, 2)}
    hit = branches['{"card":"Bishop","guess":6,"target":1,"type":"play"}']
    child, outcome = tree.play(tree.root(), hit.action)
    assert outcome is None and child.phase is Phase.RESPOND
    assert [a.to_json() for a in child.legal_actions()] == [
        {"type": "respond", "card": "Bishop", "redraw": False},
        {"type": "respond", "card": "Bishop", "redraw": True}]
    assert hit.levels[1].nodes == 2
    miss = branches['{"card":"Bishop","guess":7,"target":1,"type":"play"}']
    assert miss.levels[1].nodes == len(tree.play(tree.root(), miss.action)[0].legal_actions()) > 2


@pytest.mark.parametrize("card,plays", [("Cardinal", 10 * 2), ("Baroness", 4 + 6)])
def test_a_choice_of_players_counts_each_group_and_each_player_to_look_at(card, plays):
    deal = Deal("premium", 5, tuple(build_deck(PREMIUM, 5, [card, "Guard", "Guard", "Priest", "Baron"],
                                               ["Handmaid"])))
    tree = ReferenceTree(deal, PREMIUM)
    grouped = [b for b in divide(tree, 1) if b.action.card == card]
    assert len(grouped) == plays and all(b.levels[0].nodes == 1 for b in grouped)
    assert {len(b.action.targets) for b in grouped} == ({2} if card == "Cardinal" else {1, 2})


def test_an_engine_that_agrees_on_responses_matches_the_reference():
    result = compare(ReferenceEngine(), BISHOP_DEAL, 2)
    assert result.ok and result.engine == result.reference


def test_an_engine_that_agrees_matches_the_reference():
    deal = seeded_deal(load_spec("z-man-2019"), 3, 2)
    result = compare(ReferenceEngine(), deal, 3)
    assert result.ok and result.engine == result.reference


def test_a_difference_shows_the_divide_and_the_first_node_that_differs():
    deal = Deal("classic", 2, tuple(["Princess", "King", "Countess", "Baron", "Guard", "Priest"]
                                    + ["Guard"] * 4 + ["Priest", "Baron", "Handmaid", "Handmaid",
                                                         "Prince", "Prince"]))
    result = compare(get("guard-may-name-guard").engine(), deal, 2)
    assert result.first_difference == 1
    extra = [b for b in result.engine_divide if b.key not in {r.key for r in result.reference_divide}]
    assert [b.label for b in extra] == ["Guard on 1 naming Guard"]
    assert result.divergence is not None and "listed by the engine but illegal" in result.divergence.detail


def test_a_difference_below_the_root_is_followed_down():
    spec = load_spec("classic")
    deal = next(d for d in (seeded_deal(spec, 3, s) for s in range(40))
                if not compare(get("baron-tie-eliminates").engine(), d, 3).ok)
    result = compare(get("baron-tie-eliminates").engine(), deal, 3)
    assert result.divergence is not None and result.path
    assert result.path[-1]["card"] == "Baron" and result.divergence.action == result.path[-1]
    assert result.divergence.detail == ("this action should leave the round going, but on the engine "
                                        "it ends the round with winners 0")


def test_an_action_the_engine_lists_twice_is_the_difference_at_its_node():
    result = compare(adapters.RepeatsAnAction(), seeded_deal(load_spec("classic"), 2, 1), 2)
    assert (result.ok, result.first_difference) == (False, 1)
    assert result.divergence is not None and result.path == []
    assert result.divergence.detail == "the engine lists an action more than once: Guard on 1 naming Priest"


class _ListsButRefuses(ReferenceEngine):
    """Lists the legal actions, then refuses the first one."""

    def apply(self, action: dict) -> Reply:
        return Reply(False, reason="no")


def test_an_engine_that_refuses_what_it_lists_is_an_error():
    deal = seeded_deal(load_spec("classic"), 2, 1)
    with pytest.raises(PerftError, match="lists .* as legal but refuses it"):
        perft(EngineTree(_ListsButRefuses(), deal), 1)


def test_an_engine_without_legal_actions_cannot_be_counted():
    class Mute(ReferenceEngine):
        pass

    mute: Engine = Mute()
    mute.hello = type(mute.hello)("mute", "1", ("classic",), frozenset())
    with pytest.raises(PerftError, match="does not list legal actions"):
        EngineTree(mute, seeded_deal(load_spec("classic"), 2, 1))


def test_cli_counts_and_divides(capsys):
    assert main(["perft", "--edition", "classic", "--players", "3", "--seed", "5", "--depth", "2",
                 "--divide"]) == 0
    out = capsys.readouterr().out
    assert "divide: each first move with perft(1)" in out and "Guard on 1 naming Priest" in out


def test_cli_with_an_engine_that_matches_prints_its_counts_and_divide(capsys):
    """Regression: `--impl` with `--divide` printed only "perft matches the reference to depth 2"."""
    argv = ["perft", "--edition", "classic", "--players", "3", "--seed", "5", "--depth", "2", "--divide"]
    assert main(argv) == 0
    alone = capsys.readouterr().out
    assert main([*argv, "--impl", "python:adapters:ExtraKeys"]) == 0
    out = capsys.readouterr().out
    assert out == alone + "perft matches the reference to depth 2\n"
    assert main([*argv, "--impl", "reference", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] and len(data["divide"]) == data["engine"][0]["nodes"]


def test_cli_json_matches_the_library(capsys):
    assert main(["perft", "--edition", "classic", "--players", "2", "--seed", "3", "--depth", "3",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    deal = seeded_deal(load_spec("classic"), 2, 3)
    assert [d["nodes"] for d in data["depths"]] == [lv.nodes for lv in perft(ReferenceTree(deal), 3)]


def test_cli_reports_a_mutant_with_its_divide(capsys):
    code = main(["perft", "--edition", "classic", "--players", "3", "--seed", "5", "--depth", "1",
                 "--impl", "python:llcheck.mutants.engines:guard-may-name-guard"])
    out = capsys.readouterr().out
    assert code == 1
    assert "differs from the reference at depth 1" in out and "<-- not legal" in out


def test_cli_reads_a_deck_whose_card_names_hold_spaces(capsys):
    deck = ",".join(BISHOP_DEAL.deck)
    assert "Dowager Queen" in BISHOP_DEAL.deck
    assert main(["perft", "--edition", "premium", "--players", "5", "--deck", deck, "--depth", "2",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [d["nodes"] for d in data["depths"]] == [lv.nodes for lv in perft(ReferenceTree(BISHOP_DEAL), 2)]


def test_cli_checks_the_published_tables(capsys):
    assert main(["perft", "--table", "classic", "--depth", "2"]) == 0
    assert "deals match" in capsys.readouterr().out


@pytest.mark.parametrize("argv,message", [
    (["--edition", "classic", "--players", "2", "--deck", "Guard,Guard", "--depth", "2"],
     "not a classic deck"),
    (["--edition", "classic", "--players", "9", "--seed", "1", "--depth", "2"], "players"),
    (["--edition", "classic", "--players", "2", "--seed", "1"], "--depth"),
    (["--edition", "classic", "--players", "2", "--seed", "1", "--depth", "0"], "--depth"),
    (["--table", "no-such-edition"], "no perft table"),
])
def test_cli_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    try:
        code = main(["perft", *argv])
    except SystemExit as exc:  # an argument out of its range: refused as it is parsed
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_cli_an_engine_that_cannot_start_exits_3(capsys, tmp_path: Path):
    program = tmp_path / "no-such-program"
    code = main(["perft", "--edition", "classic", "--players", "2", "--seed", "1", "--depth", "1",
                 "--impl", str(program)])
    assert code == 3
    assert capsys.readouterr().err == (f"llcheck perft: cannot talk to the engine {program}: "
                                       f"cannot start '{program}': No such file or directory\n")


def test_a_divide_line_says_which_side_has_no_terminal_when_the_counts_match():
    from collections import Counter

    from llcheck.commands.perft import divide_lines
    from llcheck.perft import Branch, Level

    move = "Guard on 0 naming Baron"
    reference = [Branch(None, "k", move, [Level(2)])]
    engine = [Branch(None, "k", move, [Level(2, Counter({"none": 1}))])]
    ended, open_ = "2 nodes (terminal: none x1)", "2 nodes (no terminal)"
    assert divide_lines(reference, engine) == [f"{move}: {open_} / {ended}  <-- differs"]
    assert divide_lines(engine, reference) == [f"{move}: {ended} / {open_}  <-- differs"]
