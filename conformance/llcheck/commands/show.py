"""Print an edition (or reading): its cards with values, counts and clause ids, then every
general rule, each with the quote it rests on."""

from __future__ import annotations

import argparse
import json
from typing import Any

from loveletter_ref.spec import Clause, Edition

from .. import exitcodes
from ..errors import UsageError
from ..specs import edition_arg

EXAMPLES = """examples:
  llcheck show classic                             # cards, values, counts and rules by clause id
  llcheck show --edition z-man-2019 --quotes       # with every clause's rulebook quote
"""
"""Shown at the end of --help."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("spec", nargs="?", metavar="NAME|FILE",
                        help="bundled spec id (classic, z-man-2019, ...) or a spec file, as validate and "
                             "disputes take it")
    parser.add_argument("--edition", metavar="NAME|FILE", help="the same, as an option")
    parser.add_argument("--quotes", action="store_true",
                        help="print each clause's sources, one line each: the quote, or our paraphrase")
    parser.add_argument("--json", action="store_true", help="print JSON")


def _rule_text(clause: Clause) -> str:
    if clause.silent:
        return f"SILENT: {clause.silence}"
    text = f"{clause.kind}: {json.dumps(clause.rule, ensure_ascii=False)}"
    if clause.open_parts:
        text += f"  [silent on: {', '.join(clause.open_parts)}]"
    if clause.novel:
        text += "  [novel: no edition has it]"
    if clause.versions:
        text += f"  [contradicted: version {clause.version + 1 if clause.version is not None else 1}" \
                f" of {len(clause.versions)}]"
    if clause.choice:
        text += "  [choice]"
    if clause.note:
        text += f"  [note: {clause.note}]"
    return text


def _count_text(count: int | dict[str, int]) -> str:
    """A card's count for the table: `5`, or `5 (2-4), 8 (5-8)` when it depends on the players."""
    if isinstance(count, int):
        return str(count)
    return ", ".join(f"{n} ({players})" for players, n in count.items())


def _counts(edition: Edition) -> dict[str, Any]:
    out = {}
    for card in edition.cards:
        counts = {f"{lo}-{hi}" if lo != hi else str(lo): n for lo, hi, n in card.counts}
        out[card.name] = counts if len(counts) > 1 else next(iter(counts.values()))
    return out


def run(args: argparse.Namespace) -> int:
    if (args.spec is None) == (args.edition is None):
        raise UsageError("give the spec to show, as NAME|FILE or --edition NAME|FILE (one of them)")
    edition = edition_arg(args.spec if args.spec is not None else args.edition)
    if args.json:
        print(json.dumps(_as_json(edition), indent=2, ensure_ascii=False))
        return exitcodes.OK
    players = f"{edition.min_players}-{edition.max_players} players"
    print(f"{edition.title} [{edition.kind} {edition.id}, {players}]")
    counts = {name: _count_text(count) for name, count in _counts(edition).items()}
    width = max(8, *map(len, counts.values()))
    print(f"\n{'value':>5}  {'card':<13} {'count':<{width}} clauses")
    for card in sorted(edition.cards, key=lambda c: (c.value, c.name)):
        print(f"{card.value:>5}  {card.name:<13} {counts[card.name]:<{width}} {card.clause.id}")
        for clause in _card_clauses(edition, card.name):
            print(f"{'':{width + 22}}{clause.id}  {_rule_text(clause)}")
            if args.quotes:
                for cite in _citations(clause):
                    print(f"{'':{width + 24}}{cite}")
    print("\ngeneral rules")
    for clause in edition.general.values():
        print(f"  {clause.id:<34} {_rule_text(clause)}")
        if args.quotes:
            for cite in _citations(clause):
                print(f"  {'':34} {cite}")
    return exitcodes.OK


def _citations(clause: Clause) -> list[str]:
    """Every source of a clause, one citation each (a paraphrase says so)."""
    return [source.cite() for source in clause.sources] or ["(no source)"]


def _card_clauses(edition: Edition, name: str) -> list[Clause]:
    return [c for c in edition.clauses.values() if c.card == name and c.kind != "card"]


def _as_json(edition: Edition) -> dict[str, Any]:
    def clause(c: Clause) -> dict[str, Any]:
        return {"id": c.id, "kind": c.kind, "rule": c.rule, "status": c.status.value, "novel": c.novel,
                "sources": [s.cite() for s in c.sources]}
    counts = _counts(edition)
    return {
        "id": edition.id, "kind": edition.kind, "title": edition.title,
        "players": [edition.min_players, edition.max_players],
        "cards": [{"name": c.name, "value": c.value, "count": counts[c.name], "clause": c.clause.id,
                   "rules": [clause(x) for x in _card_clauses(edition, c.name)]}
                  for c in edition.cards],
        "rules": [clause(c) for c in edition.general.values()],
    }
