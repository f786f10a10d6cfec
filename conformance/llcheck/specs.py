"""Resolve `--edition NAME|FILE` arguments into compiled specs."""

from __future__ import annotations

from dataclasses import replace

from loveletter_ref.spec import Edition, load_spec

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
