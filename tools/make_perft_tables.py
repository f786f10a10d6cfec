#!/usr/bin/env python3
"""Write the published deal-perft tables, conformance/perft/<edition>.json, from the reference.

The deals are data, `tools/data/perft-deals.json`: for each edition and player count, the seeds
that shuffle them. Each is counted depth by depth until the round is over in every line (the
deal is then `complete`) or the next depth would hold more than the file's `max_nodes` nodes.
Counting follows docs/perft.md. The listed deals must show every kind of decision the cards in
play can ask for (a keep, a response to an offer, a choice of two players): when they do not, no
table is written and the first later seed whose counted depths show the missing kind is named,
to be added to the data file.

    python tools/make_perft_tables.py [--edition E ...] [--check]

--check recomputes the tables and exits 1 when a file differs from what would be written.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from llcheck.atomic import write_atomic
from llcheck.perft import (
    Level,
    ReferenceTree,
    TableEntry,
    decision_kinds,
    perft,
    seeded_deal,
    table_entry_json,
)
from loveletter_ref import load_spec
from loveletter_ref.spec import Edition

ROOT = Path(__file__).resolve().parents[1]
DEALS = ROOT / "tools" / "data" / "perft-deals.json"
SEARCH = 400
"""Seeds tried, after the listed ones, for a deal that shows a missing kind of decision."""


class Shortfall(Exception):
    """The listed deals of a player count leave out a kind of decision its cards can ask for."""


def levels_within(tree: ReferenceTree, max_nodes: int) -> tuple[list[Level], bool]:
    """Counts depth by depth, up to the last depth with at most `max_nodes` nodes."""
    depth = 1
    kept: list[Level] = []
    while True:
        levels = perft(tree, depth)
        last = levels[-1]
        if last.nodes == 0:
            return kept, True
        if last.nodes > max_nodes:
            return kept, False
        kept = levels
        depth += 1


def wanted_kinds(edition: Edition, players: int) -> set[str]:
    """The kinds of decision the cards in a game of `players` can ask for."""
    kinds = {"play"}
    for card in edition.cards:
        if card.count_for(players) == 0:
            continue
        for step in card.steps:
            if step.kind == "draw_return":
                kinds.add("keep")
            elif step.kind == "offer_redraw":
                kinds.add("respond")
            elif step.kind == "choose" and step.clause.rule.get("count", 1) > 1:
                kinds.add("targets")
    return kinds


def entry(edition: Edition, players: int, seed: int, max_nodes: int) -> tuple[TableEntry, set[str]]:
    """The table entry of one seeded deal, and the kinds of decision its counted depths include."""
    deal = seeded_deal(edition, players, seed, first_player=seed % players)
    deal = type(deal)(deal.edition, players, deal.deck, deal.first_player,
                      f"{edition.id}/{players}p/seed-{seed}")
    tree = ReferenceTree(deal, edition)
    levels, complete = levels_within(tree, max_nodes)
    return TableEntry(deal, levels, complete), decision_kinds(tree, len(levels))


def table(edition_id: str, seeds: dict[str, list[int]], max_nodes: int) -> dict[str, object]:
    """The table of one edition, from the seeds of each player count (Shortfall when those deals
    leave out a kind of decision)."""
    edition = load_spec(edition_id)
    deals = []
    for players in range(edition.min_players, edition.max_players + 1):
        missing = wanted_kinds(edition, players)
        listed = seeds[str(players)]
        for seed in listed:
            found, kinds = entry(edition, players, seed, max_nodes)
            deals.append(table_entry_json(found))
            missing -= kinds
        if missing:
            raise Shortfall(_shortfall(edition, players, missing, max(listed), max_nodes))
    source = edition.path.relative_to(ROOT) if edition.path is not None else edition.id
    generated = f"by tools/make_perft_tables.py from {source} and {DEALS.relative_to(ROOT)}; do not edit"
    return {
        "$schema": "../schema/perft.schema.json",
        "generated": generated,
        "edition": edition.id,
        "description": (f"Deal-perft of {edition.title}: legal action sequences of fixed deals, by "
                        "depth, with terminal nodes by winner (counting convention: docs/perft.md)."),
        "deals": deals,
    }


def _shortfall(edition: Edition, players: int, missing: set[str], last: int, max_nodes: int) -> str:
    """What a player count's deals leave out, and the first later seed that shows it, if any does."""
    kinds = ", ".join(sorted(missing))
    for seed in range(last + 1, last + 1 + SEARCH):
        if entry(edition, players, seed, max_nodes)[1] & missing:
            return (f"{edition.id} with {players} players: no listed deal counts a {kinds} decision; seed "
                    f"{seed} does: add it to {DEALS.relative_to(ROOT)}")
    return (f"{edition.id} with {players} players: no listed deal counts a {kinds} decision, nor any seed "
            f"up to {last + SEARCH}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edition", action="append",
                        help="edition(s) to write (default: every one of the data file)")
    parser.add_argument("--check", action="store_true", help="only check the files are up to date")
    args = parser.parse_args()
    data = json.loads(DEALS.read_text(encoding="utf-8"))
    for edition_id in args.edition or ():
        if edition_id not in data["editions"]:
            parser.error(f"--edition {edition_id}: {DEALS.relative_to(ROOT)} lists no deal of it")
    stale = []
    for edition_id in args.edition or data["editions"]:
        path = ROOT / "conformance" / "perft" / f"{edition_id}.json"
        try:
            counted = table(edition_id, data["editions"][edition_id], data["max_nodes"])
        except Shortfall as exc:
            print(exc, file=sys.stderr)
            return 1
        text = json.dumps(counted, indent=1) + "\n"
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(str(path))
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, text)
        print(f"wrote {path}")
    for path in stale:
        print(f"{path} is not what the reference engine counts now", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
