"""Resolve `--edition NAME|FILE` arguments into compiled specs."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from loveletter_ref.spec import Edition, known_specs, load_spec

from .errors import UsageError


def parse_choices(items: list[str] | None) -> dict[str, int]:
    """`--version-of KEY=N` options (1-based on the command line) as {key: index}."""
    out: dict[str, int] = {}
    for item in items or []:
        key, sep, number = item.partition("=")
        if not sep or not number.isdigit() or int(number) < 1:
            raise UsageError(f"--version-of expects CLAUSE=N with N >= 1, not {item!r}")
        out[key] = int(number) - 1
    return out


def version_choices(names: list[str], choices: dict[str, int]) -> list[dict[str, int]]:
    """For each spec named, the `--version-of` choices it takes (by clause key; a clause may also
    be given by its full id): every contradicted clause so named. UsageError for a choice no
    spec takes, or a version a clause does not have."""
    out: list[dict[str, int]] = []
    taken: set[str] = set()
    contradicted: set[str] = set()
    for name in names:
        spec = load_spec(name)
        mine: dict[str, int] = {}
        for given, index in choices.items():
            clause = spec.clause_by_key(given.removeprefix(spec.prefix + "."))
            if clause is None or not clause.versions:
                continue
            if index >= len(clause.versions):
                raise UsageError(f"--version-of {given}: {spec.id}'s {clause.key} has {len(clause.versions)} "
                                 f"versions, not {index + 1}")
            mine[clause.key] = index
            taken.add(given)
        contradicted.update(c.key for c in spec.clauses.values() if c.versions)
        out.append(mine)
    for given in choices:
        if given not in taken:
            raise UsageError(f"--version-of {given}: no spec given contradicts itself on that clause "
                             f"(contradicted: {', '.join(sorted(contradicted)) or 'none'})")
    return out


def edition_arg(name: str, choices: dict[str, int] | None = None) -> Edition:
    """Load an edition or reading given by bundled id or path (SpecError on problems)."""
    return load_spec(name, choices)


def check_players(edition: Edition, players: int) -> None:
    """UsageError unless the spec allows this player count."""
    if not edition.supports(players):
        raise UsageError(f"{edition.id} is for {edition.min_players}-{edition.max_players} players, "
                         f"not {players}")


def as_described(spec: Edition) -> Edition:
    """A reading under the id of the edition it describes (its clauses keep their own ids), as an
    engine playing it is asked for it; an edition as it is."""
    return replace(spec, id=spec.describes) if spec.kind == "reading" and spec.describes else spec


GAP = "leaves this situation without an answer"
"""What an edition of your own does where the game reaches a point none of its clauses decides."""


def own_file(spec: Edition) -> Path | None:
    """The file of an edition of your own (a spec file that is not a bundled one), else None."""
    if spec.path is None or spec.kind != "edition":
        return None
    bundled = {Path(path).resolve() for path in known_specs().values()}
    return None if spec.path.resolve() in bundled else spec.path


def gap_message(spec: Edition, clause_id: str, reason: str) -> str | None:
    """Where a game under an edition of your own reached a point its clauses do not decide, blamed
    on the spec, with the clause's place in the file (or that the file lacks it); None for a
    bundled spec or a reading (whose silences are its own to keep)."""
    path = own_file(spec)
    if path is None:
        return None
    clause = spec.clauses.get(clause_id)
    where = f"{clause.where[0]}:{clause.where[1]}" if clause is not None else \
        f"no such clause in {path}: add it"
    return f"under your spec {path}, clause {clause_id} ({where}) {GAP}: {reason}"


def blamed_on_spec(message: str) -> str | None:
    """The part of a result's message that blames an edition of your own (`gap_message`), wherever
    it was passed on from (an engine's error response, a property run), else None."""
    start = message.find("under your spec ")
    return message[start:] if start >= 0 and GAP in message[start:] else None
