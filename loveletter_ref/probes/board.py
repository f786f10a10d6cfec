"""The symbolic round state while one turn is encoded, and the mechanics several rules share.

A `Board` starts from the state variables before a turn and is changed by guarded operations:
each takes `when`, the condition under which it happens, and leaves everything unchanged
otherwise. Hands are short lists of `Slot`s kept compact (present slots first), like the
reference engine's lists; a slot holds a card identity and its type. The shared mechanics
mirror `loveletter_ref.engine.effects`: discarding, drawing, knocking a player out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

import z3

from loveletter_ref.spec import Clause

from .terms import BV, FALSE, TRUE, Bool, both, either, fit, ite, num, select, ule, ult, width

if TYPE_CHECKING:
    from .unroll import RoundEncoding


class Slot(NamedTuple):
    """One place in a hand: whether a card is there, its identity, its type."""

    present: Bool
    ident: BV
    card: BV

    def where(self, cond: Bool, other: Slot) -> Slot:
        """This slot when `cond` holds, else `other`."""
        return Slot(ite(cond, self.present, other.present), ite(cond, self.ident, other.ident),
                    ite(cond, self.card, other.card))


def slot_at(hand: Sequence[Slot], index: BV) -> Slot:
    """The slot at a symbolic position of a hand."""
    out = hand[-1]
    for j in range(len(hand) - 2, -1, -1):
        out = hand[j].where(index == num(j, index.size()), out)
    return out


class KeepChoice(NamedTuple):
    """The keep decision's variables: the position kept, and the positions returned, in order."""

    keep: BV
    order: list[BV]


class Board:
    """The round state during one turn, with guarded operations."""

    def __init__(self, rnd: RoundEncoding, state: dict[str, z3.ExprRef], turn: int):
        layout = rnd.layout
        self.rnd = rnd
        self.layout = layout
        self.turn = turn
        self.s = dict(state)
        self.phase = "start"
        self.hands: list[list[Slot]] = [
            [Slot(state[f"held{p}"], state[f"id{p}"], state[f"card{p}"])]
            for p in range(layout.players)]
        self.gap: Bool = FALSE
        self.consulted: dict[str, dict[str, Bool]] = {}
        self.gaps: dict[str, dict[str, Bool]] = {}
        self.gap_keys: dict[str, dict[str, Bool]] = {}
        self.seen_at: dict[str, dict[str, Bool]] = {}
        """The observations by the phase of the turn in which they were made."""
        self.facts: list[Bool] = []
        self.keeping: Bool = FALSE
        self.offered: Bool = FALSE
        """The target of this turn's card was offered to discard and draw (a respond decision)."""
        self.halted: Bool = FALSE
        """A token gained during this turn ended the game at once."""
        self.kept: BV = num(0, layout.card_bits)
        self.returned: list[Slot] = []
        self._keep_choice: KeepChoice | None = None
        self.absent = Slot(FALSE, num(0, layout.index_bits), num(0, layout.card_bits))

    # -- small readers ---------------------------------------------------------------------------

    def seat(self, p: int) -> BV:
        """A seat number as a term."""
        return num(p, self.layout.seat_bits)

    def alive(self, p: int) -> Bool:
        """Seat p is still in the round."""
        return self.s[f"alive{p}"]

    def alive_at(self, x: BV) -> Bool:
        """The seat `x` (symbolic) is still in the round."""
        return select(x, [self.alive(p) for p in range(self.layout.players)])

    def blocked(self, p: int, block: str) -> Bool:
        """Seat p is protected by a clause that blocks `block` (chosen_by_others, choosing_others)."""
        return either(*(self.s[f"shield{p}"] == num(i + 1, self.rnd.shield_bits)
                        for i, clause in enumerate(self.rnd.shields) if block in clause.rule["blocks"]))

    def lapsing(self, x: BV) -> Bool:
        """Seat x (symbolic) is protected by a clause that ends at the start of their own turn."""
        bits = self.rnd.shield_bits
        codes = [num(i + 1, bits) for i, clause in enumerate(self.rnd.shields)
                 if clause.rule["until"] == "own_next_turn"]
        return select(x, [either(*(self.s[f"shield{p}"] == code for code in codes))
                          for p in range(self.layout.players)])

    def marked(self, p: int) -> Bool:
        """Seat p is marked by a force-next-target step: the next card played must choose them."""
        return self.s["forced"] == num(p + 1, self.s["forced"].size()) if "forced" in self.s else FALSE

    def value(self, card: BV) -> BV:
        """A card type's value."""
        bits = self.layout.value_bits
        return select(card, [num(v, bits) for v in self.layout.values])

    def deck_size(self) -> BV:
        """Cards left in the draw pile."""
        return self.s["end"] - self.s["top"]

    def deck_empty(self) -> Bool:
        """The draw pile is empty."""
        return self.s["end"] == self.s["top"]

    def hand_of(self, x: BV) -> list[Slot]:
        """The hand of seat `x` (symbolic), padded to the longest hand."""
        size = max(len(h) for h in self.hands)
        padded = [h + [self.absent] * (size - len(h)) for h in self.hands]
        out = []
        for j in range(size):
            slot = padded[-1][j]
            for p in range(self.layout.players - 2, -1, -1):
                slot = padded[p][j].where(x == self.seat(p), slot)
            out.append(slot)
        return out

    def first_card(self, x: BV) -> BV:
        """The type of the first card in seat x's hand (what a guess or a comparison reads)."""
        return self.hand_of(x)[0].card

    # -- bookkeeping -----------------------------------------------------------------------------

    def set(self, name: str, when: Bool, term: z3.ExprRef) -> None:
        """Change one state field when `when` holds."""
        self.s[name] = ite(when, term, self.s[name])

    def note(self, name: str, when: Bool) -> None:
        """Record an observation (for the catalogue's queries), unless a gap came first."""
        happens = both(when, z3.Not(self.gap))
        phases = self.seen_at.setdefault(name, {})
        phases[self.phase] = either(phases.get(self.phase, FALSE), happens)

    def consult(self, key: str, clause: Clause | None, when: Bool) -> None:
        """The rule `key` decides something here; a silent (or missing) clause is a rule gap."""
        happens = both(when, z3.Not(self.gap))
        phases = self.consulted.setdefault(key, {})
        phases[self.phase] = either(phases.get(self.phase, FALSE), happens)
        if clause is None or clause.silent:
            self.stop("silent", key, happens)

    def stop(self, category: str, key: str, when: Bool) -> None:
        """A rule gap: the reference engine raises RuleGapError naming `key` and the round stops."""
        happens = both(when, z3.Not(self.gap))
        for table, name in ((self.gaps, category), (self.gap_keys, key)):
            phases = table.setdefault(name, {})
            phases[self.phase] = either(phases.get(self.phase, FALSE), happens)
        self.gap = either(self.gap, happens)

    def keep_choice(self, size: int) -> KeepChoice:
        """This turn's keep variables for a hand of up to `size` cards (made once per turn)."""
        if self._keep_choice is None or len(self._keep_choice.order) < size - 1:
            bits = max(1, size.bit_length())
            order = [z3.BitVec(f"return{i}@{self.turn}", bits) for i in range(size - 1)]
            self._keep_choice = KeepChoice(z3.BitVec(f"keep@{self.turn}", bits), order)
        return self._keep_choice

    def record_offer(self, when: Bool) -> None:
        """Remember that a respond decision is due (for the witness)."""
        self.offered = either(self.offered, when)

    def gain(self, x: BV, amount: int, when: Bool) -> None:
        """Seat x gains tokens during the round; the game-end rule is consulted, and with
        `mid_round: ends_game` reaching the target ends the game at once."""
        rnd = self.rnd
        game_end = rnd.rule("game_end")
        self.consult(rnd.key("game_end"), game_end, when)
        bits = rnd.token_bits
        for p in range(self.layout.players):
            self.set(f"won{p}", both(when, x == self.seat(p)), self.s[f"won{p}"] + num(amount, bits))
        if game_end is None or game_end.silent or game_end.rule.get("mid_round") != "ends_game" \
                or rnd.target is None:
            return
        reached = either(*(ule(num(rnd.target, bits), rnd.tokens[p] + self.s[f"won{p}"])
                           for p in range(self.layout.players)))
        self.halted = either(self.halted, both(when, z3.Not(self.gap), reached))

    def record_keep(self, when: Bool, kept: BV, returned: list[Slot]) -> None:
        """Remember the keep decision for the witness."""
        self.keeping = either(self.keeping, when)
        self.kept = ite(when, kept, self.kept)
        size = max(len(returned), len(self.returned))
        old = self.returned + [self.absent] * (size - len(self.returned))
        new = returned + [self.absent] * (size - len(returned))
        self.returned = [new[i].where(when, old[i]) for i in range(size)]

    # -- hands -----------------------------------------------------------------------------------

    def set_hand(self, x: BV, slots: Sequence[Slot], when: Bool) -> None:
        """Seat x's hand becomes `slots` when `when` holds."""
        for p in range(self.layout.players):
            cond = both(when, x == self.seat(p))
            old = self.hands[p]
            size = max(len(old), len(slots))
            old = old + [self.absent] * (size - len(old))
            new = list(slots) + [self.absent] * (size - len(slots))
            self.hands[p] = [new[j].where(cond, old[j]) for j in range(size)]

    def append(self, x: BV, card: Slot, when: Bool) -> None:
        """Seat x takes `card` into hand, after the cards already there."""
        for p in range(self.layout.players):
            cond = both(when, x == self.seat(p), card.present)
            hand = self.hands[p] + [self.absent]
            out = []
            for j, slot in enumerate(hand):
                free = z3.Not(slot.present) if j == 0 else both(z3.Not(slot.present), hand[j - 1].present)
                out.append(card.where(both(cond, free), slot))
            self.hands[p] = out

    def remove(self, x: BV, index: BV, when: Bool) -> Slot:
        """Take the card at position `index` out of seat x's hand; returns it."""
        taken = slot_at(self.hand_of(x), index)
        for p in range(self.layout.players):
            cond = both(when, x == self.seat(p))
            hand = self.hands[p]
            out = []
            for j, slot in enumerate(hand):
                after = hand[j + 1] if j + 1 < len(hand) else self.absent
                shift = both(cond, ule(index, num(j, index.size())))
                out.append(after.where(shift, slot))
            self.hands[p] = out
        return taken

    def empty_hand(self, x: BV, when: Bool) -> list[Slot]:
        """Seat x's whole hand leaves it; returns the cards in order."""
        cards = self.hand_of(x)
        self.set_hand(x, [], when)
        return cards

    # -- discard piles ---------------------------------------------------------------------------

    def to_pile(self, x: BV, card: Slot, when: Bool, played: bool) -> None:
        """A card goes onto seat x's discard pile (what the round remembers of it)."""
        rnd = self.rnd
        for p in range(self.layout.players):
            cond = both(when, x == self.seat(p), card.present)
            if cond.eq(FALSE):
                continue
            for c in rnd.flagged:
                self.set(f"flag{p}.{c}", both(cond, card.card == num(c, self.layout.card_bits)), TRUE)
            for c in rnd.counted if played else ():
                name = f"played{p}.{c}"
                self.set(name, both(cond, card.card == num(c, self.layout.card_bits)),
                         self.s[name] + 1)
            for c in rnd.piled:
                name = f"piled{p}.{c}"
                self.set(name, both(cond, card.card == num(c, self.layout.card_bits)), self.s[name] + 1)
            if rnd.totals:
                name = f"total{p}"
                add = fit(self.value(card.card), self.layout.total_bits)
                self.set(name, cond, self.s[name] + add)
            if rnd.highest:  # the highest value discarded, plus one (0: nothing discarded yet)
                name = f"top{p}"
                mine = fit(self.value(card.card), self.layout.value_bits + 1) + 1
                self.set(name, both(cond, ult(self.s[name], mine)), mine)
        self.s["discards"] = self.s["discards"] + ite(both(when, card.present),
                                                      num(1, self.layout.index_bits),
                                                      num(0, self.layout.index_bits))

    def discard(self, x: BV, card: Slot, when: Bool) -> None:
        """Seat x discards a card from hand (not played): a card that is out when discarded knocks x out."""
        self.to_pile(x, card, when, played=False)
        for c, clause in self.rnd.outs:
            hit = both(when, card.present, card.card == num(c, self.layout.card_bits))
            self.consult(clause.key, clause, hit)
            if not clause.silent and clause.rule == "any_reason":
                self.eliminate(x, both(hit, self.alive_at(x)))

    def discard_and_draw(self, x: BV, empty_deck: Clause | None, when: Bool) -> None:
        """Seat x discards their hand without its effect (a card that is out when discarded still
        knocks them out, and the rest of the hand goes to their pile), then draws if still in."""
        for card in self.empty_hand(x, when):
            still_in = self.alive_at(x)
            self.discard(x, card, both(when, still_in))
            self.to_pile(x, card, both(when, z3.Not(still_in)), played=False)
        self.draw(x, empty_deck, both(when, self.alive_at(x)))

    def eliminate(self, x: BV, when: Bool) -> None:
        """Knock seat x out: their hand goes to their discard pile without effect."""
        seats = range(self.layout.players)
        paying = [(clause, both(when, select(x, [self.s[f"flag{p}.{c}"] for p in seats])))
                  for c, clause in self.rnd.token_out]
        elimination = self.layout.edition.general.get("elimination")
        self.consult(elimination.key if elimination else "elimination", elimination, when)
        for card in self.empty_hand(x, when):
            self.to_pile(x, card, when, played=False)
        for clause, pays in paying:  # a card already discarded when its holder is knocked out pays
            self.consult(clause.key, clause, pays)
            if not clause.silent:
                self.gain(x, clause.rule, pays)
        for p in range(self.layout.players):
            cond = both(when, x == self.seat(p))
            self.set(f"alive{p}", cond, FALSE)
            if self.rnd.shields:
                self.set(f"shield{p}", cond, num(0, self.rnd.shield_bits))
        self.note("eliminated", when)

    # -- the draw pile ---------------------------------------------------------------------------

    def peek(self) -> Slot:
        """The top card of the draw pile (meaningful only when the pile is not empty).

        A dealt card's type is read by its identity, the way the invariant states it; a card
        put back under the pile by its slot among the returned cards.
        """
        layout, rnd = self.layout, self.rnd
        top: BV = self.s["top"]
        first, last = rnd.window(self.turn)
        dealt_last = min(last, layout.pile - 1)
        dealt = top + layout.base
        if first > dealt_last:
            dealt_card = rnd.deal[-1]
        else:
            lo, hi = layout.base + first, layout.base + dealt_last
            dealt_card = select(dealt, rnd.deal[lo:hi + 1], lo)
        if last < layout.pile:
            return Slot(TRUE, dealt, dealt_card)
        back = range(max(first, layout.pile), last + 1)
        back_id = select(top, [rnd.ret_id[q - layout.pile] for q in back], back[0])
        back_card = select(top, [rnd.ret_card[q - layout.pile] for q in back], back[0])
        under = ult(top, num(layout.pile, layout.index_bits))
        return Slot(TRUE, ite(under, dealt, back_id), ite(under, dealt_card, back_card))

    def draw_top(self, x: BV, when: Bool) -> Slot:
        """Seat x draws the top card of the pile (the caller knows it is not empty)."""
        card = self.peek()
        self.s["top"] = ite(when, self.s["top"] + 1, self.s["top"])
        self.append(x, card, when)
        return card

    def over_limit(self, x: BV, when: Bool) -> Bool:
        """Seat x has just drawn: holding a card whose hand-total limit the hand's values reach
        (`out_if_hand_total`) knocks them out. Returns the condition under which it does."""
        hand = self.hand_of(x)
        bits = self.layout.card_bits
        most = max(self.layout.values) * len(hand)
        total_bits = width(most + 1)
        total = sum((ite(s.present, fit(self.value(s.card), total_bits), num(0, total_bits)) for s in hand),
                    num(0, total_bits))
        out: Bool = FALSE
        for card, clause in self.rnd.limits:
            holds = both(when, self.alive_at(x), either(*(both(s.present, s.card == num(card, bits))
                                                         for s in hand)))
            self.consult(clause.key, clause, holds)
            if clause.silent or clause.rule > most:
                continue
            hit = both(holds, ule(num(clause.rule, total_bits), total))
            self.eliminate(x, hit)
            out = either(out, hit)
        return out

    def draw(self, x: BV, empty_deck: Clause | None, when: Bool) -> None:
        """Seat x draws: the top card, else the set-aside card when the rule allows, else a gap."""
        if empty_deck is not None:
            self.consult(empty_deck.key, empty_deck, both(when, self.deck_empty()))
        aside = empty_deck is not None and not empty_deck.silent and empty_deck.rule == "set_aside"
        key = empty_deck.key if empty_deck is not None else self.rnd.key("turn_draw")
        self.draw_from(x, aside, key, when)

    def draw_from(self, x: BV, aside: bool, key: str, when: Bool) -> None:
        """Seat x draws the top card; on an empty pile the set-aside card if `aside` allows it,
        else the round stops on a gap naming `key`."""
        empty = self.deck_empty()
        self.draw_top(x, both(when, z3.Not(empty)))
        from_aside = FALSE
        if aside and self.layout.set_aside:
            from_aside = both(when, empty, self.s["aside"] != num(0, self.layout.index_bits))
        if not from_aside.eq(FALSE):
            aside = self.s["aside"] - 1
            card = Slot(TRUE, aside, select(aside, self.rnd.deal[:self.layout.set_aside]))
            self.set("aside", from_aside, aside)
            self.append(x, card, from_aside)
            self.note("set_aside_drawn", from_aside)
        self.stop("no_card", key, both(when, empty, z3.Not(from_aside)))
        if self.rnd.limits:
            self.over_limit(x, when)

    def bury(self, card: Slot, when: Bool) -> None:
        """Put a card under the pile (it is the next returned slot)."""
        layout, rnd = self.layout, self.rnd
        put = both(when, card.present)
        end = self.s["end"]
        for r in range(layout.returns):
            here = both(put, end == num(layout.pile + r, layout.index_bits))
            if not here.eq(FALSE):
                self.facts.append(z3.Implies(here, z3.And(rnd.ret_id[r] == card.ident,
                                                          rnd.ret_card[r] == card.card)))
        self.set("end", put, end + 1)

    # -- protection ------------------------------------------------------------------------------

    def shield(self, x: BV, clause: Clause | None, when: Bool) -> None:
        """Seat x is protected by `clause` (None: their protection ends)."""
        if not self.rnd.shields:
            return
        code = 0 if clause is None else self.rnd.shields.index(clause) + 1
        for p in range(self.layout.players):
            self.set(f"shield{p}", both(when, x == self.seat(p)), num(code, self.rnd.shield_bits))

    def unblocked_others(self, x: BV) -> list[Bool]:
        """For each seat: another player than x, still in, whom others may choose."""
        return [both(x != self.seat(p), self.alive(p), z3.Not(self.blocked(p, "chosen_by_others")))
                for p in range(self.layout.players)]

    def hand_sizes_wrong(self) -> Bool:
        """Between turns: someone still in holds other than one card, or someone out holds a card."""
        bad = []
        for p in range(self.layout.players):
            hand = self.hands[p]
            extra = either(*(slot.present for slot in hand[1:]))
            bad.append(ite(self.alive(p), either(z3.Not(hand[0].present), extra),
                           either(hand[0].present, extra)))
        return either(*bad)

    def ult_deck(self, k: int) -> Bool:
        """Fewer than k cards are left in the pile."""
        return ult(self.deck_size(), num(k, self.layout.index_bits))
