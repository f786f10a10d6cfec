"""A whole game under one spec: the round flow (deals, turns, the next round) and applying actions.

Cards are integers indexing the spec's card table; the deck is a list whose *last* element is
the top card. Everything a rule decides is read from the compiled spec (`Tables`). The rest of
the engine: the state (`state`), legality (`legality`), card steps (`effects`), the end of a
round (`showdown`), the engine's memo tables (`tables`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import DeckError, IllegalActionError, RuleGapError
from ..spec import Clause, Edition, Step
from ..spec.model import OPTIONAL_GENERAL_IDS
from .actions import KEEP, PLAY, Action, Event, Phase
from .effects import Play
from .legality import Legality
from .showdown import Showdown
from .tables import Tables, tables_for


class Game(Legality, Showdown):
    """The reference engine: set up rounds, run turns, apply actions (legality, effects, the
    showdown and the state each live in a module of their own)."""

    __slots__ = ()

    def __init__(self, edition: Edition, players: int, *, first_player: int = 0,
                 tokens: Sequence[int] | None = None, seed: int = 0):
        if not edition.supports(players):
            raise DeckError(f"{edition.id} is for {edition.min_players}-{edition.max_players} "
                            f"players, not {players}")
        if not 0 <= first_player < players:
            raise DeckError(f"first player {first_player} is not a seat (0-{players - 1})")
        if tokens is not None and (len(tokens) != players or min(tokens) < 0):
            raise DeckError(f"tokens must list {players} non-negative counts")
        self.edition = edition
        self.tables: Tables = tables_for(edition, players)
        target = self.tables.numbers["tokens_to_win"]
        if tokens is not None and target is not None and max(tokens) >= target:
            seat = tokens.index(max(tokens))
            raise DeckError(f"player {seat} starts with {tokens[seat]} tokens and the target is {target}: "
                            "a game cannot start won", edition.general["tokens_to_win"].id)
        self.players = players
        self.seed = seed
        self._rng: random.Random | None = None
        """The generator of the seeded deals, made when the first one is shuffled."""
        self._shuffles = 0
        self.tokens = list(tokens) if tokens is not None else [0] * players
        self.initial_tokens = tuple(self.tokens)
        self.first_player = first_player
        self.round = 0
        self.phase = Phase.SETUP
        self.round_winners: list[int] | None = None
        self.game_winners: list[int] | None = None
        self.starter = first_player
        self.current = first_player
        self.deck: list[int] = []
        self.set_aside: list[int] = []
        self.face_up: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.discards: list[list[int]] = [[] for _ in range(players)]
        self.alive = [True] * players
        self.protected: list[Clause | None] = [None] * players
        self.pending: Step | None = None
        self.responder: int | None = None
        self.forced: tuple[int, Clause] | None = None
        self.predictions: list[tuple[int, int, Clause]] = []
        self.turns = 0
        self.log: list[Event] = []
        self.record: list[dict[str, Any]] = []
        self._actions: list[Action] = []
        self._legal: tuple[Action, ...] | None = None
        """The legal actions of the current decision, once listed (cleared by every change)."""
        self._mark = 0

    # -- events ------------------------------------------------------------------------------

    def _flush(self) -> list[Event]:
        """The events recorded since the last call."""
        events = self.log[self._mark:]
        self._mark = len(self.log)
        return events

    # -- rounds ------------------------------------------------------------------------------

    def start_round(self, deck: Sequence[str] | None = None, *,
                    first_player: int | None = None) -> list[Event]:
        """Deal a round from `deck` (card names, top first), or shuffle one from (seed, round).

        The round's starter is `first_player` when given, else the game's first player for the
        first round and the next-round rule afterwards. Returns the events up to the first decision.
        """
        if self.phase is not Phase.SETUP and self.phase is not Phase.ROUND_OVER:
            raise IllegalActionError(self.tables.general["game_end"].id if self.phase is Phase.GAME_OVER
                                     else self.tables.general["turn_play"].id,
                                     f"cannot start a round while the game is in phase {self.phase.value}")
        order = self._deal_order(deck)
        starter = first_player if first_player is not None else self._next_starter()
        if not 0 <= starter < self.players:
            raise DeckError(f"first player {starter} is not a seat (0-{self.players - 1})")
        self._actions = []
        names = self.tables.names
        self.record.append({"deck": [names[c] for c in order], "first": starter, "actions": self._actions})
        self.round += 1
        self._legal = None
        self._setup(order, starter)
        return self._flush()

    def _deal_order(self, deck: Sequence[str] | None) -> list[int]:
        names = self.tables.names
        size = self.tables.number("deck_size")
        if size != len(self.tables.deck):
            raise RuleGapError(self.tables.general["deck_size"].id,
                               f"the rules use {size} cards for {self.players} players but name "
                               f"only {len(self.tables.deck)} of them")
        if deck is None:
            return self._shuffle()
        index = self.tables.index
        unknown = next((name for name in deck if name not in index), None)
        if unknown is not None:
            raise DeckError(f"unknown card {unknown!r} in deck (cards: {', '.join(names)})")
        order = [index[name] for name in deck]
        if tuple(sorted(deck)) != self.tables.sorted_deck:
            want, have = Counter(names[c] for c in self.tables.deck), Counter(deck)
            diffs = [f"{have[n] - want[n]:+d} {n}" for n in names if have[n] != want[n]]
            raise DeckError(f"deck is not a {self.edition.id} deck for {self.players} players: "
                            f"{', '.join(diffs)}", self.tables.general["deck_size"].id)
        return order

    def _shuffle(self) -> list[int]:
        """The next deck order drawn from the game's seed."""
        if self._rng is None:
            self._rng = random.Random(self.seed)
            for _ in range(self._shuffles):
                shuffle(list(self.tables.deck), self._rng.getrandbits)
        order = list(self.tables.deck)
        shuffle(order, self._rng.getrandbits)
        self._shuffles += 1
        return order

    def _setup(self, order: list[int], starter: int) -> None:
        tables, n = self.tables, self.players
        k = tables.number("set_aside")
        m = tables.number("face_up")
        deal = tables.general["deal"].need()
        names = tables.names
        self.set_aside = order[:k]
        self.face_up = order[k:k + m]
        log = self.log = [{"type": "round_start", "round": self.round, "first": starter,
                           "face_up": [names[c] for c in self.face_up], "set_aside": len(self.set_aside)}]
        self.hands, self.discards = [], []
        for seat in tables.seats:
            hand = order[k + m + seat * deal:k + m + (seat + 1) * deal]
            self.hands.append(hand)
            self.discards.append([])
            for card in hand:
                log.append({"type": "deal", "player": seat, "card": names[card]})
        self.deck = order[k + m + deal * n:][::-1]
        self.alive = [True] * n
        self.protected = [None] * n
        self.pending = None
        self.responder = None
        self.forced = None
        self.predictions = []
        self.turns = 0
        self.round_winners = None
        self.starter = starter
        self._mark = 0
        self._begin_turn(starter)

    def _next_starter(self) -> int:
        if self.round == 0 or self.round_winners is None:
            return self.first_player
        clause = self.tables.general["next_first"]
        rule = clause.need()
        winners = self.round_winners
        if len(winners) == 1:
            return winners[0]
        case = "several" if winners else "none"
        if case not in rule:
            raise RuleGapError(clause.id, f"the round was won by {len(winners) or 'nobody'}; the rules "
                                          "do not say who starts the next one")
        if not winners:
            assert rule["none"] == "previous_starter"
            return self.starter
        assert rule["several"] == "first_from_previous_starter"
        return min(winners, key=lambda seat: self._distance(self.starter, seat))

    def _distance(self, start: int, seat: int) -> int:
        """How many seats after `start`, in turn order, `seat` comes."""
        step = self.tables.order_step or self.tables.general["turn_order"].need()
        return ((seat - start) * step) % self.players

    # -- turns -------------------------------------------------------------------------------

    def _begin_turn(self, player: int) -> None:
        self.current = player
        self.phase = Phase.PLAY
        log = self.log
        log.append({"type": "turn", "player": player})
        shield = self.protected[player]
        if shield is not None and shield.rule["until"] == "own_next_turn":  # else: until the round ends
            self.protected[player] = None
            log.append({"type": "unprotect", "player": player})
        first = self.tables.first_turn if self.turns == 0 else None
        rule, draws = first if first is not None else (self.tables.general["turn_draw"], 1)
        rule.need()
        if not self.deck:
            raise RuleGapError(rule.id, f"player {player} starts a turn with an empty deck")
        for _ in range(draws or 0):
            self.draw(player, None, rule.id)
        if not self.alive[player] and self.phase is Phase.PLAY:  # out by their draw: the turn is over
            self._end_turn()

    def _end_turn(self) -> None:
        self.turns += 1
        if self.deck and self.alive.count(True) > 1:
            self._begin_turn(self._next_player(self.current))
            return
        alive = [seat for seat in self.tables.seats if self.alive[seat]]
        if len(alive) == 1:
            self.tables.general["last_standing"].need()
            self._finish_round(alive, "last_standing")
        elif not alive:
            rule = self.edition.general.get("all_eliminated")
            if rule is None:
                raise RuleGapError(f"{self.edition.prefix}.{OPTIONAL_GENERAL_IDS['all_eliminated']}",
                                   "every player is out of the round; no rule says who wins")
            rule.need()
            self._finish_round([], "all_eliminated")
        else:
            self.tables.general["deck_empty"].need()
            self._finish_round(self._showdown(alive), "showdown")

    def _next_player(self, seat: int) -> int:
        step = self.tables.order_step or self.tables.general["turn_order"].need()
        alive, players = self.alive, self.players
        for _ in alive:
            seat = (seat + step) % players
            if alive[seat]:
                return seat
        raise AssertionError("no player left to take a turn")

    # -- applying ----------------------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action and return the events up to the next decision.

        IllegalActionError (state unchanged) names the clause the action breaks.
        """
        self.check(action)
        return self.apply_unchecked(action)

    def apply_unchecked(self, action: Action) -> list[Event]:
        """Apply an action known to be legal (from `legal_actions`)."""
        self._legal = None
        self._actions.append(action)
        kind = action.kind
        if kind == PLAY:
            self._play(action)
        elif kind == KEEP:
            self._keep(action)
        else:
            self._respond(action)
        if self.pending is None and self.phase is not Phase.GAME_OVER:
            self._end_turn()
        return self._flush()

    def _play(self, action: Action) -> None:
        tables, player = self.tables, self.current
        _, name, target, guess, _, targets, look, _ = action
        tables.general["turn_play"].need()
        card = tables.index[name]
        self.hands[player].remove(card)
        self.discards[player].append(card)
        event: Event = {"type": "play", "player": player, "card": name}
        if target is not None:
            event["target"] = target
        if targets:
            event["targets"] = list(targets)
            if look is not None:
                event["look"] = look
        if guess is not None:
            event["guess"] = guess
        self.log.append(event)
        self.forced = None
        out = tables.discard_out[card]
        if out is not None and out.need() in ("any_reason", "when_played"):
            self.eliminate(player, card, out)
            return
        play = Play(player, card, target, guess, targets, look)
        interpreters = self.interpreters
        for step in tables.programs[card]:
            interpreters[step.kind](self, step, play)
            if play.stopped or not self.alive[player] or self.phase is Phase.GAME_OVER:
                break

    def _keep(self, action: Action) -> None:
        assert self.pending is not None
        index, hand = self.tables.index, self.hands[self.current]
        for name in action.returned:
            hand.remove(index[name])
        returned = [index[name] for name in action.returned]
        if self.pending.clause.rule["to"] == "bottom":
            for card in returned:
                self.deck.insert(0, card)
        else:
            for card in returned:
                self.deck.append(card)
        self.log.append({"type": "return", "player": self.current, "cards": list(action.returned),
                         "to": self.pending.clause.rule["to"]})
        self.pending = None

    def _respond(self, action: Action) -> None:
        assert self.pending is not None and self.responder is not None
        seat, step = self.responder, self.pending
        self.log.append({"type": "respond", "player": seat, "card": action.card,
                         "redraw": bool(action.redraw)})
        self.pending = self.responder = None
        self.phase = Phase.PLAY
        if action.redraw:
            self.discard_and_draw(seat, step.modifiers.get("empty_deck"))


def shuffle(cards: list[int], getrandbits: Callable[[int], int]) -> None:
    """Shuffle `cards` in place exactly as `random.Random.shuffle` does, drawing the same bits.

    Fisher-Yates from the last place down: the place `j` to swap with place `i` is drawn by
    taking `bit_length(i + 1)` random bits until they are at most `i`. Spelled out here so that a
    seeded deal is defined by the generator's bits alone (any language with a Mersenne Twister
    can deal it) and costs no Python call per card.
    """
    swaps = _SWAPS.get(len(cards))
    if swaps is None:
        swaps = _SWAPS[len(cards)] = tuple((i, (i + 1).bit_length()) for i in range(len(cards) - 1, 0, -1))
    for i, bits in swaps:
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


_SWAPS: dict[int, tuple[tuple[int, int], ...]] = {}
"""For each deck size, the places `shuffle` fills in turn, with the random bits each draws."""
