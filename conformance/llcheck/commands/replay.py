"""Tell a game step by step under one spec or two, and where the two part.

`llcheck replay FILE` (`-` for stdin) reads what the other commands print:

- a machine replay, `{"edition", "players", "first_player", "tokens"?, "versions"?, "swap"?,
  "rounds": [{"deck", "actions"}]}` (docs/formats.md): a game log of the reference engine, a
  witness of `llcheck probe`, one side of a witness of `llcheck disputes`;
- a witness of `llcheck disputes` (`{"replays": {label: replay, ...}}`), in its JSON output or
  in docs/disputes.json;
- a conformance case, a case file, or a `llcheck check --json` report (each failure's
  `replay_case`);
- the text `llcheck probe` and `llcheck disputes` print (their `replay:` and `replay under X:`
  lines), or JSON Lines.

A file holding several games lists them (`--list`); `--pick N` tells the N-th. The game is
told under its own spec (a witness: under both of its specs), or under the specs `--spec`
names instead (one or two).

Exit codes: 0 when the game was told under one spec or the two play it alike, 1 when the two
part, 2 for bad input (one located line).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from loveletter_ref import Action
from loveletter_ref.disputes.duel import neutral
from loveletter_ref.disputes.sides import Side, open_side, side_of, told_apart
from loveletter_ref.disputes.story import differs, steps_told
from loveletter_ref.disputes.witness import Witness, replay_looks
from loveletter_ref.errors import EngineError, SpecError
from loveletter_ref.lockstep import DEAL, MOVE, Step
from loveletter_ref.spec import Edition
from loveletter_ref.spec.yamlsafe import TooLarge, read_bounded

from .. import exitcodes
from ..arguments import GAMES
from ..errors import UsageError
from ..view.disputes import parting_film
from ..view.film import of_record
from ..view.page import write_page

REPLAY_LINE = re.compile(r"^\s*replay(?: under (?P<label>.+?))?: (?P<json>\{.*\})\s*$")
"""A replay as `llcheck probe` and `llcheck disputes` print it in their text output."""

MAX_BYTES = 100_000_000
"""The largest input read: a report, a case file, a log or a command's output."""

EXAMPLES = """examples:
  llcheck replay docs/disputes.json --list                   # the witness games it holds
  llcheck replay docs/disputes.json --pick 3                 # the third, under both its specs
  llcheck probe --edition classic --json > probe.json && llcheck replay probe.json --pick 1
  llcheck replay game.json --spec classic --spec tr-2019     # a game under two readings
  llcheck replay docs/disputes.json --pick 3 --html witness.html   # and as a page for the browser
"""
"""Shown at the end of --help."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE",
                        help="what to replay (JSON, JSON Lines or command output; - for stdin)")
    parser.add_argument("--spec", action="append", metavar="NAME|FILE",
                        help="tell the game under this spec instead of its own (repeat once for two)")
    parser.add_argument("--pick", type=GAMES, metavar="N", help="the N-th game of a file holding several")
    parser.add_argument("--list", action="store_true", help="list the games the file holds")
    parser.add_argument("--html", metavar="FILE",
                        help="also write the game as a page for the browser (docs/viewer.md): under each "
                             "spec, or under the first up to where the two part, both answers side by side")


@dataclass
class Game:
    """One game found in the input: where, its deal and actions, and the specs it names."""

    where: str
    players: int
    first_player: int
    tokens: tuple[int, ...] | None
    rounds: list[tuple[list[str], list[Any]]]
    """Each round's deck (top first) and actions (in the first spec's form)."""
    specs: list[tuple[str | None, dict[str, Any]]]
    """(label, replay header) of each spec the input names."""


def run(args: argparse.Namespace) -> int:
    if args.spec is not None and len(args.spec) > 2:
        raise UsageError("--spec names one spec or two")
    name = "stdin" if args.file == "-" else args.file
    games = list(found_games(_read(args.file), name))
    if not games:
        raise UsageError(f"{name}: no game to replay (expected a replay, a witness, a case or a report)")
    if args.list:
        for i, game in enumerate(games, 1):
            print(f"{i}. {game.where}: {game.players} players, "
                  f"under {' and '.join(label or header['edition'] for label, header in game.specs)}")
        return exitcodes.OK
    if args.pick is None and len(games) > 1:
        raise UsageError(f"{name} holds {len(games)} games: choose one with --pick N (--list lists them)")
    index = 1 if args.pick is None else args.pick
    if not 1 <= index <= len(games):
        raise UsageError(f"--pick {index}: {name} holds {len(games)} game{'s' if len(games) > 1 else ''}")
    game = games[index - 1]
    own, sides = _sides(game, args.spec)
    witness = _witness(game, own, sides)
    print(f"{game.where} under {' and '.join(s.label for s in sides)}:")
    told = steps_told(witness, [s.label for s in sides])
    print("\n".join(told))
    parting = next((i for i, (a, b) in enumerate(witness.looks) if differs(a, b)), None) \
        if len(sides) == 2 else None
    if args.html:
        films = _films(game, witness, sides, parting, told[-1])
        try:
            write_page(args.html, f"llcheck replay {name}", films)
        except OSError as exc:
            raise UsageError(f"--html {args.html}: {exc.strerror or exc}") from None
        print(f"llcheck replay: wrote {args.html}")
    return exitcodes.OK if parting is None else exitcodes.FAILED


def _films(game: Game, witness: Witness, sides: list[Side], parting: int | None,
           told: str) -> list[dict[str, Any]]:
    """The viewer's films of the game: one per side, or, when two sides part (at step `parting`),
    one under the first that ends there, with both answers."""
    try:
        if parting is None:
            return [of_record(witness.replay(side.edition), side.edition, f"{game.where} under {side.label}")
                    for side in sides]
        cut = Witness(witness.players, witness.first_player, witness.tokens, witness.steps[:parting + 1], 0)
        replays = {side.label: cut.replay(side.edition) for side in sides}
        labels = [side.label for side in sides]
        return [parting_film(f"{game.where}: where {labels[0]} and {labels[1]} part", replays,
                             [(side.label, side.edition) for side in sides], [],
                             f"{labels[0]} and {labels[1]} part here", told)]
    except (EngineError, KeyError) as exc:  # a game the reference engine cannot set up
        raise UsageError(f"--html: {game.where}: the reference engine cannot show this game ({exc})") \
            from None


def _read(file: str) -> str:
    try:
        text = sys.stdin.read(MAX_BYTES + 1) if file == "-" else read_bounded(file, MAX_BYTES).decode("utf-8")
        if len(text) > MAX_BYTES:
            raise TooLarge(f"more than the limit of {MAX_BYTES:,} characters")
        return text
    except (OSError, UnicodeDecodeError, TooLarge) as exc:
        raise UsageError(f"{file}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None


def found_games(text: str, name: str) -> Iterator[Game]:
    """Every game in the input: one JSON document, or lines of JSON or of command output."""
    try:
        yield from _walk(json.loads(text), name)
        return
    except json.JSONDecodeError:
        pass
    pending: dict[str, Any] = {}
    start = 0
    for number, line in enumerate(text.splitlines(), 1):
        printed = REPLAY_LINE.match(line)
        if printed is not None and printed["label"] is not None:
            start = start or number
            pending[printed["label"]] = _json(printed["json"], f"{name}:{number}")
            continue
        if pending:
            yield from _walk({"replays": pending}, f"{name}:{start}")
            pending, start = {}, 0
        if printed is not None:
            yield from _walk(_json(printed["json"], f"{name}:{number}"), f"{name}:{number}")
        elif line.lstrip().startswith(("{", "[")):
            yield from _walk(_json(line, f"{name}:{number}"), f"{name}:{number}")
    if pending:
        yield from _walk({"replays": pending}, f"{name}:{start}")


def _json(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{where}: not JSON: {exc.msg} (column {exc.colno})") from None


def _walk(value: Any, where: str) -> Iterator[Game]:
    """The games in a JSON value, depth first, in document order."""
    if isinstance(value, list):
        for i, item in enumerate(value):
            yield from _walk(item, f"{where}/{i}")
        return
    if not isinstance(value, dict):
        return
    replays = value.get("replays")
    if isinstance(replays, dict) and replays and all(_is_replay(r) for r in replays.values()):
        first = next(iter(replays.values()))
        yield _game(first, where, [(label, _header(r)) for label, r in replays.items()], "actions")
        return
    if _is_replay(value):
        yield _game(value, where, [(None, _header(value))], "actions")
        return
    if _is_case(value):
        yield _game(value, where, [(None, {"edition": value["edition"]})], "steps")
        return
    if _is_failed_case(value):
        yield _referenced_case(value, where)
        return
    for key, item in value.items():
        yield from _walk(item, f"{where}/{key}")


def _is_replay(value: Any) -> bool:
    return (isinstance(value, dict) and isinstance(value.get("edition"), str) and _rounds(value)
            and all(isinstance(r, dict) and "actions" in r for r in value["rounds"]))


def _is_case(value: Any) -> bool:
    return (isinstance(value, dict) and isinstance(value.get("edition"), str) and _rounds(value)
            and all(isinstance(r, dict) and "steps" in r for r in value["rounds"]))


def _is_failed_case(value: dict[str, Any]) -> bool:
    """A result of `llcheck check --json` for a case that did not pass: it names the case's file."""
    return (value.get("kind") == "case" and value.get("status") in ("failed", "errored")
            and isinstance(value.get("id"), str) and isinstance(value.get("file"), str))


def _referenced_case(result: dict[str, Any], where: str) -> Game:
    """The case a check result names (`file` is FILE:LINE, relative to where check ran)."""
    file = result["file"].rsplit(":", 1)[0]
    try:
        document = json.loads(read_bounded(file, MAX_BYTES).decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, TooLarge) as exc:
        raise UsageError(f"{where}: cannot read the case file {file} ({exc})") from None
    cases = document.get("cases") if isinstance(document, dict) else None
    case = next((c for c in cases or [] if isinstance(c, dict) and c.get("id") == result["id"]), None)
    if case is None or not _is_case(case):
        raise UsageError(f"{where}: {file} holds no case {result['id']!r}")
    return _game(case, f"{where} ({result['id']})", [(None, {"edition": case["edition"]})], "steps")


def _rounds(value: dict[str, Any]) -> bool:
    return isinstance(value.get("rounds"), list) and bool(value["rounds"])


def _header(replay: dict[str, Any]) -> dict[str, Any]:
    return {key: replay[key] for key in ("edition", "versions", "swap") if key in replay}


def _game(value: dict[str, Any], where: str, specs: list[tuple[str | None, dict[str, Any]]],
          form: str) -> Game:
    players, first, tokens = value.get("players"), value.get("first_player", 0), value.get("tokens")
    if not isinstance(players, int) or isinstance(players, bool) or not isinstance(first, int):
        raise UsageError(f"{where}: players and first_player must be whole numbers")
    if tokens is not None and not (isinstance(tokens, list) and all(isinstance(t, int) for t in tokens)):
        raise UsageError(f"{where}/tokens: expected a list of whole numbers")
    rounds = []
    for i, round_ in enumerate(value["rounds"]):
        deck, moves = round_.get("deck"), round_[form]
        cards = isinstance(deck, list) and all(isinstance(c, str) for c in deck)
        if not cards or not isinstance(moves, list):
            raise UsageError(f"{where}/rounds/{i}: expected a deck (card names) and a list of {form}")
        actions = [m.get("action") if form == "steps" and isinstance(m, dict) else m for m in moves]
        rounds.append((deck, actions))
    return Game(where, players, first, None if tokens is None else tuple(tokens), rounds, specs)


def _sides(game: Game, names: list[str] | None) -> tuple[Edition, list[Side]]:
    """The spec the game's actions are written for (its first own spec), and the sides to tell
    it under: the specs named, or the game's own."""
    try:
        own = []
        for _, header in game.specs:
            side = side_of(header)
            if side is None:
                raise UsageError(f"{game.where}: the spec {json.dumps(header)} cannot be built")
            own.append(side)
        told = told_apart([open_side(name) for name in names], names) if names else own
    except SpecError as exc:
        raise UsageError(f"{exc.problems[0]} (named by {game.where})") from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise UsageError(f"{game.where}: the replay names its spec badly ({exc})") from None
    return own[0].edition, told


def _witness(game: Game, edition: Edition, sides: list[Side]) -> Witness:
    """The game as a witness (actions in `edition`'s form), with what each step showed under
    each side."""
    steps: list[Step] = []
    for r, (deck, actions) in enumerate(game.rounds):
        steps.append((DEAL, list(deck)))
        for a, action in enumerate(actions):
            try:
                steps.append((MOVE, neutral(edition, game.players, Action.from_json(action))))
            except (KeyError, TypeError, ValueError) as exc:
                raise UsageError(f"{game.where}/rounds/{r}/actions/{a}: not an action ({exc})") from None
    witness = Witness(game.players, game.first_player, game.tokens, steps, 0)
    looks = [replay_looks(s.edition, game.players, game.first_player, game.tokens, steps) for s in sides]
    witness.looks = list(zip(looks[0], looks[-1], strict=False))
    return witness
