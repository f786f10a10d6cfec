"""A round as a bounded transition system, generated from a compiled spec.

The deal is a symbolic card type for every deck position (any order of the edition's cards).
Each turn gets fresh variables for the state after it and for the choices of its player (which
card, whom, what to name, what to keep and in which order to return the rest). Turns are
unrolled as deep as the draw pile: every turn draws a card, so no round can be longer, and a
query that is unsatisfiable at that depth is impossible in every round (the catalogue's
`round-outlasts-pile` query checks that bound for each spec and player count). After the round
ends the state is frozen, so the last state is the state at the end.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

import z3

from loveletter_ref.errors import RuleGapError
from loveletter_ref.spec import Clause, Edition

from .board import Board, Slot, slot_at
from .ending import Ending
from .kinds import STEPS, Choose, ForceNextTarget, Guess, Play, Predict, StepEncoder, Unmodelled, program
from .layout import Layout, SetupGap, Unsupported
from .terms import BV, FALSE, TRUE, Bool, at_least, both, either, exactly, ite, num, select, ule, ult, width

GENERAL_KINDS = frozenset({
    "deck_size", "set_aside", "face_up", "deal", "first_player", "turn_draw", "turn_play", "turn_order",
    "no_valid_target", "elimination", "last_standing", "all_eliminated", "deck_empty", "showdown", "tie",
    "round_tokens", "tokens_to_win", "game_end", "next_first", "first_turn_draw",
})
"""The general rule kinds the probes model."""

TIE_STEPS = frozenset({"discard_total", "highest_discard", "all_win", "nobody"})
"""The tie-chain steps the probes model."""

PROPERTY_KINDS = frozenset({"forced_with", "out_if_discarded", "bonus_token", "showdown_bonus",
                            "loses_at_showdown_to", "counter", "token_if_eliminated", "out_if_hand_total"})
"""The card properties the probes model."""


def extra_tokens(edition: Edition, players: int) -> int:
    """The most tokens one player can gain in a round besides winning it: each bonus once, and
    each prediction card's amount once per copy."""
    bonus = sum(c.bonus.rule["amount"] for c in edition.cards
                if c.bonus is not None and not c.bonus.silent and c.count_for(players))
    return bonus + sum(s.clause.rule["amount"] * c.count_for(players) for c in edition.cards for s in c.steps
                       if s.kind == "predict" and isinstance(s.clause.rule, dict))


def midround_tokens(edition: Edition, players: int) -> int:
    """The most tokens one player can gain during a round: one per right guess that pays, each
    card paying on elimination once."""
    guesses = sum(c.count_for(players) for c in edition.cards for s in c.steps
                  if s.kind == "guess" and isinstance(s.clause.rule, dict)
                  and s.clause.rule["on_hit"] == "gain_token")
    paying = [c.eliminated_token for c in edition.cards if c.count_for(players)]
    return guesses + sum(clause.rule for clause in paying if clause is not None and not clause.silent)


def programs(edition: Edition) -> list[list[StepEncoder]]:
    """Each card's steps as encoders (an `Unmodelled` stand-in for a card the probes do not model)."""
    return [program(card.index, card.steps) for card in edition.cards]


def unsupported_rules(edition: Edition, players: int) -> list[str]:
    """The rules of this deck the probes cannot even tell apart from others: each makes every
    answer that is not a witness ``unknown``. Empty when the probes model everything needed."""
    modifiers = {name for cls in STEPS.values() for name in cls.modifiers}
    present = {card.index for card in edition.cards if card.count_for(players)}
    returns = any(s.kind == "draw_return" for c in edition.cards if c.index in present for s in c.steps)
    out = []
    for clause in edition.clauses.values():
        if clause.kind in ("card", "unknown") or (clause.card is not None and
                                                  edition.card(clause.card).index not in present):
            continue
        known = GENERAL_KINDS if clause.card is None else PROPERTY_KINDS | set(STEPS) | modifiers
        problem = _unsupported(clause, returns) if clause.kind in known else \
            f"the probes have no encoder for the rule kind {clause.kind!r}"
        if problem is not None:
            out.append(f"{clause.id}: {problem}")
    return out


def _unsupported(clause: Clause, returns: bool) -> str | None:
    """What the probes do not model in a clause of a kind they have an encoder for, if anything."""
    if clause.kind == "tie" and not clause.silent and set(clause.rule) - TIE_STEPS:
        return f"the probes do not model the tie steps {sorted(set(clause.rule) - TIE_STEPS)}"
    if clause.kind in ("showdown_bonus", "loses_at_showdown_to") and clause.silent:
        return f"the probes do not model a silent {clause.kind} property"
    if clause.kind == "out_if_hand_total" and returns:
        return "the probes do not model a hand-total limit together with a draw-and-return card"
    return None


def encodable(edition: Edition, players: int) -> None:
    """ProbeError if the probes cannot answer anything for this spec and player count (a bad
    player count or deal); rules they do not model make answers ``unknown`` instead."""
    try:
        Layout.of(edition, players)
    except SetupGap:
        return


@dataclass
class Turn:
    """One unrolled turn: its choices, what it consulted, what it caused, the state around it."""

    index: int
    running: Bool
    actor: BV
    played: BV
    has_target: Bool
    target: BV
    guessing: Bool
    guess: BV
    keeping: Bool
    kept: BV
    returned: list[Slot]
    consulted: dict[str, dict[str, Bool]]
    gaps: dict[str, dict[str, Bool]]
    gap_keys: dict[str, dict[str, Bool]]
    before: dict[str, z3.ExprRef]
    after: dict[str, z3.ExprRef]
    has_target2: Bool
    target2: BV
    look2: Bool
    offered: Bool
    redraw: Bool
    seen_at: dict[str, dict[str, Bool]]
    acted: Bool
    """The turn's player decided (not knocked out by their draw)."""

    def saw(self, name: str) -> Bool:
        """The turn observed `name`, in whichever phase."""
        return either(*self.seen_at.get(name, {}).values())


class RoundEncoding:
    """The symbolic round of one spec and player count: facts to assert, and what to ask about.

    With `free`, the encoding is one turn from an *arbitrary* running state instead of the deal:
    the inductive step that proves state invariants, and, once they are proved, a quick proof
    that a situation cannot arise from any state satisfying them. `turns` unrolls fewer turns
    (0: the deal alone, all the base case of an induction needs).
    """

    def __init__(self, layout: Layout, free: bool = False, turns: int | None = None):
        self.layout = layout
        self.free = free
        self.depth = (1 if free else layout.depth) if turns is None else turns
        """Turns unrolled: the whole round (the pile's size), one from a free state, or as asked
        (none: the deal alone, for the base case of an induction)."""
        self.edition = layout.edition
        problems = unsupported_rules(self.edition, layout.players)
        if problems:
            raise Unsupported("; ".join(problems))
        self.programs = self._programs()
        self._card_sets()
        tie = self.edition.general.get("tie")
        self.totals = tie is not None and not tie.silent and "discard_total" in tie.rule
        self.highest = tie is not None and not tie.silent and "highest_discard" in tie.rule
        self._unroll()

    def _card_sets(self) -> None:
        """The cards of this deck each rule the encoding tracks applies to (from the spec's facts)."""
        layout = self.layout
        facts = layout.facts
        self.shields: list[Clause] = list(facts.shields)
        self.shield_bits = width(len(self.shields) + 1)
        present = [c for c in range(layout.kinds) if layout.counts[c]]

        def dealt(rules: Iterable[tuple[int, Clause | None]]) -> list[tuple[int, Clause]]:
            """The (card, rule) pairs of the cards this deck holds that have the rule."""
            return [(c, clause) for c, clause in rules if clause is not None and layout.counts[c]]

        self.outs = dealt(enumerate(facts.discard_out))
        bonus = [c for c, _ in dealt(facts.bonuses)]
        self.countered = dealt((card.index, card.counter) for card in self.edition.cards)
        """Cards with a counter property: a card they counter that chooses their holder backfires."""
        self.token_out = dealt(enumerate(facts.eliminated_token))
        """Cards paying tokens to a player knocked out with them already discarded."""
        self.limits = dealt(facts.hand_limits)
        """Cards that knock out whoever holds them with a hand worth their limit or more."""
        self.flagged = sorted({c for c, _ in self.outs} | set(bonus) | {c for c, _ in self.token_out})
        self.piled = [c for c in present if self.edition.cards[c].showdown_bonus is not None]
        """Cards whose copies in a discard pile add to the showdown value: counted per seat."""
        self.counted = sorted(set(c for c in bonus if layout.counts[c] > 1)
                              | {c for c, clause in self.outs if clause.rule == "when_played"})
        self._step_sets(present)

    def _step_sets(self, present: list[int]) -> None:
        """What the steps of this deck's cards do that the encoding tracks across turns."""
        self.marking = any(isinstance(e, ForceNextTarget) and not e.clause.silent
                           for c in present for e in self.programs[c])
        """Some card marks the player the next card must choose."""
        self.midround = bool(self.token_out) or any(
            isinstance(e, Guess) and not e.clause.silent and e.clause.rule["on_hit"] == "gain_token"
            for c in present for e in self.programs[c])
        """Some rule pays tokens during the round (the game may then end before the round does)."""
        self.predicting = [(c, e.clause) for c in present for e in self.programs[c]
                           if isinstance(e, Predict) and not e.clause.silent]
        """Cards that predict a round winner, with their clause (one prediction per copy played)."""

    def _unroll(self) -> None:
        """The deal's variables and facts, then each turn and the round's end."""
        layout = self.layout
        present = [c for c in range(layout.kinds) if layout.counts[c]]
        self.spent = {c: [z3.BitVec(f"spent{c}.{j}", layout.index_bits) for j in range(layout.counts[c])]
                      for c in present if self.draws_back(c)}
        """For each draw-and-return card: the identities of its copies played, in order (write-once)."""
        self.facts: list[Bool] = []
        self._tokens()
        bits = layout.card_bits
        self.deal = [z3.BitVec(f"deck{i}", bits) for i in range(layout.size)]
        self.ret_id = [z3.BitVec(f"retid{r}", layout.index_bits) for r in range(layout.returns)]
        self.ret_card = [z3.BitVec(f"retcard{r}", bits) for r in range(layout.returns)]
        self._deal_facts()
        self.deal_facts = list(self.facts)
        state = self._initial()
        self.sorts = {name: term.sort() for name, term in state.items()}
        self.states = [state]
        self.turns: list[Turn] = []
        for t in range(self.depth):
            turn, state = self._turn(t, state)
            self.turns.append(turn)
            self.states.append(state)
        self.ending = Ending(self, state)
        self.facts += self.ending.facts

    # -- spec checks -----------------------------------------------------------------------------

    def _programs(self) -> list[list[StepEncoder]]:
        """Each card's steps as encoders (an `Unmodelled` stand-in for a card the probes do not model)."""
        return programs(self.edition)

    @property
    def unmodelled(self) -> list[str]:
        """What this deck has that the probes do not model: the ``unmodelled`` gaps a round may meet."""
        return [e.reason for c in range(self.layout.kinds) if self.layout.counts[c]
                for e in self.programs[c] if isinstance(e, Unmodelled)]

    def draws_back(self, card: int) -> int:
        """How many cards a card's draw-and-return step can put under the pile (0 if it has none)."""
        return sum(s.clause.rule["draw"] for s in self.edition.cards[card].steps
                   if s.kind == "draw_return" and not s.clause.silent)

    def key(self, kind: str) -> str:
        """The key of the general clause of a kind (its kind when the spec has none)."""
        clause = self.edition.general.get(kind)
        return clause.key if clause is not None else kind

    def rule(self, kind: str) -> Clause | None:
        """The general clause of a kind, if the spec has one."""
        return self.edition.general.get(kind)

    def _tokens(self) -> None:
        """Each seat's tokens before the round (below the target), for queries about the game's end."""
        try:
            self.target: int | None = self.edition.player_table("tokens_to_win", self.layout.players)
        except RuleGapError:
            self.target = None
        amount = self.rule("round_tokens")
        most = amount.rule if amount is not None and not amount.silent else 0
        players = self.layout.players
        most += extra_tokens(self.edition, players) + midround_tokens(self.edition, players)
        self.token_bits = width(most + (self.target or 0) + 1)
        self.tokens = [z3.BitVec(f"tokens{p}", self.token_bits) for p in range(self.layout.players)]
        if self.target is not None:
            self.facts += [ult(t, num(self.target, self.token_bits)) for t in self.tokens]

    # -- the deal --------------------------------------------------------------------------------

    def _deal_facts(self) -> None:
        """The deal is a permutation of the deck's cards; the face-up cards, never used in the round,
        are listed in card order so that their orders are not searched separately."""
        layout = self.layout
        bits = layout.card_bits
        for c in range(layout.kinds):
            self.facts.append(exactly([d == num(c, bits) for d in self.deal], layout.counts[c]))
        self.facts += [ult(d, num(layout.kinds, bits)) for d in self.deal] if 2 ** bits > layout.kinds else []
        first = layout.set_aside
        for i in range(first, first + layout.face_up - 1):
            self.facts.append(ule(self.deal[i], self.deal[i + 1]))

    def window(self, turn: int) -> tuple[int, int]:
        """The pile positions a card drawn during `turn` can come from."""
        return (0, self.layout.queue - 1) if self.free else self.layout.turn_window(turn)

    def _initial(self) -> dict[str, z3.ExprRef]:
        """The state once the cards are dealt, before the first player's draw (seat 0 starts);
        with `free`, fresh variables for a state that satisfies nothing yet."""
        dealt = self._dealt()
        if not self.free:
            return dealt
        return {name: z3.Const(f"{name}@0", term.sort()) for name, term in dealt.items()}

    def _dealt(self) -> dict[str, z3.ExprRef]:
        layout = self.layout
        ib = layout.index_bits
        state: dict[str, z3.ExprRef] = {"run": TRUE, "gap": FALSE, "actor": num(0, layout.seat_bits),
                                        "top": num(0, ib), "end": num(layout.pile, ib),
                                        "aside": num(layout.set_aside, ib), "discards": num(0, ib)}
        for p in range(layout.players):
            dealt = layout.set_aside + layout.face_up + p
            state.update({f"alive{p}": TRUE, f"held{p}": TRUE, f"id{p}": num(dealt, ib),
                          f"card{p}": self.deal[dealt]})
            if self.shields:
                state[f"shield{p}"] = num(0, self.shield_bits)
            for c in self.flagged:
                state[f"flag{p}.{c}"] = FALSE
            for c in self.counted:
                state[f"played{p}.{c}"] = num(0, width(layout.counts[c] + 1))
            for c in self.piled:
                state[f"piled{p}.{c}"] = num(0, width(layout.counts[c] + 1))
            if self.totals:
                state[f"total{p}"] = num(0, layout.total_bits)
            if self.highest:
                state[f"top{p}"] = num(0, layout.value_bits + 1)
        for c in self.spent:
            state[f"used{c}"] = num(0, width(layout.counts[c] + 1))
        if self.marking:
            state["forced"] = num(0, layout.seat_bits + 1)
        if self.midround:
            state["halt"] = FALSE
            state.update({f"won{p}": num(0, self.token_bits) for p in range(layout.players)})
        for c, _ in self.predicting:
            state[f"predicted{c}"] = num(0, width(layout.counts[c] + 1))
            for j in range(layout.counts[c]):
                state[f"predictor{c}.{j}"] = num(0, layout.seat_bits + 1)
                state[f"prediction{c}.{j}"] = num(0, layout.seat_bits + 1)
        return state

    # -- one turn --------------------------------------------------------------------------------

    def _turn(self, t: int, before: dict[str, z3.ExprRef]) -> tuple[Turn, dict[str, z3.ExprRef]]:
        layout = self.layout
        board = Board(self, before, t)
        ok: Bool = before["run"]
        actor: BV = before["actor"]
        if self.shields:
            board.shield(actor, None, both(ok, board.lapsing(actor)))
        first = self.layout.facts.first_turn if t == 0 else None
        if first is None or self.free:
            board.consult(self.key("turn_draw"), self.rule("turn_draw"), ok)
        if first is not None:  # from any state (`free`), the turn may be the round's first
            board.consult(first[0].key, first[0], ok)
        board.draw_top(actor, ok)  # `first_turn_draw`, like `turn_draw`, is one card (the schema's bound)
        live = both(ok, z3.Not(board.over_limit(actor, ok))) if self.limits else ok  # still in: decides
        empty = both(live, z3.Not(board.hand_of(actor)[0].present))
        board.note("empty_handed", empty)
        board.stop("no_action", self.key("turn_play"), empty)
        board.phase = "play"
        played, pick = self._choose_card(board, t, live)
        board.consult(self.key("turn_play"), self.rule("turn_play"), live)
        choice = Play(live, -1, actor, z3.BitVec(f"target@{t}", layout.seat_bits), z3.Bool(f"aim@{t}"),
                      z3.BitVec(f"guess@{t}", max(layout.card_bits, layout.value_bits)),
                      z3.BitVec(f"target2@{t}", layout.seat_bits), z3.Bool(f"aim2@{t}"),
                      z3.Bool(f"look2@{t}"), z3.Bool(f"redraw@{t}"))
        target, has_target, guess = choice.target, choice.has_target, choice.guess
        plays = self._check_plays(board, live, played, choice)
        guessing = either(*(both(play.when, has_target) for c, play in plays.items()
                            if any(isinstance(e, Guess) for e in self.programs[c])))
        board.facts += [z3.Implies(z3.Not(live), both(z3.Not(has_target), z3.Not(choice.has_target2))),
                        z3.Implies(z3.Not(has_target), target == num(0, layout.seat_bits)),
                        z3.Implies(z3.Not(choice.has_target2),
                                   both(choice.target2 == num(0, layout.seat_bits), z3.Not(choice.look2))),
                        z3.Implies(z3.Not(guessing), guess == num(0, guess.size()))]
        board.remove(actor, pick, live)
        board.to_pile(actor, played, live, played=True)
        self._spend(board, played, live)
        if "forced" in board.s:  # a mark binds only the next card played
            board.set("forced", live, num(0, board.s["forced"].size()))
        self._resolve(board, plays)
        board.phase = "after"
        board.note("hand_sizes", both(ok, z3.Not(board.halted), board.hand_sizes_wrong()))
        board.facts.append(z3.Implies(z3.Not(board.offered), z3.Not(choice.redraw)))
        after = self._turn_end(board, t, ok, actor, before)
        self.facts += board.facts
        turn = Turn(t, ok, actor, played.card, has_target, target, guessing, guess, board.keeping,
                    board.kept, board.returned, board.consulted, board.gaps, board.gap_keys,
                    before, after, choice.has_target2, choice.target2, choice.look2, board.offered,
                    choice.redraw, board.seen_at, live)
        return turn, after

    def _choose_card(self, board: Board, t: int, ok: Bool) -> tuple[Slot, BV]:
        """Which card of the hand is played: any, unless a forcing property applies."""
        hand = board.hand_of(board.s["actor"])
        pick = z3.BitVec(f"pick@{t}", width(len(hand)))
        played = slot_at(hand, pick)
        first_of_type = [z3.Not(both(ult(num(j, pick.size()), pick), hand[j].card == played.card))
                         for j in range(len(hand))]
        board.facts += [z3.Implies(both(ok, hand[0].present), both(played.present, *first_of_type)),
                        z3.Implies(z3.Not(both(ok, hand[0].present)), pick == num(0, pick.size()))]
        forced_before: Bool = FALSE
        applying = []
        bits = self.layout.card_bits
        for card, partners, clause in self.layout.facts.forcing:
            holds = either(*(both(s.present, s.card == num(card, bits)) for s in hand))
            partner = either(*(both(s.present, s.card != num(card, bits),
                                    either(*(s.card == num(other, bits) for other in partners)))
                               for s in hand))
            forced = both(ok, holds, partner)
            applying.append(forced)
            first = both(forced, z3.Not(forced_before))
            board.consult(clause.key, clause, first)
            board.facts.append(z3.Implies(first, played.card == num(card, bits)))
            forced_before = either(forced_before, forced)
        board.note("forced_conflict", at_least(applying, 2))
        return played, pick

    def _spend(self, board: Board, played: Slot, ok: Bool) -> None:
        """Remember which copy of a draw-and-return card was played (it bounds the cards put back)."""
        for c, copies in self.spent.items():
            when = both(ok, played.card == num(c, self.layout.card_bits))
            used = board.s[f"used{c}"]
            for j, spent in enumerate(copies):
                board.facts.append(z3.Implies(both(when, used == num(j, used.size())), spent == played.ident))
            board.set(f"used{c}", when, used + 1)

    def _check_plays(self, board: Board, ok: Bool, played: Slot, choice: Play) -> dict[int, Play]:
        """For each card type in the deck, the play of it and its legality (the engine's check)."""
        layout = self.layout
        present = [c for c in range(layout.kinds) if layout.counts[c]]
        targeted = [c for c in present if any(isinstance(e, Choose) for e in self.programs[c])]
        self._note_forced_targeting(board, ok, choice.actor, targeted)
        plays: dict[int, Play] = {}
        for c in present:
            play = dataclasses.replace(choice, when=both(ok, played.card == num(c, layout.card_bits)), card=c)
            program = self.programs[c]
            chooser = next((e for e in program if isinstance(e, Choose)), None)
            if chooser is None:
                board.facts.append(z3.Implies(play.when, z3.Not(play.has_target)))
            if chooser is None or chooser.count == 1:
                board.facts.append(z3.Implies(play.when, z3.Not(play.has_target2)))
            if not any(e.kind == "look" and e.clause.rule == "one_of_targets" for e in program
                       if not isinstance(e, Unmodelled)):
                board.facts.append(z3.Implies(play.when, z3.Not(play.look2)))
            for encoder in program:
                encoder.check(board, play)
            plays[c] = play
        return plays

    def _note_forced_targeting(self, board: Board, ok: Bool, actor: BV, targeted: list[int]) -> None:
        """Observe a player who must play a card that chooses while nobody else may be chosen
        (before the plays' checks: a silent no-valid-target rule stops the play there)."""
        hand = board.hand_of(actor)
        bits = self.layout.card_bits
        every_card = both(*(z3.Implies(s.present, either(*(s.card == num(c, bits) for c in targeted)))
                            for s in hand))
        nobody = z3.Not(either(*board.unblocked_others(actor)))
        others_in = either(*(both(actor != board.seat(p), board.alive(p))
                             for p in range(self.layout.players)))
        board.note("forced_targeting", both(ok, every_card, nobody, others_in))

    def _resolve(self, board: Board, plays: dict[int, Play]) -> None:
        """The played card's effect: knocked out if it is out when played, else its steps in order."""
        out = dict(self.outs)
        for c, play in plays.items():
            clause = out.get(c)
            if clause is not None:
                board.consult(clause.key, clause, play.when)
                if not clause.silent:
                    board.eliminate(play.actor, play.when)
                continue
            for encoder in self.programs[c]:
                encoder.apply(board, play)
                play.stopped = either(play.stopped, board.halted)  # the game is over

    def _turn_end(self, board: Board, t: int, ok: Bool, actor: BV,
                  before: dict[str, z3.ExprRef]) -> dict[str, z3.ExprRef]:
        """The state after the turn: fresh variables, frozen unless the turn was played."""
        layout = self.layout
        alive = [board.alive(p) for p in range(layout.players)]
        continues = both(ok, z3.Not(board.halted), z3.Not(board.deck_empty()), at_least(alive, 2))
        if layout.players > 2:  # with two players, either direction passes the turn to the other
            board.consult(self.key("turn_order"), self.rule("turn_order"), continues)
        played = both(ok, z3.Not(board.gap))
        for p in range(layout.players):
            slot = board.hands[p][0]
            board.s[f"held{p}"], board.s[f"id{p}"], board.s[f"card{p}"] = slot
        board.s["actor"] = self._next_actor(board, actor)
        board.s["run"] = both(continues, z3.Not(board.gap))
        if "halt" in board.s:
            board.s["halt"] = either(board.s["halt"], board.halted)
        after: dict[str, z3.ExprRef] = {}
        for name, sort in self.sorts.items():
            var = z3.Const(f"{name}@{t + 1}", sort)
            if name == "run":
                value = board.s["run"]
            elif name == "gap":
                value = either(before["gap"], both(ok, board.gap))
            else:
                value = ite(played, board.s[name], before[name])
            board.facts.append(var == value)
            after[name] = var
        return after

    def _next_actor(self, board: Board, actor: BV) -> BV:
        """The next player still in, in turn order (whoever it is when the rule is silent)."""
        order = self.rule("turn_order")
        step = -1 if order is not None and order.rule == "counterclockwise" else 1
        n = self.layout.players
        nexts = []
        for p in range(n):
            seat = board.seat(p)
            for k in range(n - 1, 0, -1):
                q = (p + k * step) % n
                seat = ite(board.alive(q), board.seat(q), seat)
            nexts.append(seat)
        return select(actor, nexts)
