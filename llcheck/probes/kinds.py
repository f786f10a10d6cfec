"""One encoder per card-step kind, registered by kind, as `Effects.step_<kind>` interprets them.

An encoder gets the compiled `Step` (its clause and modifiers) and turns it into guarded changes
of the `Board`. `check` states what makes a play of the card legal (the reference engine's
`check`, before the card leaves the hand); `apply` is the effect, run in the card's step order
while the play is live (not stopped, the player still in). A new rule kind is supported by
registering one more class with `@encoder("kind")`; a spec using a kind without an encoder is
refused with `ProbeError` naming the clause.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import z3

from loveletter_ref.spec import Clause, Step

from .board import Board, Slot, slot_at
from .layout import ProbeError
from .terms import BV, FALSE, Bool, both, either, ite, num, ult


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
    stopped: Bool = FALSE

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
                raise ProbeError(f"{modifier.id}: the probes have no encoder for the {name!r} modifier "
                                 f"of {self.kind!r}")
        if not self.clause.silent:
            self.validate(self.clause.rule)

    def validate(self, rule: object) -> None:
        """Refuse parameters the encoder does not model (ProbeError)."""

    def refuse(self, what: str) -> ProbeError:
        """The error for a parameter value this encoder does not model."""
        return ProbeError(f"{self.clause.id}: the probes do not model {self.kind} {what} yet")

    def modifier(self, name: str) -> Clause | None:
        """A modifier clause of this step, if the card states one."""
        return self.step.modifiers.get(name)

    def missing(self, board: Board, modifier: str) -> str:
        """A label for a modifier the card does not state (consulting it is a gap)."""
        return f"{board.layout.edition.cards[self.card].clause.key}.{modifier}"

    def check(self, board: Board, play: Play) -> None:
        """Constraints on the player's choices for a legal play of this card."""

    def apply(self, board: Board, play: Play) -> None:
        """The step's effect."""
        board.consult(self.clause.key, self.clause, play.live(board))


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
    """The encoder of one step; ProbeError when its kind has none."""
    cls = STEPS.get(step.kind)
    if cls is None:
        raise ProbeError(f"{step.clause.id}: the probes have no encoder for the rule kind {step.kind!r}")
    return cls(step, card)


@encoder("choose")
class Choose(StepEncoder):
    """Choose one player still in the round, never one protected against others; else the fallback.

    The player on turn is never protected when they play (protection ends at the start of their
    own turn), so a shield that blocks *choosing* others never restricts them.
    """

    modifiers = ("no_target",)

    def validate(self, rule: object) -> None:
        assert isinstance(rule, dict)
        if rule.get("count", 1) != 1:
            raise self.refuse("of several players")

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
        anyone = either(*valid)
        fallback = self.fallback(board)
        board.consult(fallback.key, fallback, both(play.when, z3.Not(anyone)))
        fallback_self = not fallback.silent and fallback.rule == "self"
        board.facts += [
            z3.Implies(play.when, play.has_target == either(anyone, z3.BoolVal(fallback_self))),
            z3.Implies(both(play.when, anyone),
                       either(*(both(ok, play.target == board.seat(p)) for p, ok in enumerate(valid)))),
            z3.Implies(both(play.when, z3.Not(anyone), z3.BoolVal(fallback_self)), play.target == actor),
        ]
        protected = [board.blocked(p, "chosen_by_others") for p in range(layout.players)]
        chosen = either(*(both(play.target == board.seat(p), protected[p]) for p in range(layout.players)))
        board.note("chose_protected", both(play.when, play.has_target, play.target != actor, chosen))

    def apply(self, board: Board, play: Play) -> None:
        fallback = self.fallback(board)
        nobody = both(play.live(board), z3.Not(play.has_target))
        board.consult(fallback.key, fallback, nobody)
        board.note("no_effect", nobody)
        play.stopped = either(play.stopped, nobody)


@encoder("guess")
class Guess(StepEncoder):
    """Name a card (or a value) other than the excluded ones; a hit knocks the target out."""

    def validate(self, rule: object) -> None:
        assert isinstance(rule, dict)
        if rule["on_hit"] != "eliminate":
            raise self.refuse(f"on_hit: {rule['on_hit']}")

    def options(self, board: Board) -> list[int]:
        """What may be named, as the numbers the guess variable holds (card index or value)."""
        tables = board.layout.tables
        allowed = tables.decisions[self.card].guesses
        return [g if isinstance(g, int) else tables.index[g] for g in allowed]

    def check(self, board: Board, play: Play) -> None:
        guessing = both(play.when, play.has_target)
        board.consult(self.clause.key, self.clause, guessing)
        if self.clause.silent:
            return
        bits = play.guess.size()
        board.facts.append(z3.Implies(guessing, either(*(play.guess == num(g, bits)
                                                          for g in self.options(board)))))

    def apply(self, board: Board, play: Play) -> None:
        live = play.live(board)
        board.consult(self.clause.key, self.clause, live)
        if self.clause.silent:
            return
        held = board.first_card(play.target)
        named = board.value(held) if self.clause.rule["by"] == "value" else held
        bits = max(named.size(), play.guess.size())
        hit = z3.ZeroExt(bits - named.size(), named) == z3.ZeroExt(bits - play.guess.size(), play.guess)
        board.eliminate(play.target, both(live, hit))


@encoder("look")
class Look(StepEncoder):
    """The player privately sees the target's hand: nothing changes on the table."""

    def validate(self, rule: object) -> None:
        if rule != "target":
            raise self.refuse(f"{rule!r}")


@encoder("compare")
class Compare(StepEncoder):
    """Compare hand values; the lower (or higher) one is out; a tie follows the `on_tie` modifier."""

    modifiers = ("on_tie",)

    def apply(self, board: Board, play: Play) -> None:
        live = play.live(board)
        board.consult(self.clause.key, self.clause, live)
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
    """The player is protected until the start of their next turn."""

    def validate(self, rule: object) -> None:
        assert isinstance(rule, dict)
        if rule["until"] != "own_next_turn":
            raise self.refuse(f"until: {rule['until']}")

    def apply(self, board: Board, play: Play) -> None:
        live = play.live(board)
        board.consult(self.clause.key, self.clause, live)
        board.shield(play.actor, self.clause, live)


@encoder("discard_draw")
class DiscardDraw(StepEncoder):
    """The target discards their hand without its effect (a card that is out when discarded still
    knocks them out), then draws: the set-aside card on an empty pile if `empty_deck` says so."""

    modifiers = ("empty_deck",)

    def apply(self, board: Board, play: Play) -> None:
        live = play.live(board)
        board.consult(self.clause.key, self.clause, live)
        target = play.target
        for card in board.empty_hand(target, live):
            still_in = board.alive_at(target)
            board.discard(target, card, both(live, still_in))
            board.to_pile(target, card, both(live, z3.Not(still_in)), played=False)
        board.draw(target, self.modifier("empty_deck"), both(live, board.alive_at(target)))


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
        live = play.live(board)
        board.consult(self.clause.key, self.clause, live)
        if self.clause.silent:
            return
        draw = self.clause.rule["draw"]
        empty = both(live, board.deck_empty())
        empty_deck, short_deck = self.modifier("empty_deck"), self.modifier("short_deck")
        board.consult(empty_deck.key if empty_deck else self.missing(board, "empty_deck"), empty_deck, empty)
        board.note("draw_return_empty", empty)
        no_effect = both(empty, z3.BoolVal(empty_deck is not None and empty_deck.rule == "no_effect"))
        go = both(live, z3.Not(no_effect))
        short = both(go, board.ult_deck(draw))
        board.consult(short_deck.key if short_deck else self.missing(board, "short_deck"), short_deck, short)
        board.note("draw_return_short", both(short, z3.Not(board.deck_empty())))
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
    """The player and the target exchange hands."""

    def validate(self, rule: object) -> None:
        if rule != "target":
            raise self.refuse(f"{rule!r}")

    def apply(self, board: Board, play: Play) -> None:
        live = play.live(board)
        board.consult(self.clause.key, self.clause, live)
        mine, theirs = board.hand_of(play.actor), board.hand_of(play.target)
        board.set_hand(play.actor, theirs, live)
        board.set_hand(play.target, mine, live)
