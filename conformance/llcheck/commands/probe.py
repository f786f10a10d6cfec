"""Prove what can never happen in a round, and find a game for what can (z3 probes).

For each spec and player count, the queries asked (default: the catalogue of docs/probes.md,
then where a game first needs each silent clause) are answered: proved unreachable (for every
deal and every sequence of choices), reachable (with a witness: a short story and the replay
the reference engine plays to the situation), or unknown within z3's resource limit (a count of
solver steps, so that the answers and witnesses are the same at any load). A witness may come
from seeded rounds of the reference engine played before the bounded search (`--playouts`, a
count of rounds: the same seed and count give the same witness). A result that
contradicts what the spec leads us to expect, or a witness the reference engine does not
confirm, makes the exit code 1; unknown answers do not."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from typing import Any

from loveletter_ref.probes.api import RLIMIT
from loveletter_ref.probes.api import prover as cached_prover
from loveletter_ref.probes.catalogue import QUERIES
from loveletter_ref.probes.conditions import clause_applies
from loveletter_ref.probes.layout import ProbeError
from loveletter_ref.probes.playouts import PLAYOUTS
from loveletter_ref.probes.prover import NOT_APPLICABLE, UNREACHABLE, ProbeAnswer, Prover
from loveletter_ref.probes.unroll import encodable
from loveletter_ref.spec import OPTIONAL_GENERAL_IDS, Edition, known_specs

from .. import cluster, exitcodes
from ..arguments import JOBS, PLAYERS, ROUNDS, SEED, Z3_UNITS
from ..errors import UsageError
from ..interrupts import unfinished
from ..progress import Status, clock
from ..specs import check_players, edition_arg, parse_choices, version_choices
from ..workers import in_workers

EXAMPLES = """examples:
  llcheck probe --edition z-man-2019 --players 3
  llcheck probe --edition classic --players 2 --query no-winner --json
"""
"""Shown at the end of --help."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--edition", action="append", metavar="NAME|FILE",
                        help="spec to probe (repeatable; default: every bundled edition)")
    parser.add_argument("--players", action="append", type=PLAYERS, metavar="N",
                        help="player count (repeatable; default: every count the spec allows)")
    parser.add_argument("--query", action="append", metavar="NAME",
                        help=f"query to answer (repeatable; default: all, then {CLAUSE}KEY for each "
                             f"silent clause of the spec): {', '.join(QUERIES)}, {CLAUSE}KEY (where a "
                             "game first needs the clause KEY, e.g. baron.tie)")
    parser.add_argument("--rlimit", type=Z3_UNITS, default=RLIMIT, metavar="N",
                        help=f"z3 resource units allowed each solver call of a query (default {RLIMIT}, "
                             "about a minute; a count of solver steps, so the answers do not depend on "
                             "the machine's load); encoding each spec and player count and proving its "
                             "invariant come first, once, and are not counted")
    parser.add_argument("--playouts", type=ROUNDS, default=PLAYOUTS, metavar="N",
                        help=f"rounds of the reference engine played to find a witness before a bounded "
                             f"search, when no quick proof settles a query (default {PLAYOUTS}; seeded, so "
                             "the same count and --seed give the same witness; 0: z3 alone)")
    parser.add_argument("--seed", type=SEED, default=0, metavar="S", help="seed of the playouts (default 0)")
    parser.add_argument("--jobs", type=JOBS, default=1, metavar="J",
                        help="spec and player-count combinations probed in parallel (default 1)")
    cluster.add_argument(parser, "the spec and player-count combinations (one task each)")
    parser.add_argument("--version-of", action="append", metavar="CLAUSE=N",
                        help="for a reading: probe version N of a contradicted clause")
    parser.add_argument("--json", action="store_true", help="print JSON")


CLAUSE = "clause-applies:"
"""The prefix of a query naming a clause: where a game first needs it."""


def probe(edition_name: str, choices: dict[str, int], players: int, names: list[str], limit: int,
          every_silence: bool = True, playouts: int = PLAYOUTS, seed: int = 0) -> dict[str, Any]:
    """Answer the named queries (catalogue names, or clause-applies:KEY) for one spec and player
    count, then, with `every_silence`, where a game first needs each silent clause (runs in a
    worker process); up to `playouts` seeded rounds of play look for a witness before a bounded
    search."""
    cpu = time.process_time()
    edition = edition_arg(edition_name, choices)
    prover = cached_prover(edition, players)
    results = []
    for name in names:
        if name in QUERIES:
            query = QUERIES[name]
            verdict = prover.ask(query, limit, playouts=playouts, seed=seed)
            row = verdict.to_json()
            expected = query.expected(edition, players) if verdict.applicable else None
            row.update(group=query.group, expected=expected)
        else:
            row = _clause(prover, name.removeprefix(CLAUSE), limit, playouts, seed).to_json()
            row.update(group="clauses", expected=None)
        row["surprise"] = _surprise(row)
        results.append(row)
    for key in silences(edition) if every_silence else ():
        row = prover.ask(clause_applies(key), limit, playouts=playouts, seed=seed).to_json()
        row.update(group="silences", expected=None)
        row["surprise"] = _surprise(row)
        results.append(row)
    return {"edition": edition.id, "players": players, "partly_silent": partly_silent(edition),
            "build_seconds": round(prover.build_seconds, 3),
            "unsupported": prover.unsupported, "unmodelled": prover.unmodelled,
            "invariant": prover.invariant, "invariant_seconds": round(prover.invariant_seconds, 3),
            "invariant_failure": prover.invariant_failure or None, "lemmas": prover.lemmas,
            "lemma_seconds": round(prover.lemma_seconds, 3),
            "unroll_seconds": round(prover.round_seconds, 3),
            "cpu_seconds": round(time.process_time() - cpu, 3), "results": results}


def silences(edition: Edition) -> list[str]:
    """The keys of a spec's silent clauses (each gets its own witness, when a game reaches it)."""
    return sorted(c.key for c in edition.clauses.values() if c.silent)


def partly_silent(edition: Edition) -> list[str]:
    """The clauses a reading states in part, each with the cases it leaves open: `round.next-first
    (several, none)`. They decide the next round, beyond the one round the probes play."""
    return [f"{c.key} ({', '.join(c.open_parts)})" for c in edition.clauses.values() if c.open_parts]


def has_clause(edition: Edition, key: str) -> bool:
    """The spec has a clause with this key (or the key names a rule whose absence is a gap)."""
    return edition.clause_by_key(key) is not None or key in OPTIONAL_GENERAL_IDS.values()


def _clause(prover: Prover, key: str, limit: int, playouts: int, seed: int) -> ProbeAnswer:
    """Where a game first needs the clause `key`; not applicable to a spec without it."""
    if has_clause(prover.edition, key):
        return prover.ask(clause_applies(key), limit, playouts=playouts, seed=seed)
    return ProbeAnswer(UNREACHABLE, f"{CLAUSE}{key}", method=NOT_APPLICABLE,
                   reason=f"{prover.edition.id} has no clause {key}")


def _surprise(row: dict[str, Any]) -> str | None:
    """What is wrong with a result: it contradicts the expectation, or the engine disagrees."""
    if row.get("problem"):
        return f"the reference engine disagrees: {row['problem']}"
    if row["expected"] and row["status"] != "unknown" and row["status"] != row["expected"]:
        return f"expected {row['expected']}"
    return None


def _editions(args: argparse.Namespace) -> list[Edition]:
    """The specs to probe, each once, in the order given."""
    names = args.edition or [name for name, path in known_specs().items() if path.parent.name == "editions"]
    chosen = version_choices(names, parse_choices(args.version_of))
    editions: dict[str, Edition] = {}
    for name, mine in zip(names, chosen, strict=True):
        edition = edition_arg(name, mine)
        editions.setdefault(str(edition.path or edition.id), edition)
    return list(editions.values())


def _jobs(args: argparse.Namespace, editions: list[Edition]) -> list[tuple[Edition, int]]:
    jobs = []
    for edition in editions:
        counts = dict.fromkeys(args.players) if args.players else range(edition.min_players,
                                                                         edition.max_players + 1)
        for players in counts:
            check_players(edition, players)
            jobs.append((edition, players))
    return jobs


def _results(args: argparse.Namespace, jobs: list[tuple[Edition, int]],
             names: list[str]) -> Iterator[dict[str, Any]]:
    calls = [(str(e.path or e.id), _chosen(e), n, names, args.rlimit, not args.query, args.playouts,
              args.seed) for e, n in jobs]
    yield from in_workers(_probe, calls, args.jobs, cluster=args.cluster)


def _chosen(edition: Edition) -> dict[str, int]:
    """The versions a spec was loaded with, by clause key (for a worker to load it again)."""
    return {c.key: c.version for c in edition.clauses.values() if c.versions and c.version is not None}


def _probe(call: tuple[str, Any, int, list[str], int, bool, int, int]) -> dict[str, Any]:
    return probe(*call)


def _names(args: argparse.Namespace, editions: list[Edition]) -> list[str]:
    """The queries asked, each once, in the order given (default: the catalogue)."""
    names = list(dict.fromkeys(args.query or QUERIES))
    for name in names:
        key = name.removeprefix(CLAUSE)
        if name in QUERIES or key != name and any(has_clause(e, key) for e in editions):
            continue
        if key != name:
            raise UsageError(f"no clause {key!r} in {', '.join(e.id for e in editions)} "
                             f"(for {CLAUSE}KEY, KEY is a clause key such as baron.tie)")
        raise UsageError(f"no probe query {name!r} (queries: {', '.join(QUERIES)}, {CLAUSE}KEY)")
    return names


def run(args: argparse.Namespace) -> int:
    cluster.require(args.cluster)
    editions = _editions(args)
    names = _names(args, editions)
    jobs = []
    for edition, players in _jobs(args, editions):
        try:
            encodable(edition, players)
        except ProbeError as exc:
            if args.edition:
                raise UsageError(str(exc)) from None
            print(f"llcheck probe: skipping {edition.id} with {players} players: {exc}", file=sys.stderr)
            continue
        jobs.append((edition, players))
    reports: list[dict[str, Any]] = []
    failed = False
    status = Status()
    began = time.monotonic()
    status(_working(jobs, 0, 0.0))
    try:
        with unfinished(lambda: f"{len(jobs) - len(reports)} of {len(jobs)} editions and player counts"):
            for report in _results(args, jobs, names):
                reports.append(report)
                failed |= any(r["surprise"] for r in report["results"])
                status.close()
                if not args.json:
                    _print(report)
                    sys.stdout.flush()
                if len(reports) < len(jobs):
                    status(_working(jobs, len(reports), time.monotonic() - began))
    finally:
        status.close()
        if args.json:
            print(json.dumps(reports, indent=2))
    return exitcodes.FAILED if failed else exitcodes.OK


def _working(jobs: list[tuple[Edition, int]], done: int, spent: float) -> str:
    """What a probe run is doing, for the status line: with the time left, at the pace so far,
    once something is done."""
    if not jobs:
        return ""
    edition, players = jobs[done]
    left = f", about {clock(spent / done * (len(jobs) - done))} left" if done else ""
    return (f"probing {edition.id} with {players} players ({done} of {len(jobs)} done{left}; each query may "
            "use up to --rlimit z3 resource units per solver call)")


def _print(report: dict[str, Any]) -> None:
    if report["invariant"]:
        invariant = f"invariant proved by induction in {report['invariant_seconds']:.1f} s"
    elif report["unsupported"]:
        invariant = f"not encoded: {report['unsupported']}"
    elif report["invariant"] is None:
        invariant = "no round can be dealt"
    else:
        invariant = f"invariant not proved: {report['invariant_failure']}"
    lemmas = f"; lemmas: {', '.join(report['lemmas'])}" if report.get("lemmas") else ""
    print(f"{report['edition']}, {report['players']} players "
          f"(encoded in {report['build_seconds']:.1f} s; {invariant}{lemmas})")
    for rule in report["unmodelled"]:
        print(f"  not modelled (a round that reaches it proves nothing beyond it): {rule}")
    for clause in report["partly_silent"]:
        print(f"  silent in part, not probed (it decides the next round; the probes play one): {clause}; "
              f"llcheck disputes {report['edition']} finds a game that needs it")
    rows = report["results"]
    width = max(len(row["condition"]) for row in rows)
    first_silence = next((row for row in rows if row["group"] == "silences"), None)
    for row in rows:
        if row is first_silence:
            print("  the spec's silent clauses, each where a game first needs it:")
        if row["method"] == "not applicable":
            print(f"  {row['condition']:{width}}  n/a          {row['reason']}")
            continue
        status = row["status"].upper() if row["status"] == "reachable" else row["status"]
        how = f"({row['method']})" if row["status"] != "unknown" else ""
        line = f"  {row['condition']:{width}}  {status:11}  {row['seconds']:6.1f} s  {how}"
        if row["surprise"]:
            line += f"  <-- {row['surprise']}"
        elif row["status"] == "unknown":
            line += f"  {row['reason']}"
        print(line.rstrip())
        if "witness" in row:
            print(f"      {row['story']}")
            print(f"      replay: {json.dumps(row['witness'], separators=(',', ':'))}")

