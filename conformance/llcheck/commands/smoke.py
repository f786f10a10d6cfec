"""Try an engine in a few seconds before a whole check: the handshake, one deal and one action,
each compared with the reference engine, with a plain diagnosis of the first thing wrong. Exit
codes: 0 the engine answered all of it as the rules do, 1 it answered something wrongly, 2 bad
usage, 3 it could not be started or talked to (crashed, hung, broke the protocol)."""

from __future__ import annotations

import argparse
import shlex
from typing import Any

from loveletter_ref.engine.game import Game
from loveletter_ref.lockstep.divergence import describe_action
from loveletter_ref.plural import counted
from loveletter_ref.spec import Edition, known_specs, load_spec

from .. import exitcodes
from ..arguments import SEED, seconds
from ..engines import Engine, EngineFailure, Reply
from ..engines.loader import engine_factory, start_failure
from ..engines.pipes import printable
from ..errors import UsageError
from ..harness.compare import actions_detail, comparable, events_detail, value_detail

EXAMPLES = """examples:
  llcheck smoke --impl 'node my-engine.js'
  llcheck smoke --impl python:my_engine:Engine --edition z-man-2019 --seed 3
"""
"""Shown at the end of --help."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--impl", required=True, metavar="reference|COMMAND|python:MODULE:CLASS",
                        help="the engine to try, as check takes it")
    parser.add_argument("--edition", metavar="E",
                        help="the edition to deal (default: the first bundled edition the engine plays)")
    parser.add_argument("--seed", type=SEED, default=0, metavar="S", help="seed of the deal (default 0)")
    parser.add_argument("--timeout", type=seconds, default=10.0, metavar="S",
                        help="seconds the engine may take to answer one request (default 10)")


class _Wrong(Exception):
    """The engine answered, but not as the rules do (exit code 1)."""


def _say(step: str, text: str) -> None:
    print(f"ok      {step}: {text}")


def _edition(args: argparse.Namespace, plays: tuple[str, ...]) -> Edition:
    """The edition dealt: --edition, else the first bundled one the engine plays."""
    if args.edition is not None:
        if args.edition not in plays:
            raise _Wrong(f"the engine does not play {printable(args.edition, 100)} (its hello lists: "
                         f"{', '.join(plays) or 'nothing'})")
        return load_spec(args.edition)
    bundled = set(known_specs())
    for edition in plays:
        if edition in bundled:
            return load_spec(edition)
    raise _Wrong(f"its hello lists no bundled edition (it lists: {', '.join(plays) or 'nothing'}; "
                 f"llcheck knows: {', '.join(sorted(bundled))}): name editions by their bundled ids")


def _same_answer(step: str, want_events: list[Any], want_state: Any, reply: Reply, engine: Engine) -> str:
    """Compare an accepted answer with the reference's; what matched, in words."""
    detail = events_detail(want_events, reply.events)
    if detail is not None:
        raise _Wrong(f"{step}: its events differ from the rules': {detail}")
    state = reply.state if reply.state is not None else engine.state()
    detail = value_detail(comparable("state", want_state), comparable("state", state))
    if detail is not None:
        raise _Wrong(f"{step}: its state differs from the rules': {detail}")
    return f"{counted(len(want_events), 'event')} and the state, as the rules have them"


def _try(engine: Engine, args: argparse.Namespace) -> None:
    """The deal and the action, each reported as it passes; _Wrong at the first wrong answer."""
    hello = engine.hello
    spec = _edition(args, hello.editions)
    players = spec.min_players
    game = Game(spec, players, seed=args.seed)
    events = game.start_round()
    deck = list(game.record[0]["deck"])
    step = f"deal ({spec.id}, {players} players, seed {args.seed})"
    reply = engine.start(spec.id, players, deck, 0, [0] * players)
    if not reply.accepted:
        raise _Wrong(f"{step}: the engine refused the deal: {printable(reply.reason, 300)}")
    _say(step, _same_answer(step, events, game.state(), reply, engine))
    legal = [action.to_json() for action in game.legal_actions()]
    if hello.can("legal_actions"):
        detail = actions_detail(legal, engine.legal_actions())
        if detail is not None:
            raise _Wrong(f"legal actions after the deal: {detail}")
        _say("legal actions", f"{counted(len(legal), 'action')}, as the rules have them")
    action = legal[0]
    step = f"action ({describe_action(action)})"
    events = game.apply(game.legal_actions()[0])
    reply = engine.apply(action)
    if not reply.accepted:
        raise _Wrong(f"{step}: the engine refused a legal action: {printable(reply.reason, 300)}")
    _say(step, _same_answer(step, events, game.state(), reply, engine))


def run(args: argparse.Namespace) -> int:
    if args.edition is not None and args.edition not in known_specs():
        raise UsageError(f"--edition {printable(args.edition, 100)}: not a bundled edition (editions: "
                         f"{', '.join(sorted(known_specs()))})")
    try:
        engine = engine_factory(args.impl, timeout=args.timeout)()
    except EngineFailure as exc:
        print(f"FAILED  handshake: {start_failure(args.impl, exc)}")
        return exitcodes.ENGINE
    try:
        hello = engine.hello
        _say("handshake", f"{hello.name} {hello.version} (protocol {hello.protocol}); editions: "
                          f"{', '.join(hello.editions) or 'none'}; capabilities: "
                          f"{', '.join(sorted(hello.capabilities)) or 'none'}")
        _try(engine, args)
    except _Wrong as exc:
        print(f"FAILED  {exc}")
        return exitcodes.FAILED
    except EngineFailure as exc:
        print(f"FAILED  the engine stopped answering: {exc}")
        return exitcodes.ENGINE
    finally:
        engine.close()
    print(f"smoke test passed: now run llcheck check --impl {shlex.quote(args.impl)}")
    return exitcodes.OK
