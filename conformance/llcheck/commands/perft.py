"""Count the legal action sequences of one fixed deal to a depth (deal-perft, docs/perft.md):
nodes per depth and terminal nodes (round ends) by winner. --divide splits the count at the
last depth by first move. With --impl, the engine's counts (it must list legal actions) are
compared with the reference's; on a difference the divide of both is printed at the first
depth that differs, with the path to the first node where they disagree. --table checks the
published tables (conformance/perft/EDITION.json) instead of one deal."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

from loveletter_ref import Game
from loveletter_ref.spec import Edition, load_spec

from .. import exitcodes
from ..arguments import MAX_PLAYERS, PLAYERS, SEED, seconds, whole
from ..engines import options as engine_options
from ..engines.base import Engine, EngineFailure
from ..engines.guard import described
from ..engines.loader import REFERENCE, open_engine, start_failure
from ..errors import UsageError
from ..harness.applicable import one_step_reason, seat_reason
from ..interrupts import StopSignals, unfinished
from ..perft import (
    Branch,
    Comparison,
    Deal,
    Level,
    PerftError,
    ReferenceTree,
    compare,
    divide,
    iter_table,
    load_table,
    perft,
    seeded_deal,
    table_path,
    total,
)
from ..specs import as_described, check_players, edition_arg

MAX_DEPTH = 40
"""No round of any edition lasts this many decisions."""


EXAMPLES = """examples:
  llcheck perft --edition classic --players 2 --seed 1 --depth 4
  llcheck perft --edition classic --players 2 --seed 1 --depth 3 --divide --impl 'node my-engine.js'
  llcheck perft --table
"""
"""Shown at the end of --help."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--edition", metavar="NAME|FILE", help="the edition of the deal")
    parser.add_argument("--players", type=PLAYERS, help="player count of the deal")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--deck", metavar="CARDS",
                        help="the full deck, top first, comma-separated (names keep their spaces)")
    source.add_argument("--seed", type=SEED, help="the deck the reference engine shuffles from this seed")
    source.add_argument("--table", nargs="?", const="all", metavar="EDITION|FILE",
                        help="check every deal of the published tables (default: all editions)")
    parser.add_argument("--first", type=whole(0, MAX_PLAYERS - 1), default=0, metavar="SEAT",
                        help="who starts (default 0)")
    parser.add_argument("--depth", type=whole(1, MAX_DEPTH),
                        help="count to this depth (--table: at most this deep)")
    parser.add_argument("--divide", action="store_true", help="split the count by first move")
    parser.add_argument("--impl", metavar="ENGINE",
                        help="compare this engine with the reference (reference, python:MODULE:CLASS "
                             "or a protocol command)")
    parser.add_argument("--timeout", type=seconds, default=10.0, metavar="S",
                        help="seconds a protocol engine may take to answer one request (default 10)")
    engine_options.add_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace) -> int:
    with StopSignals():  # a KeyboardInterrupt with no signal behind it is then the adapter's own
        try:
            with unfinished(lambda: f"the count of {'the table' if args.table else 'the deal'} "
                                    f"(depth {args.depth}); what was printed is complete"):
                return _run(args)
        except _CannotStart as exc:
            print(f"llcheck perft: {exc}", file=sys.stderr)
            return exitcodes.ENGINE


def _run(args: argparse.Namespace) -> int:
    if args.table is not None:
        return _run_table(args)
    deal, edition = _deal(args)
    if args.depth is None:
        raise UsageError("give --depth N")
    if args.impl is None:
        return _count(deal, edition, args)
    if edition.kind == "reading":  # an engine playing a reading is asked for the edition it describes
        edition = as_described(edition)
        deal = replace(deal, edition=edition.id)
    try:
        engine = _open(args)
        try:
            reason = _outside(engine, deal, edition)
            if reason is not None:
                print(f"llcheck perft: not applicable: {reason}")
                return exitcodes.OK
            result = compare(engine, deal, args.depth, edition=edition, split=args.divide)
        finally:
            engine.close()
    except PerftError as exc:
        if args.json:
            _print_broken(deal.id, str(exc), True)
        else:
            print(f"llcheck perft: {exc}")
        return exitcodes.FAILED
    except (_CannotStart, UsageError, KeyboardInterrupt):
        raise
    except Exception as exc:  # an engine failure, or answers of an in-process engine perft cannot count
        if args.json:  # the record on stdout, the one line on stderr as ever
            _print_broken(deal.id, _failure_text(exc), True)
        print(f"llcheck perft: {_failure_text(exc)}", file=sys.stderr)
        return exitcodes.ENGINE
    _print_comparison(result, args.json)
    return exitcodes.OK if result.ok else exitcodes.FAILED


def _deal(args: argparse.Namespace) -> tuple[Deal, Edition]:
    if args.edition is None or args.players is None:
        raise UsageError("give --edition and --players (and --deck or --seed), or --table")
    edition = edition_arg(args.edition)
    check_players(edition, args.players)
    if not 0 <= args.first < args.players:
        raise UsageError(f"--first must be a seat (0-{args.players - 1})")
    if args.deck is not None:
        cards = _cards(args.deck)
        Game(edition, args.players).start_round(list(cards))
        return Deal(edition.id, args.players, cards, args.first), edition
    if args.seed is None:
        raise UsageError("give --deck CARDS or --seed S")
    return seeded_deal(edition, args.players, args.seed, args.first), edition


def _cards(text: str) -> tuple[str, ...]:
    """The card names of --deck: comma-separated (names may hold spaces), else space-separated."""
    names = text.split(",") if "," in text else text.split()
    return tuple(name.strip() for name in names if name.strip())


def _open(args: argparse.Namespace) -> Engine:
    """The engine of --impl; `reference` plays the --edition given (a file, too)."""
    try:
        engine = open_engine(args.impl, timeout=args.timeout, specs=(args.edition,) if args.edition else (),
                             guard=True, launch=engine_options.launch(args))
    except EngineFailure as exc:
        raise _CannotStart(start_failure(args.impl, exc)) from None
    if not engine.hello.can("legal_actions"):
        engine.close()
        raise UsageError(f"{engine.hello.name} does not list legal actions (capability "
                         "legal_actions): perft cannot count its moves")
    return engine


class _CannotStart(EngineFailure):
    """The engine did not start (its message says so, as `llcheck check` says it)."""


def _count(deal: Deal, edition: Edition, args: argparse.Namespace) -> int:
    tree = ReferenceTree(deal, edition)
    if not args.json and not args.divide:  # each depth's row as soon as it is counted
        print(deal.describe())
        _print_levels([])
        for depth in range(1, args.depth + 1):
            _print_levels(perft(tree, depth)[depth - 1:], first=depth, header=False)
        return exitcodes.OK
    if args.divide:
        branches = divide(tree, args.depth)
        levels = total(branches, args.depth)
    else:
        branches = []
        levels = perft(tree, args.depth)
    if args.json:
        out: dict[str, Any] = {**deal.to_json(), "depths": _levels_json(levels)}
        if args.divide:
            out["divide"] = [{"action": b.action.to_json(), "nodes": b.levels[-1].nodes}
                             for b in branches]
        print(json.dumps(out, indent=2))
        return exitcodes.OK
    print(deal.describe())
    _print_levels(levels)
    if args.divide:
        print(f"\ndivide: each first move with perft({args.depth - 1}) of the position it leads to")
        for branch in branches:
            print(f"  {branch.label}: {branch.levels[-1].nodes}")
    return exitcodes.OK


def _levels_json(levels: list[Level]) -> list[dict[str, Any]]:
    return [{"depth": d, **level.to_json()} for d, level in enumerate(levels, 1)]


def _print_levels(levels: list[Level], first: int = 1, header: bool = True) -> None:
    """A table row per depth (from `first`), under a header line; flushed, so that the rows of a
    count stopped midway are on screen."""
    if header:
        print(f"{'depth':>5} {'nodes':>10}  terminal nodes by winner")
    for depth, level in enumerate(levels, first):
        ends = ", ".join(f"{who}: {n}" for who, n in sorted(level.terminals.items())) or "-"
        print(f"{depth:>5} {level.nodes:>10}  {ends}")
    sys.stdout.flush()


def _print_comparison(result: Comparison, as_json: bool) -> None:
    if as_json:
        print(json.dumps(_comparison_json(result), indent=2))
        return
    print(result.deal.describe())
    if result.ok:
        _print_levels(result.engine)
        if result.engine_divide:
            print(f"\ndivide: each first move with perft({result.depth - 1}) of the position it leads to")
            for branch in result.engine_divide:
                print(f"  {branch.label}: {branch.levels[-1].nodes}")
        print(f"perft matches the reference to depth {result.depth}")
        return
    depth = result.first_difference
    assert depth is not None
    print(f"perft differs from the reference at depth {depth}:")
    print(f"  reference: {result.reference[depth - 1].describe()}")
    print(f"  engine:    {result.engine[depth - 1].describe()}")
    print(f"divide: each first move with perft({depth - 1}) below it (reference / engine):")
    for line in divide_lines(result.reference_divide, result.engine_divide):
        print(f"  {line}")
    if result.divergence is not None:
        print("first node where they disagree, " + result.disagreement())


def divide_lines(reference: list[Branch[Any]], engine: list[Branch[Any]]) -> list[str]:
    """One line per first move, marking moves whose counts differ (or that one side lacks)."""
    theirs = {b.key: b for b in engine}
    ours = {b.key for b in reference}
    lines = []
    for branch in reference:
        other = theirs.get(branch.key)
        want = branch.levels[-1].describe()
        if other is None:
            lines.append(f"{branch.label}: {want} / missing  <-- not listed by the engine")
        elif other.levels != branch.levels:
            expected, got = branch.levels[-1], other.levels[-1]
            lines.append(f"{branch.label}: {_side(expected, got)} / {_side(got, expected)}  <-- differs")
        else:
            lines.append(f"{branch.label}: {want}")
    for branch in engine:
        if branch.key not in ours:
            lines.append(f"{branch.label}: illegal / {branch.levels[-1].describe()}  <-- not legal")
    return lines


def _side(level: Level, other: Level) -> str:
    """One side of a divide line, marked `(no terminal)` where only the other side has some."""
    return level.describe() + (" (no terminal)" if other.terminals and not level.terminals else "")


def _comparison_json(result: Comparison) -> dict[str, Any]:
    out: dict[str, Any] = {**result.deal.to_json(), "ok": result.ok,
                           "reference": _levels_json(result.reference),
                           "engine": _levels_json(result.engine)}
    if result.ok and result.engine_divide:
        out["divide"] = [{"action": b.action, "nodes": b.levels[-1].nodes} for b in result.engine_divide]
    if not result.ok:
        out["first_difference"] = result.first_difference
        out["divide"] = divide_lines(result.reference_divide, result.engine_divide)
        if result.divergence is not None:
            out["divergence"] = {"path": result.path, "message": result.divergence.detail}
    return out


def _tables(which: str) -> list[Path]:
    if which == "all":
        return sorted(table_path("x").parent.glob("*.json"))
    path = Path(which)
    return [path if path.suffix == ".json" or path.exists() else table_path(which)]


def _run_table(args: argparse.Namespace) -> int:
    if args.deck is not None or args.seed is not None or args.divide:
        raise UsageError("--table checks the published deals; it takes no --deck, --seed or --divide")
    entries = []
    for path in _tables(args.table):
        if not path.is_file():
            raise UsageError(f"no perft table {path}")
        try:
            entries += load_table(path)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    failed = broken = 0
    outside: Counter[str] = Counter()
    engine: Engine | None = None
    try:
        for entry, depth in iter_table(entries, args.depth):
            if engine is None and args.impl and args.impl != REFERENCE:
                engine = _open(args)  # again after an engine failure: a broken engine may be dead
            spec = load_spec(entry.deal.edition)
            reason = _outside(engine, entry.deal, spec) if engine is not None else None
            if reason is not None:
                outside[reason] += 1
                continue
            try:
                failed += not _check_entry(entry.deal, entry.levels[:depth], depth, engine, args.json)
            except PerftError as exc:
                failed += 1
                _print_broken(entry.deal.id, str(exc), args.json)
            except (_CannotStart, UsageError, KeyboardInterrupt):
                raise
            except Exception as exc:  # an engine failure, or answers perft cannot count: the next deal
                broken += 1
                _print_broken(entry.deal.id, _failure_text(exc), args.json)
                if engine is not None:
                    engine.close()
                engine = None
    finally:
        if engine is not None:
            engine.close()
    if not args.json:
        checked = len(entries) - sum(outside.values())
        print(f"{checked - failed - broken} of {checked} deals match"
              + (f"; {broken} could not be counted (engine failure)" if broken else "")
              + "".join(f"; {n} not applicable: {reason}" for reason, n in sorted(outside.items())))
    return exitcodes.ENGINE if broken else exitcodes.FAILED if failed else exitcodes.OK


def _outside(engine: Engine, deal: Deal, edition: Edition) -> str | None:
    """Why the engine does not play a perft deal (a fixed deck it must be dealt, every step of
    the rules counted), or None."""
    reason = seat_reason(engine.hello, deal.edition, deal.players, ("deck",))
    return reason or one_step_reason(engine.hello, edition)


def _failure_text(exc: Exception) -> str:
    """An engine failure as perft reports it (the answers of an in-process engine it cannot count too)."""
    if isinstance(exc, EngineFailure):
        return f"engine failure: {exc}"
    return f"engine failure: its answers cannot be counted: {described(exc)}"


def _print_broken(deal_id: str, message: str, as_json: bool) -> None:
    """One deal that could not be compared, and why; the table goes on with the next deal."""
    if as_json:
        print(json.dumps({"id": deal_id, "ok": False, "error": message}))
    else:
        print(f"{deal_id}: {message}")


def _check_entry(deal: Deal, expected: list[Level], depth: int, engine: Any, as_json: bool) -> bool:
    if engine is None:
        got = perft(ReferenceTree(deal), depth)
        ok = got == expected
        if as_json:
            print(json.dumps({"id": deal.id, "ok": ok}))
        elif not ok:
            print(f"{deal.id}: the reference engine no longer reproduces the table")
        return ok
    result = compare(engine, deal, depth, expected)
    if as_json:
        print(json.dumps(_comparison_json(result)))
    elif result.ok:
        print(f"{deal.id}: ok to depth {depth}")
    else:
        _print_comparison(result, False)
    return result.ok
