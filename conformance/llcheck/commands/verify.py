"""Check recorded games against an edition: the same per-clause verdicts, first divergences,
rulebook quotes and replays as `check`, with no engine to run. Each LOG is a JSON-lines game
log (docs/formats.md#game-logs; conformance/schema/log.schema.json) of one game or many; each
game is played by the reference engine from its deal, with its actions, and compared with what
the log recorded; a game that diverges is diagnosed as fuzzing's differences are (the clause
variant under which the reference plays it as logged, confirmed on the log's other games). A
log that lacks something (no deck, no states, no events) is verified as far as it goes, and the
report lists what could not be checked. Exit codes: 0 every game conforms, 1 a game diverges, 2
an unusable log or argument."""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from collections import Counter
from pathlib import Path

from loveletter_ref import DeckError, Game
from loveletter_ref.errors import SpecError
from loveletter_ref.spec import Edition, load_spec

from .. import exitcodes
from ..arguments import GAMES
from ..atomic import write_atomic
from ..engines.base import Hello
from ..errors import UsageError
from ..harness import reading as engine_reading
from ..harness.cases import Case
from ..harness.report import Report, RunInfo, json_text
from ..harness.results import FAILED, SKIPPED, Result, Tally
from ..harness.runner import run_case
from ..harness.text import text_report
from ..logs.diagnosis import blamed, diagnose_logged
from ..logs.expected import expected
from ..logs.reading import GameLog, LogError, read_logs
from ..logs.replayed import Replayed
from ..view.results import report_page

NOTES_SHOWN = 10
"""How many different things not checked the text report names."""

EXAMPLES = """examples:
  llcheck verify games.jsonl                                 # every game of a log
  llcheck verify games.jsonl --game 12                       # the 12th game, again
  llcheck verify logs/*.jsonl -q --json verify.json          # many logs, a JSON report too
  llcheck verify games.jsonl --json                          # the JSON report alone, on stdout
  llcheck verify games.jsonl --html games.html               # diverging games on a table, in the browser
"""
"""Shown at the end of --help."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("logs", nargs="+", metavar="LOG", help="game log files (JSON lines)")
    parser.add_argument("--game", type=GAMES, metavar="N", help="only the N-th game of each log (from 1)")
    parser.add_argument("--json", nargs="?", const=True, metavar="FILE",
                        help="the JSON report (conformance/schema/report.schema.json): alone, on stdout in "
                             "place of the text report; with FILE, written to FILE beside the text report")
    parser.add_argument("--html", metavar="FILE",
                        help="also write the report as a page for a browser, each diverging game shown on a "
                             "table where it parts from the rules (docs/viewer.md)")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="leave out the per-clause and per-tag tables")


def run(args: argparse.Namespace) -> int:
    began = time.perf_counter()
    try:
        games = [game for name in args.logs for game in read_logs(Path(name))
                 if args.game is None or game.number == args.game]
        specs = {game.edition: _edition(game) for game in games}
        for game in games:
            _playable(game, specs[game.edition])
    except (LogError, UsageError) as exc:
        print(f"llcheck verify: {exc}", file=sys.stderr)
        return exitcodes.BAD_INPUT
    results, notes, cases = verify_games(games, specs)
    code = exitcodes.OK if Tally.of(results).ok else exitcodes.FAILED
    hello = Hello("game logs", "", tuple(specs), frozenset())
    options = {"editions": list(specs), "groups": ["log"], "logs": args.logs, "game": args.game}
    info = RunInfo(", ".join(args.logs), hello, options, command="verify")
    report = Report(info, results, time.perf_counter() - began, exit_code=code)
    text = text_report(report, quiet=args.quiet).splitlines()
    text[0:2] = [f"llcheck verify: {len(games)} game{'' if len(games) == 1 else 's'} in {len(args.logs)} "
                 f"log{'' if len(args.logs) == 1 else 's'} ({info.impl}); editions: {', '.join(specs)}"]
    if notes:
        text[-1:-1] = ["not checked: " + "; ".join(f"{note} ({n} game{'' if n == 1 else 's'})"
                                                   for note, n in notes.most_common(NOTES_SHOWN)), ""]
    if args.json is True:
        print(json_text(report), end="")
        return code
    played = engine_reading.played(results)
    if played:
        text += ["", *engine_reading.text_lines(played)]
    print("\n".join(text))
    outputs = [(args.json, lambda: json_text(report))] if isinstance(args.json, str) else []
    if args.html:
        outputs.append((args.html, lambda: report_page(
            f"llcheck verify: {info.impl}", report.to_json(),
            lambda case_id: cases[case_id].to_json() if case_id in cases else None, lambda e: specs[e])))
    for path, written in outputs:
        try:
            write_atomic(path, written())
        except OSError as exc:
            print(f"llcheck verify: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
            return exitcodes.BAD_INPUT
    return code


def _edition(game: GameLog) -> Edition:
    try:
        return load_spec(game.edition)
    except (SpecError, OSError, ValueError, KeyError) as exc:
        raise LogError(f"{game.where}: edition {game.edition!r} cannot be loaded: "
                       f"{' '.join(str(exc).split())[:200]}") from None


def _playable(game: GameLog, spec: Edition) -> None:
    """LogError when a game's header names a game the edition cannot start (its player count,
    first player or tokens)."""
    try:
        Game(spec, game.players, first_player=game.first_player, tokens=game.tokens)
    except (DeckError, ValueError) as exc:
        raise LogError(f"{game.where}: {exc}") from None


def verify_games(games: list[GameLog], specs: dict[str, Edition]
                 ) -> tuple[list[Result], Counter[str], dict[str, Case]]:
    """Each game's result, how many games each thing not checked concerns, and each game's case
    by its result's id."""
    results: list[Result] = []
    notes: Counter[str] = Counter()
    cases: dict[str, Case] = {}
    for game in games:
        spec = specs[game.edition]
        result, unchecked, case = verify_game(game, spec)
        cases[result.id] = case
        if result.status == FAILED and result.divergence is not None:
            blamed(result, diagnose_logged(spec, game, result, games), spec)
        results.append(result)
        notes.update(set(unchecked))
    return results, notes, cases


def verify_game(game: GameLog, spec: Edition) -> tuple[Result, list[str], Case]:
    """One game's result (replayable with `llcheck verify LOG --game N`), what was not checked, and
    the game as the case it was verified as."""
    found = expected(spec, game)
    if not found.case.rounds:  # not a single deal could be read: nothing was checked
        case = found.case
        reason = "; ".join(found.notes) or "the log has no deal"
        skipped = Result(case.id, SKIPPED, kind="case", group=case.status, edition=case.edition,
                         players=case.players, description=case.description, file=case.where,
                         message=f"nothing could be checked: {reason}")
        return skipped, found.notes, case
    result = run_case(Replayed(found, tokens=game.keeps_tokens), found.case)
    result.replay = f"llcheck verify {shlex.quote(str(game.path))} --game {game.number}"
    if found.stopped is not None:
        result.file = f"{game.path}:{found.stopped}"
    return result, [_general(note) for note in found.notes], found.case


def _general(note: str) -> str:
    """A note without the line it names, so that notes of many games are counted together."""
    head, _, rest = note.partition(": ")
    return rest if head.startswith("line ") else note
