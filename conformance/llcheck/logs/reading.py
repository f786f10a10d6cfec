"""Reading game logs: JSON lines, each a `game` header, a `deal` or an `action` (docs/formats.md#game-logs).

A file holds one game or many: each `game` line starts one. Every problem is one located line
(`FILE:LINE: ...`, a LogError), found by the published schema (conformance/schema/log.schema.json)
or by what a line may follow.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from loveletter_ref.spec.yamlsafe import TooLarge, read_bounded

from ..engines.base import Json
from ..paths import conformance_dir

FORMAT = "llcheck-log/1"
"""The `format` of a game header this llcheck reads."""


class LogError(ValueError):
    """A log file is unusable; the text is one located line."""


@dataclass
class Entry:
    """One deal or action of a log, with what the engine reported after it (None: not recorded)."""

    line: int
    action: Json | None = None
    """The action (None for a deal)."""
    deck: list[str] | None = None
    """A deal's deck, top first, when the log knows it."""
    first: int | None = None
    """A deal's starter, when recorded."""
    state: Json | None = None
    events: list[Json] | None = None
    legal_actions: list[Json] | None = None
    refused: str | None = None
    """The engine refused the action, for this reason (the game goes on as before it)."""


@dataclass
class Round:
    """A round of a log: its deal and the actions after it."""

    deal: Entry
    steps: list[Entry] = field(default_factory=list)


@dataclass
class GameLog:
    """One recorded game."""

    path: Path
    line: int
    number: int
    """The game's place in its file, from 1."""
    edition: str
    players: int
    first_player: int = 0
    tokens: list[int] | None = None
    engine: str | None = None
    keeps_tokens: bool = True
    """False: the engine that played keeps no favour tokens (they are not compared)."""
    rounds: list[Round] = field(default_factory=list)

    @property
    def where(self) -> str:
        """FILE:LINE of the game's header."""
        return f"{self.path}:{self.line}"


def schema_path() -> Path:
    """The published schema of one log line."""
    return conformance_dir() / "schema" / "log.schema.json"


@cache
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(schema_path().read_text(encoding="utf-8")))


def _problem(document: Any) -> str | None:
    errors = sorted(_validator().iter_errors(document), key=lambda e: list(map(str, e.absolute_path)))
    if not errors:
        return None
    error = errors[0]
    best = jsonschema.exceptions.best_match([error]) or error
    where = "/".join(map(str, best.absolute_path))
    return f"{where}: {best.message}" if where else best.message


MAX_BYTES = 100_000_000
"""The largest log file read (a thousand long games take a few MB)."""


def read_logs(path: Path) -> list[GameLog]:
    """Every game of a log file (LogError at the first unusable line)."""
    try:
        text = read_bounded(path, MAX_BYTES).decode("utf-8")
    except (OSError, UnicodeDecodeError, TooLarge) as exc:
        raise LogError(f"{path}: cannot read it ({getattr(exc, 'strerror', None) or exc})") from None
    games: list[GameLog] = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
        except (ValueError, RecursionError) as exc:
            raise LogError(f"{path}:{number}: not JSON ({exc})") from None
        problem = _problem(line)
        if problem is not None:
            raise LogError(f"{path}:{number}: {_shorter(problem)}")
        _take(games, line, path, number)
    if not games:
        raise LogError(f"{path}:1: no game in the log (a log starts with a game line)")
    return games


def _shorter(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _take(games: list[GameLog], line: Json, path: Path, number: int) -> None:
    """Add one schema-valid line to the games read so far."""
    reported = {"state": line.get("state"), "events": line.get("events"),
                "legal_actions": line.get("legal_actions")}
    if "game" in line:
        header = line["game"]
        games.append(GameLog(path, number, len(games) + 1, header["edition"], header["players"],
                             header.get("first_player", 0), header.get("tokens"), header.get("engine"),
                             header.get("keeps_tokens", True)))
        return
    if not games:
        raise LogError(f"{path}:{number}: a log starts with a game line")
    game = games[-1]
    if "deal" in line:
        deal = line["deal"]
        game.rounds.append(Round(Entry(number, deck=deal.get("deck"), first=deal.get("first"), **reported)))
        return
    if not game.rounds:
        raise LogError(f"{path}:{number}: an action before the game's first deal line")
    entry = Entry(number, action=line["action"], refused=line.get("refused"), **reported)
    game.rounds[-1].steps.append(entry)


def log_lines(game: GameLog) -> list[Json]:
    """The game as the lines of a log (what `read_logs` reads back)."""
    header: Json = {"format": FORMAT, "edition": game.edition, "players": game.players,
                    "first_player": game.first_player}
    if game.tokens is not None:
        header["tokens"] = game.tokens
    if game.engine is not None:
        header["engine"] = game.engine
    if not game.keeps_tokens:
        header["keeps_tokens"] = False
    lines: list[Json] = [{"game": header}]
    for round_ in game.rounds:
        deal: Json = {}
        if round_.deal.deck is not None:
            deal["deck"] = round_.deal.deck
        if round_.deal.first is not None:
            deal["first"] = round_.deal.first
        lines.append({"deal": deal, **_reported(round_.deal)})
        lines += [{"action": step.action, **({"refused": step.refused} if step.refused is not None else {}),
                   **_reported(step)} for step in round_.steps]
    return lines


def _reported(entry: Entry) -> Json:
    return {key: value for key, value in (("state", entry.state), ("events", entry.events),
                                          ("legal_actions", entry.legal_actions)) if value is not None}
