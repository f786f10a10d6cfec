"""A whole game under one spec: rounds, turns, legality, favour tokens.

Cards are integers indexing the spec's card table; the deck is a list whose *last* element is
the top card. Everything a rule decides is read from the compiled spec (`Tables`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from ..errors import DeckError, IllegalActionError, RuleGapError
from ..spec import Clause, Edition, Step
from ..spec.facts import Decision
from ..spec.model import OPTIONAL_GENERAL_IDS
from .actions import DECIDING, KEEP, PLAY, RESPOND, Action, Event, Phase
from .effects import Effects, Play
from .tables import Choice, Tables, tables_for

SETUP, PLAYING, KEEPING, RESPONDING, ROUND_OVER, GAME_OVER = (
    Phase.SETUP, Phase.PLAY, Phase.KEEP, Phase.RESPOND, Phase.ROUND_OVER, Phase.GAME_OVER)
"""The phases as plain names, for the turn loop that asks after them at every step (looking a
member up on an enum class is slow in Python 3.11)."""


class Game(Effects):
    """The reference engine: set up rounds, list legal actions, apply them, report state."""

    __slots__ = ("seed", "_rng", "_shuffles", "initial_tokens", "first_player", "round", "round_winners",
                 "starter", "face_up", "turns", "record", "_actions", "_legal", "_mark", "_programs")
    """The rest of the game's state. Slots, not an instance dictionary: reading the state is what
    the engine does most, and CPython specializes slot reads and method lookups on such objects
    (an instance dictionary of over 30 keys loses that). A subclass may add attributes of its own."""

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
        self.phase = SETUP
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
        self._programs = _programs(type(self), self.tables)

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
        if self.phase is not SETUP and self.phase is not ROUND_OVER:
            raise IllegalActionError(self.tables.general["game_end"].id if self.phase is GAME_OVER
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
        order: list[int] = []
        unknown: list[Any] = []
        for name in deck:  # one loop, not two comprehensions: a deal per fuzzed round, on both sides
            card = index.get(name)
            if card is None:
                unknown.append(name)
            else:
                order.append(card)
        if unknown:
            raise DeckError(f"unknown card {unknown[0]!r} in deck (cards: {', '.join(names)})")
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
        self.phase = PLAYING
        log = self.log
        log.append({"type": "turn", "player": player})
        shield = self.protected[player]
        if shield is not None and shield.rule["until"] == "own_next_turn":  # else: until the round ends
            self.protected[player] = None
            log.append({"type": "unprotect", "player": player})
        rule = self.tables.general["turn_draw"]
        rule.need()
        if not self.deck:
            raise RuleGapError(rule.id, f"player {player} starts a turn with an empty deck")
        self.draw(player, None, rule.id)
        if not self.alive[player] and self.phase is PLAYING:  # out by their draw: the turn is over
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

    def showdown_value(self, seat: int) -> int:
        """The value a seat's hand counts for at the showdown (card value plus discard bonuses)."""
        bonus = sum(self.tables.showdown_bonus[c] for c in self.discards[seat])
        return self.tables.values[self.hands[seat][0]] + bonus

    def _beats(self, a: int, b: int, scores: dict[int, int]) -> bool:
        """At the showdown, does seat `a`'s hand beat seat `b`'s (given each seat's score)?"""
        card_a, card_b = self.hands[a][0], self.hands[b][0]
        if card_b in self.tables.loses_to[card_a]:
            return False
        if card_a in self.tables.loses_to[card_b]:
            return True
        return scores[a] > scores[b]

    def _showdown(self, alive: list[int]) -> list[int]:
        showdown = self.tables.general["showdown"]
        showdown.need()
        scores = {seat: self.showdown_value(seat) for seat in alive}
        tied = [a for a in alive if not any(self._beats(b, a, scores) for b in alive if b != a)]
        if not tied:
            raise RuleGapError(showdown.id, "every hand is beaten by another: nobody is highest")
        if len(tied) == 1:
            return tied
        values = self.tables.values
        tie = self.tables.general["tie"]
        for rule in tie.need():
            if rule == "discard_total":
                totals = {seat: sum(values[c] for c in self.discards[seat]) for seat in tied}
                top = max(totals.values())
                tied = [seat for seat in tied if totals[seat] == top]
                if len(tied) == 1:
                    return tied
            elif rule == "highest_discard":
                tops = {seat: max((values[c] for c in self.discards[seat]), default=-1) for seat in tied}
                top = max(tops.values())
                tied = [seat for seat in tied if tops[seat] == top]
                if len(tied) == 1:
                    return tied
            elif rule == "all_win":
                return tied
            else:
                return []
        hands = "; ".join(f"player {seat}: {self.tables.names[self.hands[seat][0]]}, discards worth "
                          f"{sum(values[c] for c in self.discards[seat])}" for seat in tied)
        raise RuleGapError(tie.id, f"still tied after the tie rule ({hands}); the rules say no more")

    def _finish_round(self, winners: list[int], reason: str) -> None:
        names = self.tables.names
        event: Event = {"type": "round_end", "reason": reason, "winners": winners}
        if reason == "showdown":
            event["hands"] = [names[self.hands[s][0]] if self.alive[s] else None
                              for s in range(self.players)]
        self.log.append(event)
        self.round_winners = winners
        self.phase = ROUND_OVER
        tokens = self.tables.general["round_tokens"]
        amount = tokens.need()
        for seat in winners:
            self.gain(seat, amount, "round", tokens)
        for seat, predicted, clause in self.predictions:
            if predicted in winners:
                self.gain(seat, clause.need()["amount"], "bonus", clause)
        for card, clause in self.tables.bonuses:
            holders = [s for s in self.tables.seats if self.alive[s] and card in self.discards[s]]
            if len(holders) == 1:
                self.gain(holders[0], clause.need()["amount"], "bonus", clause)
            elif holders:
                clause.need()
        self.end_game_if_won()

    # -- legality ----------------------------------------------------------------------------

    def targets(self, player: int, step: Step) -> list[int | None]:
        """Seats `player` may choose for a choose step (`[None]` when the card has no effect)."""
        anyone = step.clause.need()["who"] == "any"
        alive, protected = self.alive, self.protected
        out: list[int | None] = []
        for seat in self.tables.seats:
            shield = protected[seat]
            if seat == player:
                if anyone:
                    out.append(seat)
            elif alive[seat] and (shield is None or "chosen_by_others" not in shield.rule["blocks"]):
                out.append(seat)
        if out:
            return out
        fallback = step.modifiers.get("no_target") or self.tables.general["no_valid_target"]
        return [player] if fallback.need() == "self" else [None]

    def _playable(self) -> list[int]:
        """The cards the player on turn may play (remembered per hand in `Tables.playable`)."""
        return self.tables.playable[tuple(self.hands[self.current])]

    def legal_actions(self) -> list[Action]:
        """Every legal decision for the player to act, in a stable order."""
        if self._legal is None:
            if self.phase is PLAYING:
                self._legal = tuple(self._play_actions())
            elif self.phase is KEEPING:
                self._legal = tuple(self._keep_actions())
            elif self.phase is RESPONDING:
                self._legal = tuple(self._respond_actions())
            else:
                self._legal = ()
        return list(self._legal)

    def choices(self, decision: Decision) -> list[Choice]:
        """Whom the player on turn may choose for a card with this decision."""
        assert decision.choose is not None
        player = self.current
        valid = self.targets(player, decision.choose)
        own_shield = self.protected[player]
        if own_shield is not None and "choosing_others" in own_shield.rule["blocks"]:
            valid = [t for t in valid if t in (None, player)] or [None]
        options: list[Choice]
        if decision.count == 1:
            options = [*valid]
        else:
            seats = [t for t in valid if t is not None]
            groups: list[Choice] = [group for size in range(decision.at_least, decision.count + 1)
                                    for group in combinations(seats, size)]
            options = groups or [None]
        if self.forced is not None:
            seat = self.forced[0]
            bound: list[Choice] = [o for o in options if o == seat or (isinstance(o, tuple) and seat in o)]
            options = bound or options
        return options

    def _options(self) -> list[tuple[int, list[Choice]]]:
        """For each playable card: the choices it may take (`[None]` when it chooses nobody)."""
        out: list[tuple[int, list[Choice]]] = []
        for card in self._playable():
            decision = self.tables.decisions[card]
            out.append((card, [None] if decision.choose is None else self.choices(decision)))
        return out

    def _plays(self, card: int, choice: Choice) -> tuple[Action, ...]:
        """Every play of `card` with this choice (one per guess, or per player looked at)."""
        decision = self.tables.decisions[card]
        if decision.guess is not None and isinstance(choice, int):
            decision.guess.clause.need()
        return self.tables.plays[card, choice]

    def _play_actions(self) -> list[Action]:
        # loops doing what `_plays` does, not a comprehension calling it per choice: a hot path
        decisions, plays = self.tables.decisions, self.tables.plays
        out: list[Action] = []
        for card, choices in self._options():
            guess = decisions[card].guess
            for choice in choices:
                if guess is not None and isinstance(choice, int):
                    guess.clause.need()
                    guess = None  # asked once per card: it raises the first time or never
                out += plays[card, choice]
        return out

    def sample_action(self, rng: random.Random) -> Action:
        """A random legal action: a playable card, then whom it chooses, then a guess, each uniform."""
        if self.phase is not PLAYING:
            return _pick(rng, self.legal_actions())
        random = rng.random
        playable = self._playable()
        card = playable[int(random() * len(playable))]
        decision = self.tables.decisions[card]
        if decision.choose is None:
            return self._plays(card, None)[0]
        choices = self.choices(decision)
        choice = choices[int(random() * len(choices))]
        plays = self._plays(card, choice)
        return plays[int(random() * len(plays))]

    def _respond_actions(self) -> list[Action]:
        assert self.pending is not None and self.pending.clause.card is not None
        card = self.pending.clause.card
        return [Action(RESPOND, card, redraw=False), Action(RESPOND, card, redraw=True)]

    def _keep_actions(self) -> list[Action]:
        names, hand = self.tables.names, self.hands[self.current]
        out: list[Action] = []
        seen: set[tuple[int, tuple[int, ...]]] = set()
        for i, keep in enumerate(hand):
            rest = hand[:i] + hand[i + 1:]
            for order in _orders(rest):
                if (keep, order) not in seen:
                    seen.add((keep, order))
                    out.append(Action(KEEP, names[keep], returned=tuple(names[c] for c in order)))
        return sorted(out)

    def check(self, action: Action) -> None:
        """Raise IllegalActionError (naming the broken clause) unless `action` is legal now."""
        if self._legal is not None and action in self._legal:
            return
        tables = self.tables
        if self.phase not in DECIDING:
            raise IllegalActionError(tables.general["game_end" if self.phase is GAME_OVER
                                                   else "last_standing"].id,
                                     f"no decision is due: the game is in phase {self.phase.value}")
        if action.kind != self.phase.value:
            clause = self.pending.clause.id if self.pending else tables.general["turn_play"].id
            raise IllegalActionError(clause, f"a {self.phase.value} decision is due, not {action.kind}")
        if self.phase is KEEPING:
            self._check_keep(action)
        elif self.phase is RESPONDING:
            if action not in self._respond_actions():
                assert self.pending is not None
                raise IllegalActionError(self.pending.clause.id,
                                         f"answer the {self.pending.clause.card} with redraw true or false")
        else:
            self._check_play(action)

    def _check_play(self, action: Action) -> None:
        tables, player = self.tables, self.current
        card = tables.index.get(action.card)
        if card is None or card not in self.hands[player]:
            raise IllegalActionError(tables.general["turn_play"].id,
                                     f"player {player} does not hold {action.card}")
        playable = self._playable()
        if card not in playable:
            forced = next(c for c in tables.forcing if c[0] == playable[0])
            raise IllegalActionError(forced[2].id,
                                     f"player {player} must play {tables.names[playable[0]]}")
        decision = tables.decisions[card]
        if decision.choose is None:
            if action.target is not None or action.guess is not None or action.targets:
                raise IllegalActionError(tables.edition.cards[card].clause.id,
                                         f"{action.card} takes no target or guess")
            return
        choice: Choice = action.targets if action.targets else action.target
        if decision.count > 1:
            self._check_group(action, decision)
        else:
            if action.targets or action.look is not None:
                raise IllegalActionError(decision.choose.clause.id,
                                         f"{action.card} chooses one player: use 'target'")
            self._check_target(action, decision.choose)
        if choice not in self.choices(decision):
            assert self.forced is not None
            raise IllegalActionError(self.forced[1].id, f"the next card played must choose player "
                                                        f"{self.forced[0]}")
        if decision.guess is not None and action.target is not None:
            decision.guess.clause.need()
        if decision.guess is None or action.target is None:
            if action.guess is not None:
                clause = decision.guess or decision.choose
                raise IllegalActionError(clause.clause.id, f"this {action.card} play takes no guess")
        elif action.guess is None:
            raise IllegalActionError(decision.guess.clause.id, f"{action.card} needs a guess")
        elif action.guess not in decision.guesses:
            raise IllegalActionError(decision.guess.clause.id,
                                     f"{action.guess!r} may not be named (allowed: "
                                     f"{', '.join(map(str, decision.guesses))})")

    def _check_group(self, action: Action, decision: Decision) -> None:
        """Check a play that chooses several players (`targets`, and `look` when asked)."""
        assert decision.choose is not None
        choose, group = decision.choose, action.targets
        if action.target is not None:
            raise IllegalActionError(choose.clause.id, f"{action.card} chooses players with 'targets'")
        if not group:
            if self.choices(decision) != [None]:
                raise IllegalActionError(choose.clause.id, f"{action.card} needs 'targets'")
        elif len(set(group)) != len(group) or list(group) != sorted(group) \
                or not decision.at_least <= len(group) <= decision.count:
            many = decision.count if decision.at_least == decision.count else \
                f"{decision.at_least}-{decision.count}"
            raise IllegalActionError(choose.clause.id,
                                     f"{action.card} chooses {many} different players, listed in seat order")
        for seat in group:
            self._check_target(action._replace(target=seat, targets=()), choose)
        if decision.look_choice and group and action.look not in group:
            look = next(s for s in self.tables.programs[self.tables.index[action.card]] if s.kind == "look")
            raise IllegalActionError(look.clause.id, "name which chosen player to look at ('look')")
        if not decision.look_choice and action.look is not None:
            raise IllegalActionError(choose.clause.id, f"{action.card} takes no 'look'")

    def _check_target(self, action: Action, choose: Step) -> None:
        """Check the single player a play chooses (`action.target`), naming the broken clause."""
        tables, player, target = self.tables, self.current, action.target
        valid = self.targets(player, choose)
        own_shield = self.protected[player]
        blocked = own_shield is not None and "choosing_others" in own_shield.rule["blocks"]
        if own_shield is not None and blocked and target not in (None, player):
            raise IllegalActionError(own_shield.id, f"player {player} is protected and may "
                                                    "not choose another player")
        if target in valid:
            return
        if target is None:
            raise IllegalActionError(choose.clause.id, f"{action.card} needs a target "
                                                       f"(valid: {_seats(valid)})")
        if valid == [None]:
            fallback = choose.modifiers.get("no_target") or tables.general["no_valid_target"]
            raise IllegalActionError(fallback.id, f"no player may be chosen: play {action.card} "
                                                  "without a target")
        if not 0 <= target < self.players:
            raise IllegalActionError(choose.clause.id, f"there is no seat {target}")
        if target == player:
            raise IllegalActionError(choose.clause.id, f"{action.card} must choose another player")
        if not self.alive[target]:
            raise IllegalActionError(tables.general["elimination"].id,
                                     f"player {target} is out of the round")
        shield = self.protected[target]
        clause_id = shield.id if shield is not None else choose.clause.id
        raise IllegalActionError(clause_id, f"player {target} is protected")

    def _check_keep(self, action: Action) -> None:
        assert self.pending is not None
        names, hand = self.tables.names, self.hands[self.current]
        clause = self.pending.clause.id
        held = Counter(names[c] for c in hand)
        asked = Counter((action.card,) + action.returned)
        if asked != held or len(action.returned) != len(hand) - 1:
            raise IllegalActionError(clause, f"keep one card and return the other {len(hand) - 1} "
                                             f"of the hand ({', '.join(sorted(held.elements()))})")

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
        if self.pending is None and self.phase is not GAME_OVER:
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
        for interpret, step in self._programs[card]:
            interpret(self, step, play)
            if play.stopped or not self.alive[player] or self.phase is GAME_OVER:
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
        self.phase = PLAYING
        if action.redraw:
            self.discard_and_draw(seat, step.modifiers.get("empty_deck"))

    # -- reading the state -------------------------------------------------------------------

    def hand_names(self, seat: int) -> list[str]:
        """A seat's hand as card names in canonical order (by value, then name)."""
        return list(self.tables.hand_names[tuple(self.hands[seat])])

    def state(self) -> dict[str, Any]:
        """The canonical, complete state (see docs/formats.md)."""
        names, hand_names = self.tables.names, self.tables.hand_names
        pending: dict[str, Any] | None = None
        if self.phase is RESPONDING and self.pending is not None:
            pending = {"kind": "respond", "player": self.responder, "card": self.pending.clause.card}
        elif self.pending is not None:
            pending = {"kind": "keep", "player": self.current,
                       "return": len(self.hands[self.current]) - 1,
                       "to": self.pending.clause.rule["to"]}
        # loops, not comprehensions, on this hot path (a state after every action, on both sides
        # of a fuzzed game): in Python 3.11 each comprehension is a function made and called,
        # which costs more than naming a whole discard pile
        deck: list[str] = []
        for card in reversed(self.deck):
            deck.append(names[card])
        hands: list[list[str]] = []
        discards: list[list[str]] = []
        eliminated: list[bool] = []
        protected: list[bool] = []
        alive, shields = self.alive, self.protected
        for seat, hand in enumerate(self.hands):
            hands.append(list(hand_names[tuple(hand)]))  # as hand_names gives them
            named: list[str] = []
            for card in self.discards[seat]:
                named.append(names[card])
            discards.append(named)
            eliminated.append(not alive[seat])
            protected.append(shields[seat] is not None)
        state = {
            "edition": self.edition.id,
            "players": self.players,
            "round": self.round,
            "phase": str(self.phase),
            "turn": self.current if self.phase in DECIDING else None,
            "starter": self.starter,
            "deck": deck,
            "set_aside": _named(names, self.set_aside),
            "face_up": _named(names, self.face_up),
            "hands": hands,
            "discards": discards,
            "eliminated": eliminated,
            "protected": protected,
            "tokens": list(self.tokens),
            "pending": pending,
            "round_winners": self.round_winners,
            "game_winners": self.game_winners,
        }
        if self.tables.marks:
            state["marks"] = self.marks()
        return state

    def marks(self) -> list[dict[str, Any]]:
        """Tokens and markers that cards leave on players for the rest of the round."""
        out = [{"kind": "prediction", "player": seat, "target": target, "card": clause.card}
               for seat, target, clause in self.predictions]
        if self.forced is not None:
            out.append({"kind": "forced_target", "target": self.forced[0], "card": self.forced[1].card})
        return out

    def clone(self) -> Game:
        """An independent copy of the game (for search: perft, probes, fuzzing)."""
        twin = object.__new__(type(self))
        if hasattr(self, "__dict__"):  # a subclass's own attributes
            twin.__dict__.update(self.__dict__)
        # shared: what never changes, and values the game replaces rather than changes
        twin.edition, twin.tables, twin.players, twin._programs = (
            self.edition, self.tables, self.players, self._programs)
        twin.seed, twin._shuffles, twin.first_player, twin.initial_tokens = (
            self.seed, self._shuffles, self.first_player, self.initial_tokens)
        twin.round, twin.phase, twin.starter, twin.current, twin.turns = (
            self.round, self.phase, self.starter, self.current, self.turns)
        twin.pending, twin.responder, twin.forced = self.pending, self.responder, self.forced
        twin.round_winners, twin.game_winners = self.round_winners, self.game_winners
        twin._legal, twin._mark = self._legal, self._mark
        # copied: what the game changes in place
        twin._rng = None
        twin.tokens = list(self.tokens)
        twin.deck = list(self.deck)
        twin.set_aside = list(self.set_aside)
        twin.face_up = list(self.face_up)
        twin.hands = [list(h) for h in self.hands]
        twin.discards = [list(d) for d in self.discards]
        twin.alive = list(self.alive)
        twin.protected = list(self.protected)
        twin.predictions = list(self.predictions)
        twin.log = list(self.log)
        twin.record = [dict(r, actions=list(r["actions"])) for r in self.record]
        twin._actions = twin.record[-1]["actions"] if twin.record else []
        return twin


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


def _named(names: tuple[str, ...], cards: list[int]) -> list[str]:
    """The names of `cards` (a loop, not a comprehension: see `Game.state`)."""
    out = []
    for card in cards:
        out.append(names[card])
    return out


def _pick(rng: random.Random, items: Sequence[Any]) -> Any:
    """A uniform choice that costs one call to the generator."""
    return items[int(rng.random() * len(items))]


Programs = tuple[tuple[tuple[Any, Step], ...], ...]
_PROGRAMS: dict[tuple[type, Tables], Programs] = {}


def _programs(cls: type, tables: Tables) -> Programs:
    """Each card's steps paired with the `step_<kind>` function of `cls` that interprets them."""
    key = (cls, tables)
    if key not in _PROGRAMS:
        _PROGRAMS[key] = tuple(tuple((getattr(cls, "step_" + step.kind), step) for step in program)
                               for program in tables.programs)
    return _PROGRAMS[key]


def _orders(cards: list[int]) -> list[tuple[int, ...]]:
    """Every distinct ordering of `cards`."""
    if len(cards) <= 1:
        return [tuple(cards)]
    out: list[tuple[int, ...]] = []
    for i, card in enumerate(cards):
        if card in cards[:i]:
            continue
        out.extend((card,) + rest for rest in _orders(cards[:i] + cards[i + 1:]))
    return out


def _seats(valid: list[int | None]) -> str:
    return ", ".join(str(s) for s in valid if s is not None) or "none"
