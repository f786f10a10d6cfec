"""Logged games, for engines the fuzzer cannot drive. Engine-dealt rounds: an engine that cannot
be dealt a given deck (no capability `deck`) deals from its own shuffle of a seed; the harness
reads the deal from the state it reports, plays the reference from that same deal with seeded
random legal actions, records the engine's answers as a game log, and verifies the log
(`llcheck verify`'s own way). Setup rules (the deck's composition, the set-aside and face-up
cards, who starts) are so checked on the engine's own deals, one per game, over many seeds. An
engine that takes a one-step Chancellor is played the same way, from decks the harness deals when
it can be dealt them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from loveletter_ref import Action, DeckError, Game
from loveletter_ref.engine import DECIDING, KEEP
from loveletter_ref.spec import Edition

from ..baseline.observe import sorted_actions
from ..baseline.units import choose
from ..engines.base import Engine, EngineFailure, Json, Reply
from ..engines.onestep import combined
from ..fuzz.counterfactual import Diagnosis, Engines
from ..harness.results import ERRORED, PASSED, Result
from ..harness.runner import run_case
from .diagnosis import CONFIRM_GAMES, agreeing, blamed, diagnose
from .expected import deck_from_state, expected
from .reading import Entry, GameLog, Round, log_lines
from .replayed import Replayed

KIND = "dealt"
"""The kind and group of an engine-dealt campaign's result."""


def dealt_id(edition: str, players: int) -> str:
    """`dealt/<edition>/<n>p`, as reports name an engine-dealt campaign."""
    return f"{KIND}/{edition}/{players}p"


def game_seed(seed: int, index: int) -> int:
    """The seed of the `index`-th game of a campaign: its deal and its actions."""
    return random.Random(f"dealt:{seed}:{index}").getrandbits(32)


def run_dealt(make_engine: Callable[[], Engine], spec: Edition, players: int, games: int,
              seed: int) -> Result:
    """`games` engine-dealt games of one edition and player count, until the first that diverges."""
    began = time.perf_counter()
    result_id = dealt_id(spec.id, players)
    description = f"logged games, {games} games, seed {seed}"
    engines = Engines(make_engine)
    engine = engines.get()
    try:
        for index in range(games):
            number = game_seed(seed, index)
            log = play_dealt(engine, spec, players, number)
            found = expected(spec, log)
            if not found.case.rounds:
                raise EngineFailure(f"its seed {number}: {'; '.join(found.notes)}")
            result = run_case(Replayed(found, tokens=engine.hello.can("tokens")), found.case)
            if result.status != PASSED:
                if result.divergence is not None:
                    more = [game_seed(seed, games + k) for k in range(CONFIRM_GAMES)]
                    blamed(result, _diagnosis(engines, spec, log, result, more), spec)
                result.id, result.kind, result.group = result_id, KIND, KIND
                result.description = f"{description}: game {index + 1}, its seed {number}"
                result.replay_case = {"log": log_lines(log)}
                result.file = None
                result.seconds = time.perf_counter() - began
                return result
    except EngineFailure as exc:
        return Result(result_id, ERRORED, kind=KIND, group=KIND, edition=spec.id, players=players,
                      description=description, message=f"game {index + 1}: {exc}",
                      seconds=time.perf_counter() - began)
    finally:
        engines.lost()
    return Result(result_id, PASSED, kind=KIND, group=KIND, edition=spec.id, players=players,
                  description=description, seconds=time.perf_counter() - began,
                  message=f"{games} games{'' if engine.hello.can('deck') else ' dealt by the engine'}, "
                          "each set up and played as the rules say")


def _diagnosis(engines: Engines, spec: Edition, log: GameLog, result: Result, seeds: list[int]) -> Diagnosis:
    """What explains a diverged game: each variant that does confirmed on the engine's games from
    `seeds`, the variant dealing (when the engine is dealt) and choosing the actions."""

    def logs(variant: Edition) -> Iterator[GameLog]:
        for number in seeds:
            try:
                yield play_dealt(engines.get(), variant, log.players, number)
            except EngineFailure:
                engines.lost()  # this variant's games end here; the next one's start afresh
                return

    return diagnose(spec, log, result, lambda variant: agreeing(variant, logs(variant)), len(seeds))


def play_dealt(engine: Engine, spec: Edition, players: int, seed: int) -> GameLog:
    """One game dealt by the engine from `seed`, played with the reference's legal actions chosen
    from `seed`, as the log of what the engine answered."""
    rng = random.Random(seed)
    first = rng.randrange(players)
    hello = engine.hello
    log = GameLog(Path(f"{dealt_id(spec.id, players).replace('/', '-')}-seed-{seed}.jsonl"), 1, 1, spec.id,
                  players, first, engine=f"{hello.name} {hello.version}", keeps_tokens=hello.can("tokens"))
    given = None
    if hello.can("deck"):  # dealt by the harness, from the same seed
        given = [spec.names[c] for c in spec.deck(players)]
        rng.shuffle(given)
        reply = engine.start(spec.id, players, given, first, [0] * players)
    else:
        reply = engine.deal(spec.id, players, seed, first, [0] * players)
    if not reply.accepted:
        raise EngineFailure(f"it refused to deal {spec.id} with {players} players: {reply.reason}")
    deal = _entry(engine, reply, None)
    deal.deck = given
    log.rounds.append(Round(deal))
    game = Game(spec, players, first_player=first)
    deck = given or deck_from_state(game, deal.state or {}, deal.events)
    if deck is None:
        return log  # no deal to play from: the log's verification says so
    try:
        game.start_round(deck)
    except (DeckError, TypeError):
        return log  # a deal the rules do not allow: the log's verification says so
    while game.phase in DECIDING:
        action = choose(rng, sorted_actions([a.to_json() for a in game.legal_actions()]))
        sent = _decide(game, rng, action, hello.can("one_step_chancellor"))
        reply = engine.apply(sent)
        log.rounds[-1].steps.append(_entry(engine, reply, sent))
        if not reply.accepted:
            break
    return log


def _decide(game: Game, rng: random.Random, action: Json, one_step: bool) -> Json:
    """Play `action` on the reference; what the engine is sent for it (a play and the keep it
    leads to as one action, to a one-step engine)."""
    game.apply(Action.from_json(action))
    if not (one_step and game.phase.value == KEEP):
        return action
    keep = choose(rng, sorted_actions([a.to_json() for a in game.legal_actions()]))
    game.apply(Action.from_json(keep))
    return combined(action, keep)


def _entry(engine: Engine, reply: Reply, action: Json | None) -> Entry:
    """A log entry of the engine's answer to a deal (`action` None) or an action."""
    if not reply.accepted:
        return Entry(0, action=action, refused=reply.reason or "(no reason given)")
    hello = engine.hello
    state = reply.state if reply.state is not None else engine.state()
    return Entry(0, action=action, state=state, events=reply.events if hello.can("events") else None,
                 legal_actions=engine.legal_actions() if hello.can("legal_actions") else None)
