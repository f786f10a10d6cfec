"""One encoder per card-step kind, registered by kind, as `Effects.step_<kind>` interprets them.

An encoder gets the compiled `Step` (its clause and modifiers) and turns it into guarded changes
of the `Board`. `check` states what makes a play of the card legal (the reference engine's
`check`, before the card leaves the hand); `apply` is the effect, run in the card's step order
while the play is live (not stopped, the player still in). A new rule kind is supported by
registering one more class with `@encoder("kind")`. A step of a kind without an encoder, or with
a parameter its encoder does not model, makes the whole card `Unmodelled`: playing it stops the
round on a gap of the category ``unmodelled`` (the prover then answers ``unknown`` wherever such
a play is reachable), never a guess.

Independent on purpose: the encoders read the same rule facts as the engine (`spec.facts`, via
`Layout.facts`) but re-implement each step's effect as constraints rather than calling the engine,
so the z3 model and the engine check each other: every witness the prover finds is replayed on the
engine (`playback`), and tests/test_probes_crosscheck.py compares what each one reaches.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import z3

from loveletter_ref.spec import Clause, Step

from .board import Board, Slot, slot_at
from .layout import Unsupported
from .terms import BV, FALSE, Bool, both, either, fit, ite, num, ult


@dataclass
class Play:
    """The card being resolved, symbolically: who plays it and what they chose."""

    when: Bool
    """This card is the one played this turn (and the round is running)."""
    card: int
    actor: BV
    target: BV
    has_target: Bool
    guess: BV
    target2: BV
    """The second chosen player of a card that chooses two (after `target` in seat order)."""
    has_target2: Bool
    look2: Bool
    """A card that looks at one of its two chosen players looks at the second."""
    redraw: Bool
    """The target's answer to an offer to discard their hand and draw."""
    stopped: Bool = FALSE
    hit: Bool = FALSE
    """The card's guess was right."""

    def targets(self) -> list[tuple[Bool, BV]]:
        """The chosen players: (chosen, seat) for the first and the second."""
        return [(self.has_target, self.target), (self.has_target2, self.target2)]

    def live(self, board: Board) -> Bool:
        """The card's next step runs: it was played, nothing stopped it, its player is still in."""
        return both(self.when, z3.Not(self.stopped), board.alive_at(self.actor))


class StepEncoder:
    """Encodes one step of one card."""

    kind: ClassVar[str]
    modifiers: ClassVar[tuple[str, ...]] = ()
    """The modifier kinds this encoder reads (any other is refused)."""

    def __init__(self, step: Step, card: int):
        self.step = step
        self.clause = step.clause
        self.card = card
        for name, modifier in step.modifiers.items():
            if name not in self.modifiers:
                raise Unsupported(f"{modifier.id}: the probes have no encoder for the {name!r} modifier "
                                  f"of {self.kind!r}")
        if not self.clause.silent:
            self.validate(self.clause.rule)

    def validate(self, rule: object) -> None:
        """Refuse parameters the encoder does not model (Unsupported)."""

    def refuse(self, what: str) -> Unsupported:
        """The exception for a parameter value this encoder does not model."""
        return Unsupported(f"{self.clause.id}: the probes do not model {self.kind} {what} yet")

    def modifier(self, name: str) -> Clause | None:
        """A modifier clause of this step, if the card states one."""
        return self.step.modifiers.get(name)

    def missing(self, board: Board, modifier: str) -> str:
        """A label for a modifier the card does not state (consulting it is a gap)."""
        return f"{board.layout.edition.cards[self.card].clause.key}.{modifier}"

    def check(self, board: Board, play: Play) -> None:
        """Constraints on the player's choices for a legal play of this card."""

    def consult(self, board: Board, play: Play) -> Bool:
        """Consult the step's clause wherever the step runs; returns that condition."""
        live = play.live(board)
        board.consult(self.clause.key, self.clause, live)
        return live

    def apply(self, board: Board, play: Play) -> None:
        """The step's effect."""
        self.consult(board, play)


STEPS: dict[str, type[StepEncoder]] = {}
"""Step kind -> encoder class."""


def encoder(kind: str) -> Callable[[type[StepEncoder]], type[StepEncoder]]:
    """Register an encoder class for a step kind."""
    def register(cls: type[StepEncoder]) -> type[StepEncoder]:
        cls.kind = kind
        STEPS[kind] = cls
        return cls
    return register


def encoder_for(step: Step, card: int) -> StepEncoder:
    """The encoder of one step; Unsupported when its kind has none."""
    cls = STEPS.get(step.kind)
    if cls is None:
        raise Unsupported(f"{step.clause.id}: the probes have no encoder for the rule kind {step.kind!r}")
    return cls(step, card)


class Unmodelled(StepEncoder):
    """A card with a step the probes do not model: its play stops the round on an ``unmodelled``
    gap, before any of its effects, so that nothing after it is claimed either way."""

    kind = "unmodelled"

    def __init__(self, card: int, reason: str):
        self.card = card
        self.reason = reason

    def apply(self, board: Board, play: Play) -> None:
        board.stop("unmodelled", f"unmodelled:{self.reason}", play.when)


GROUP_STEPS = frozenset({"trade", "look"})
"""The steps a card that chooses two players may have besides `choose` (reading its group)."""


def program(card: int, steps: tuple[Step, ...]) -> list[StepEncoder]:
    """A card's steps as encoders, or one `Unmodelled` stand-in when any step is not modelled."""
    try:
        encoders = [encoder_for(step, card) for step in steps]
        _check_group(encoders)
        return encoders
    except Unsupported as exc:
        return [Unmodelled(card, str(exc))]


def _check_group(encoders: list[StepEncoder]) -> None:
    """Unsupported unless a card's steps read its chosen players the way the probes model: one
    target, or (choosing two) only trading or looking among them."""
    group = any(isinstance(e, Choose) and e.count == 2 for e in encoders)
    for e in encoders:
        if e.clause.silent or isinstance(e, Choose):
            continue
        wants_group = e.clause.rule in ("targets", "one_of_targets")
        if group and (e.kind not in GROUP_STEPS or not wants_group) or not group and wants_group:
            raise Unsupported(f"{e.clause.id}: the probes do not model {e.kind} {e.clause.rule!r} on a card "
                              f"choosing {'two players' if group else 'one player'}")


@encoder("choose")
class Choose(StepEncoder):
    """Choose one player still in the round (or, with `count: 2`, from `at_least` to two different
    ones, in seat order), never one protected against others; else the fallback. A player marked
    by a force-next-target step must be among them when they may be chosen.

    The player on turn is never protected when they play (protection ends at the start of their
    own turn), so a shield that blocks *choosing* others never restricts them.
    """

    modifiers = ("no_target",)

    def validate(self, rule: object) -> None:
        assert isinstance(rule, dict)
        if rule.get("count", 1) not in (1, 2):
            raise self.refuse(f"of {rule['count']} players")

    @property
    def count(self) -> int:
        """How many players the card chooses at most."""
        return 1 if self.clause.silent else self.clause.rule.get("count", 1)

    def fallback(self, board: Board) -> Clause:
        """What applies when nobody may be chosen: the card's own modifier, else the general rule."""
        return self.modifier("no_target") or board.layout.edition.general["no_valid_target"]

    def check(self, board: Board, play: Play) -> None:
        board.consult(self.clause.key, self.clause, play.when)
        if self.clause.silent:
            return
        actor, layout = play.actor, board.layout
        to_self = self.clause.rule["who"] == "any"
        valid = [either(other, both(z3.BoolVal(to_self), actor == board.seat(p)))
                 for p, other in enumerate(board.unblocked_others(actor))]
        fallback = self.fallback(board)
        fallback_self = not fallback.silent and fallback.rule == "self"
        if self.count == 1:
            anyone = either(*valid)
            facts = self._one(board, play, valid, anyone, fallback_self)
        else:
            if fallback_self:
                raise self.refuse("of two players with a fallback to the player themself")
            anyone, facts = self._two(board, play, valid)
        board.consult(fallback.key, fallback, both(play.when, z3.Not(anyone)))
        board.facts += facts
        protected = [board.blocked(p, "chosen_by_others") for p in range(layout.players)]
        for aimed, seat in play.targets():
            chosen = either(*(both(seat == board.seat(p), protected[p]) for p in range(layout.players)))
            board.note("chose_protected", both(play.when, aimed, seat != actor, chosen))

    def _one(self, board: Board, play: Play, valid: list[Bool], anyone: Bool,
             fallback_self: bool) -> list[Bool]:
        """One chosen player: any valid one (the marked one when valid), else the fallback."""
        forced = [both(board.marked(p), valid[p]) for p in range(board.layout.players)]
        return [
            z3.Implies(play.when, play.has_target == either(anyone, z3.BoolVal(fallback_self))),
            z3.Implies(both(play.when, anyone),
                       either(*(both(ok, play.target == board.seat(p)) for p, ok in enumerate(valid)))),
            z3.Implies(both(play.when, z3.Not(anyone), z3.BoolVal(fallback_self)), play.target == play.actor),
            *(z3.Implies(both(play.when, f), play.target == board.seat(p)) for p, f in enumerate(forced)),
        ]

    def _two(self, board: Board, play: Play, valid: list[Bool]) -> tuple[Bool, list[Bool]]:
        """From `at_least` to two valid players in seat order (one including the marked player
        when such a group exists); with no such group, nobody."""
        n = board.layout.players
        least = self.clause.rule.get("at_least", 2)
        pairs = [both(valid[a], valid[b]) for a in range(n) for b in range(a + 1, n)]
        anyone = either(*valid) if least == 1 else either(*pairs)
        first = [both(play.target == board.seat(p), valid[p]) for p in range(n)]
        second = [both(play.target2 == board.seat(p), valid[p]) for p in range(n)]
        facts = [
            z3.Implies(play.when, play.has_target == anyone),
            z3.Implies(both(play.when, anyone), either(*first)),
            z3.Implies(both(play.when, play.has_target2),
                       both(either(*second), ult(play.target, play.target2))),
            z3.Implies(play.when, z3.Implies(play.has_target2, play.has_target)),
        ]
        if least == 2:
            facts.append(z3.Implies(play.when, play.has_target2 == anyone))
        for p in range(n):
            others = either(*(valid[q] for q in range(n) if q != p))
            group = both(board.marked(p), valid[p]) if least == 1 else both(board.marked(p), valid[p], others)
            facts.append(z3.Implies(both(play.when, group), either(
                play.target == board.seat(p), both(play.has_target2, play.target2 == board.seat(p)))))
        return anyone, facts

    def apply(self, board: Board, play: Play) -> None:
        fallback = self.fallback(board)
        nobody = both(play.live(board), z3.Not(play.has_target))
        board.consult(fallback.key, fallback, nobody)
        board.note("no_effect", nobody)
        play.stopped = either(play.stopped, nobody)
        for card, counter in board.rnd.countered:
            if self.card in board.layout.edition.cards[card].counters:
                for aimed, seat in play.targets():
                    self.countered(board, play, card, counter, both(aimed, seat != play.actor), seat)

    def countered(self, board: Board, play: Play, card: int, counter: Clause, aimed: Bool, seat: BV) -> None:
        """A chosen player holding a card that counters this one reacts: the card's player is out,
        the holder discards the counter card and draws; the played card's effect stops."""
        bits = board.layout.card_bits
        holds = either(*(both(s.present, s.card == num(card, bits)) for s in board.hand_of(seat)))
        hit = both(play.live(board), aimed, holds)
        board.consult(counter.key, counter, hit)
        if counter.silent:
            return
        board.note("countered", hit)
        board.eliminate(play.actor, hit)
        for slot in board.empty_hand(seat, hit):
            board.discard(seat, slot, both(hit, slot.present))
        aside = counter.rule.get("empty_deck") == "set_aside"
        board.draw_from(seat, aside, counter.key, both(hit, board.alive_at(seat)))
        play.stopped = either(play.stopped, hit)


@encoder("guess")
class Guess(StepEncoder):
    """Name a card (or a value) other than the excluded ones; a hit knocks the target out."""

    def validate(self, rule: object) -> None:
        assert isinstance(rule, dict)
        if rule["on_hit"] not in ("eliminate", "gain_token"):
            raise self.refuse(f"on_hit: {rule['on_hit']}")

    def options(self, board: Board) -> list[int]:
        """What may be named, as the numbers the guess variable holds (card index or value)."""
        facts = board.layout.facts
        allowed = facts.decisions[self.card].guesses
        return [g if isinstance(g, int) else facts.index[g] for g in allowed]

    def check(self, board: Board, play: Play) -> None:
        guessing = both(play.when, play.has_target)
        board.consult(self.clause.key, self.clause, guessing)
        if self.clause.silent:
            return
        bits = play.guess.size()
        board.facts.append(z3.Implies(guessing, either(*(play.guess == num(g, bits)
                                                          for g in self.options(board)))))

    def apply(self, board: Board, play: Play) -> None:
        live = self.consult(board, play)
        if self.clause.silent:
            return
        held = board.first_card(play.target)
        named = board.value(held) if self.clause.rule["by"] == "value" else held
        bits = max(named.size(), play.guess.size())
        right = z3.ZeroExt(bits - named.size(), named) == z3.ZeroExt(bits - play.guess.size(), play.guess)
        hit = both(live, right)
        play.hit = hit
        if self.clause.rule["on_hit"] == "eliminate":
            board.eliminate(play.target, hit)
        else:
            board.gain(play.actor, 1, hit)


@encoder("look")
class Look(StepEncoder):
    """The player privately sees the target's hand (each chosen player's, or the one of the two
    they name): nothing changes on the table."""

    def validate(self, rule: object) -> None:
        if rule not in ("target", "targets", "one_of_targets"):
            raise self.refuse(f"{rule!r}")


@encoder("compare")
class Compare(StepEncoder):
    """Compare hand values; the lower (or higher) one is out; a tie follows the `on_tie` modifier."""

    modifiers = ("on_tie",)

    def apply(self, board: Board, play: Play) -> None:
        live = self.consult(board, play)
        if self.clause.silent:
            return
        mine = board.value(board.first_card(play.actor))
        theirs = board.value(board.first_card(play.target))
        tie = both(live, mine == theirs)
        on_tie = self.modifier("on_tie")
        board.consult(on_tie.key if on_tie else self.missing(board, "on_tie"), on_tie, tie)
        board.note("compare_tie", tie)
        if on_tie is not None and not on_tie.silent and on_tie.rule == "both_out":
            board.eliminate(play.actor, tie)
            board.eliminate(play.target, tie)
        lower_is_mine = ult(mine, theirs)
        mine_loses = lower_is_mine if self.clause.rule["loser"] == "lower" else z3.Not(lower_is_mine)
        loser = ite(mine_loses, play.actor, play.target)
        board.eliminate(loser, both(live, mine != theirs))


@encoder("protect")
class Protect(StepEncoder):
    """The player is protected until the start of their next turn, or to the end of the round (the
    turn's start lifts only the first kind: `Board.lapsing`)."""

    def apply(self, board: Board, play: Play) -> None:
        live = self.consult(board, play)
        board.shield(play.actor, self.clause, live)


@encoder("discard_draw")
class DiscardDraw(StepEncoder):
    """The target discards their hand without its effect (a card that is out when discarded still
    knocks them out), then draws: the set-aside card on an empty pile if `empty_deck` says so."""

    modifiers = ("empty_deck",)

    def apply(self, board: Board, play: Play) -> None:
        live = self.consult(board, play)
        empty_deck = self.modifier("empty_deck")
        stopped = _no_effect(board, empty_deck, live)
        board.discard_and_draw(play.target, empty_deck, both(live, z3.Not(stopped)))


@encoder("draw_return")
class DrawReturn(StepEncoder):
    """Draw N cards, then (the keep decision) keep one and put the others under the pile in a
    chosen order. An empty pile follows `empty_deck`; a short one `short_deck`."""

    modifiers = ("empty_deck", "short_deck")

    def validate(self, rule: object) -> None:
        assert isinstance(rule, dict)
        if rule["to"] != "bottom":
            raise self.refuse("to the top of the pile")

    def apply(self, board: Board, play: Play) -> None:
        live = self.consult(board, play)
        if self.clause.silent:
            return
        draw = self.clause.rule["draw"]
        empty = both(live, board.deck_empty())
        empty_deck, short_deck = self.modifier("empty_deck"), self.modifier("short_deck")
        board.note("draw_return_empty", empty)  # before the rule: a silent one stops the play here
        board.consult(empty_deck.key if empty_deck else self.missing(board, "empty_deck"), empty_deck, empty)
        no_effect = both(empty, z3.BoolVal(empty_deck is not None and empty_deck.rule == "no_effect"))
        go = both(live, z3.Not(no_effect))
        short = both(go, board.ult_deck(draw))
        board.note("draw_return_short", both(short, z3.Not(board.deck_empty())))
        board.consult(short_deck.key if short_deck else self.missing(board, "short_deck"), short_deck, short)
        for _ in range(draw):
            board.draw_top(play.actor, both(go, z3.Not(board.deck_empty())))
        self.keep(board, play, go)
        play.stopped = either(play.stopped, go)

    def keep(self, board: Board, play: Play, go: Bool) -> None:
        """The keep decision: one card stays in hand, the others go under the pile in a chosen
        order. Equal cards are kept and returned in slot order, so each decision is one choice."""
        hand = board.hand_of(play.actor)
        choice = board.keep_choice(len(hand))
        keep, order = choice.keep, choice.order
        bits = keep.size()
        size = sum(ite(slot.present, num(1, bits), num(0, bits)) for slot in hand)
        kept = slot_at(hand, keep)
        rules = [ult(keep, size)]
        rules += [z3.Not(both(ult(num(j, bits), keep), slot.card == kept.card))
                  for j, slot in enumerate(hand)]
        returned: list[tuple[Slot, Bool]] = []
        for i, r in enumerate(order):
            card = slot_at(hand, r)
            here = ult(num(i + 1, bits), size)
            rules.append(ite(here, both(ult(r, size), r != keep), r == num(0, bits)))
            for earlier, (other, _) in zip(order, returned, strict=False):
                rules.append(z3.Implies(here, both(r != earlier, z3.Implies(other.card == card.card,
                                                                             ult(earlier, r)))))
            returned.append((card, here))
        board.facts.append(z3.Implies(go, z3.And(*rules)))
        board.set_hand(play.actor, [kept], go)
        pile = [Slot(here, card.ident, card.card) for card, here in returned]
        for card in pile:
            board.bury(card, both(go, card.present))
        board.record_keep(go, kept.card, pile)


@encoder("trade")
class Trade(StepEncoder):
    """The player and the target (or the two chosen players) exchange hands."""

    def validate(self, rule: object) -> None:
        if rule not in ("target", "targets"):
            raise self.refuse(f"{rule!r}")

    def apply(self, board: Board, play: Play) -> None:
        live = self.consult(board, play)
        if self.clause.silent:
            return
        pair = (play.actor, play.target) if self.clause.rule == "target" else (play.target, play.target2)
        first, second = pair
        mine, theirs = board.hand_of(first), board.hand_of(second)
        board.set_hand(first, theirs, live)
        board.set_hand(second, mine, live)


@encoder("offer_redraw")
class OfferRedraw(StepEncoder):
    """The target (still in; after a right guess when so ruled) decides whether to discard their
    hand and draw, as a discard-and-draw does (`empty_deck` decides an empty pile)."""

    modifiers = ("empty_deck",)

    def validate(self, rule: object) -> None:
        assert isinstance(rule, dict)
        if rule["when"] not in ("hit", "always"):
            raise self.refuse(f"when: {rule['when']}")

    def apply(self, board: Board, play: Play) -> None:
        live = self.consult(board, play)
        if self.clause.silent:
            return
        offered = both(live, play.has_target, board.alive_at(play.target))
        if self.clause.rule["when"] == "hit":
            offered = both(offered, play.hit)
        empty_deck = self.modifier("empty_deck")
        offered = both(offered, z3.Not(_no_effect(board, empty_deck, offered)))
        board.record_offer(offered)
        board.phase = "respond"
        board.discard_and_draw(play.target, empty_deck, both(offered, play.redraw))
        play.stopped = either(play.stopped, offered)


def _no_effect(board: Board, empty_deck: Clause | None, when: Bool) -> Bool:
    """When an `empty_deck: no_effect` modifier stops the step: `when` and an empty pile. The
    modifier is consulted there, as the engine does, so a silent one is a gap."""
    if empty_deck is None:
        return FALSE
    empty = both(when, board.deck_empty())
    board.consult(empty_deck.key, empty_deck, empty)
    return empty if not empty_deck.silent and empty_deck.rule == "no_effect" else FALSE


@encoder("force_next_target")
class ForceNextTarget(StepEncoder):
    """Mark the target: the next card played must choose them when it may (see `Choose`)."""

    def validate(self, rule: object) -> None:
        if rule != "target":
            raise self.refuse(f"{rule!r}")

    def apply(self, board: Board, play: Play) -> None:
        live = self.consult(board, play)
        if not self.clause.silent:
            size = board.s["forced"].size()
            board.set("forced", live, fit(play.target, size) + 1)


@encoder("predict")
class Predict(StepEncoder):
    """Mark the target: if they win the round, the player gains tokens (paid in `Ending`)."""

    def validate(self, rule: object) -> None:
        if not isinstance(rule, dict) or not isinstance(rule.get("amount"), int):
            raise self.refuse(f"{rule!r}")

    def apply(self, board: Board, play: Play) -> None:
        live = self.consult(board, play)
        if self.clause.silent:
            return
        bits = board.layout.seat_bits + 1
        made = board.s[f"predicted{self.card}"]
        for j in range(board.layout.counts[self.card]):
            here = both(live, made == num(j, made.size()))
            board.set(f"predictor{self.card}.{j}", here, fit(play.actor, bits) + 1)
            board.set(f"prediction{self.card}.{j}", here, fit(play.target, bits) + 1)
        board.set(f"predicted{self.card}", live, made + 1)
