"""One fuzzed game, decoded from a byte tape chosen by hypothesis.

Every choice reads one byte of the tape (its value modulo the number of options); a tape that
runs out reads zeros, and a choice with one option reads nothing. So a shrunk tape of zeros
means "the first option everywhere": the first legal action, the edition's card order dealt as
Fisher-Yates leaves it, every player one token short of winning the game. The game's horizon
caps how many actions are sent: shrinking it is what makes a replay short.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from loveletter_ref import Action, Game, Phase
from loveletter_ref.engine.actions import KEEP, PLAY
from loveletter_ref.errors import RuleGapError
from loveletter_ref.spec import Edition

from .lockstep import Differential

PROBE_ODDS = 6
"""One decision in this many also sends an illegal action first (which must be refused)."""

MAX_ROUNDS = 3
"""Rounds played in one fuzzed game at most (for engines that play several)."""


class Tape:
    """Choices read from bytes."""

    def __init__(self, data: bytes):
        self.data = data
        self.pos = 0

    def byte(self) -> int:
        """The next byte (0 once the tape has run out)."""
        value = self.data[self.pos] if self.pos < len(self.data) else 0
        self.pos += 1
        return value

    def choose(self, options: int) -> int:
        """An index below `options` (0 without reading when there is one option)."""
        if options <= 1:
            return 0
        pos = self.pos  # `byte` written out: a few choices per action
        value = self.data[pos] if pos < len(self.data) else 0
        self.pos = pos + 1
        if options > 256:
            value = value * 256 + self.byte()
        return value % options

    def shuffle(self, items: Sequence[str]) -> list[str]:
        """A Fisher-Yates shuffle of a copy of `items`."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.choose(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


@dataclass
class Tally:
    """What a fuzzing run has played so far."""

    games: int = 0
    rounds: int = 0
    actions: int = 0
    probes: int = 0
    silenced: int = 0
    """Games stopped where the reference's rules are silent (a reading's silences)."""
    skipped: dict[str, int] = field(default_factory=dict)
    """Games stopped at a difference looked past, by the clause it is counted under."""

    def snapshot(self) -> Tally:
        """A copy that later games leave as it is (cheaper than `copy.deepcopy`: one per game)."""
        return replace(self, skipped=dict(self.skipped))


def play_game(step: Differential, horizon: int, tape: Tape, tally: Tally) -> None:
    """Play one game in lockstep, as the tape decides, sending at most `horizon` actions; a
    pipelined lockstep's answers are read and checked when it ends (`Pipelined.settle`), also
    when the reference stops where its rules are silent."""
    try:
        _play(step, horizon, tape, tally)
    except RuleGapError:
        step.settle()
        raise
    step.settle()


def _play(step: Differential, horizon: int, tape: Tape, tally: Tally) -> None:
    edition, players = step.edition, step.players
    deck = _deck(edition, players)
    first = tape.choose(players)
    tokens = None
    if step.engine.hello.can("games"):
        target = edition.player_table("tokens_to_win", players)
        tokens = [target - 1 - tape.choose(target) for _ in range(players)]
    if horizon > 0:  # a game that sends no action is only a deal
        tally.games += 1
    step.start(tape.shuffle(deck), first, tokens)
    for played in range(1, MAX_ROUNDS + 1):
        while step.live:
            if horizon <= 0:
                step.compare_view(tape.choose(players))
                return
            horizon -= 1
            _decide(step, tape, tally)
        tally.rounds += 1
        step.compare_view(tape.choose(players))
        if not (step.round_over and tokens is not None and played < MAX_ROUNDS):
            return
        step.next_round(tape.shuffle(deck))


@lru_cache(maxsize=64)
def _deck(edition: Edition, players: int) -> tuple[str, ...]:
    """The names of the cards dealt to `players`, in card order (worked out once, not per game)."""
    names = edition.names
    return tuple(names[c] for c in edition.deck(players))


def _decide(step: Differential, tape: Tape, tally: Tally) -> None:
    legal = step.legal()
    if tape.choose(PROBE_ODDS) == PROBE_ODDS - 1:
        probe = near_miss(step.reference, legal, tape)
        if probe is not None and step.probe(probe):
            tally.probes += 1
            return
    tally.actions += 1
    step.play(legal[tape.choose(len(legal))])


def near_miss(game: Game, legal: list[Action], tape: Tape) -> Action | None:
    """An action that is not legal now but looks like it could be (a held card with a wrong target
    or guess, a card not held, a keep that returns the wrong cards): the first candidate not in
    `legal` from a place the tape chooses, going round; None when every candidate is legal."""
    candidates = _candidates(game)
    count = len(candidates)
    start = tape.choose(count)
    for i in range(count):
        action = candidates[(start + i) % count]
        if action not in legal:
            return action
    return None


def _candidates(game: Game) -> tuple[Action, ...]:
    names = game.tables.names
    hand = tuple(sorted({names[c] for c in game.hands[game.current]}))
    return _candidates_for(game.edition, game.players, game.phase, hand)


@lru_cache(maxsize=4096)
def _candidates_for(edition: Edition, players: int, phase: Phase,
                    hand: tuple[str, ...]) -> tuple[Action, ...]:
    """The near misses for a player holding `hand` (card names, sorted) in `phase`."""
    names = edition.names
    if phase is Phase.KEEP:
        others = [n for n in names if n not in hand][:1]
        return (Action(KEEP, hand[0]), *(Action(KEEP, n, returned=hand[1:]) for n in others))
    if phase is not Phase.PLAY:
        return ()
    seats: list[int | None] = [None, *range(players)]
    guesses: list[str | int | None] = [None, *_guessable(edition)]
    out = [Action(PLAY, card, target, guess) for card in hand for target in seats for guess in guesses
           if target is not None or guess is None]
    out += [Action(PLAY, name) for name in names if name not in hand]
    return tuple(out)


def _guessable(edition: Edition) -> list[str | int]:
    """Everything a guess could name: every card, and every value when guesses are by value."""
    by_value = any(c.kind == "guess" and not c.silent and c.rule.get("by") == "value"
                   for c in edition.clauses.values())
    if by_value:
        return sorted({card.value for card in edition.cards})
    return list(edition.names)
