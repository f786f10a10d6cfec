"""Resolve `--edition NAME|FILE` arguments into compiled specs."""

from __future__ import annotations

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


def edition_arg(name: str, choices: dict[str, int] | None = None) -> Edition:
    """Load an edition or reading given by bundled id or path (SpecError on problems)."""
    return load_spec(name, choices)


def check_players(edition: Edition, players: int) -> None:
    """UsageError unless the spec allows this player count."""
    if not edition.supports(players):
        raise UsageError(f"{edition.id} is for {edition.min_players}-{edition.max_players} players, "
                         f"not {players}")
