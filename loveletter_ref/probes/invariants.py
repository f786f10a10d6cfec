"""State invariants, proved by induction over one turn, and used as lemmas.

The invariant Φ is a list of small *parts*: pointers in range, every held or pending card typed
as dealt, every card identity in exactly one place and the places holding the whole deck, one
card per player still in and none for the others, the pile never growing beyond what the
draw-and-return cards played can put back; and, while the round runs, cards left to draw, two
players in, the player on turn one of them. Φ holds after the deal; if from *any* running state
satisfying Φ one turn always leads to a state satisfying each part (the free one-turn encoding,
`free=True`), Φ holds in every reachable state, whatever the round's length. Each part is
checked on its own: a solver refutes one small violation far faster than their disjunction.
"""

from __future__ import annotations

import z3

from .terms import Bool, at_least, both, either, num, select, ule, ult
from .unroll import RoundEncoding

State = dict[str, z3.ExprRef]
Part = tuple[str, Bool]


def places(rnd: RoundEncoding, state: State) -> list[tuple[str, Bool, z3.ExprRef]]:
    """Where card identities are remembered one by one: hands, cards put back, and played copies
    of draw-and-return cards."""
    layout = rnd.layout
    out = [(f"hand {p}", state[f"held{p}"], state[f"id{p}"]) for p in range(layout.players)]
    out += [(f"returned card {r}", live_return(rnd, state, r), rnd.ret_id[r]) for r in range(layout.returns)]
    for c, copies in rnd.spent.items():
        used = state[f"used{c}"]
        out += [(f"played {layout.names[c]} {j}", ult(num(j, used.size()), used), ident)
                for j, ident in enumerate(copies)]
    return out


def live_return(rnd: RoundEncoding, state: State, r: int) -> Bool:
    """The r-th card put under the pile is still in the pile."""
    position = num(rnd.layout.pile + r, rnd.layout.index_bits)
    return both(ule(state["top"], position), ult(position, state["end"]))


def identity_parts(rnd: RoundEncoding, state: State) -> list[Part]:
    """Each remembered card is in no other place (the dealt pile, the set-aside and face-up
    cards, another remembered place), and the places together hold the deck exactly once."""
    layout = rnd.layout
    ib = layout.index_bits
    top, end, aside = state["top"], state["end"], state["aside"]
    found = places(rnd, state)
    parts = []
    for i, (name, here, ident) in enumerate(found):
        in_pile = both(ule(top + layout.base, ident), ult(ident, num(layout.size, ib)))
        face_up = both(ule(num(layout.set_aside, ib), ident),
                       ult(ident, num(layout.set_aside + layout.face_up, ib)))
        elsewhere = [in_pile, ult(ident, aside), face_up]
        elsewhere += [both(there, ident == other) for _, there, other in found[i + 1:]]
        parts.append((f"{name} is in one place", z3.Implies(here, z3.Not(either(*elsewhere)))))
    total = sum((z3.If(state[f"held{p}"], num(1, ib), num(0, ib)) for p in range(layout.players)),
                num(0, ib))
    total = total + (end - top) + aside + layout.face_up + state["discards"]
    parts.append(("every card is somewhere", total == num(layout.size, ib)))
    return parts


def misplaced(rnd: RoundEncoding, state: State) -> Bool:
    """Some card identity is in two places, or the places do not hold every card exactly once."""
    return z3.Not(both(*(f for _, f in identity_parts(rnd, state))))


def hand_parts(rnd: RoundEncoding, state: State) -> list[Part]:
    """A player still in holds a card, a player who is out holds none."""
    return [(f"seat {p} holds a card exactly while in", state[f"alive{p}"] == state[f"held{p}"])
            for p in range(rnd.layout.players)]


def range_parts(rnd: RoundEncoding, state: State) -> list[Part]:
    """Pointers and codes within their ranges; every held or pending card typed as dealt."""
    layout = rnd.layout
    ib, cb = layout.index_bits, layout.card_bits
    parts: list[Part] = [("pile pointers in range", both(
        ule(state["top"], state["end"]), ule(num(layout.pile, ib), state["end"]),
        ule(state["end"], num(layout.queue, ib)), ule(state["aside"], num(layout.set_aside, ib)),
        ule(state["discards"], num(layout.size, ib))))]
    for p in range(layout.players):
        ident, card = state[f"id{p}"], state[f"card{p}"]
        parts.append((f"seat {p}'s card is typed as dealt", both(
            ult(ident, num(layout.size, ib)), ule(card, num(layout.kinds - 1, cb)),
            z3.Implies(state[f"held{p}"], card == select(ident, rnd.deal)))))
        if rnd.shields:
            parts.append((f"seat {p}'s protection code in range",
                          ule(state[f"shield{p}"], num(len(rnd.shields), rnd.shield_bits))))
    for r in range(layout.returns):
        ident = rnd.ret_id[r]
        typed = both(ult(ident, num(layout.size, ib)), rnd.ret_card[r] == select(ident, rnd.deal))
        parts.append((f"returned card {r} typed as dealt", z3.Implies(live_return(rnd, state, r), typed)))
    back = num(0, ib)
    for c, copies in rnd.spent.items():
        used = state[f"used{c}"]
        typed = [z3.Implies(ult(num(j, used.size()), used),
                            both(ult(ident, num(layout.size, ib)), select(ident, rnd.deal) == num(c, cb)))
                 for j, ident in enumerate(copies)]
        parts.append((f"played {layout.names[c]} cards typed as dealt",
                      both(ule(used, num(len(copies), used.size())), *typed)))
        back = back + z3.ZeroExt(ib - used.size(), used) * rnd.draws_back(c)
    parts.append(("the pile grows only by cards put back", ule(state["end"] - layout.pile, back)))
    return parts


def running_parts(rnd: RoundEncoding, state: State) -> list[Part]:
    """A running round has cards to draw, two players in, and one of them on turn."""
    layout = rnd.layout
    alive = [state[f"alive{p}"] for p in range(layout.players)]
    actor = state["actor"]
    running = both(ult(state["top"], state["end"]), at_least(alive, 2),
                   ule(actor, num(layout.players - 1, layout.seat_bits)),
                   select(actor, alive))
    return [("a running round can go on", z3.Implies(state["run"], running))]


def lemma_parts(rnd: RoundEncoding, state: State) -> list[Part]:
    """Candidate lemmas beyond Φ: facts of every round in the editions that Φ does not need and
    a deck's rules may break. Each is kept when it holds after the deal and one turn from any
    running state satisfying Φ and every candidate kept keeps it (the others are dropped until
    none is: the largest inductive subset, whatever order they are listed in). A kept lemma
    strengthens the one-turn proofs: the arbitrary state they start from is more like a real one."""
    layout = rnd.layout
    alive = [state[f"alive{p}"] for p in range(layout.players)]
    out: list[Part] = [("someone is still in", at_least(alive, 1))]
    if layout.set_aside:
        full = state["aside"] == num(layout.set_aside, layout.index_bits)
        out.append(("the set-aside cards stay aside while the round runs", z3.Implies(state["run"], full)))
    return out


def parts(rnd: RoundEncoding, state: State) -> list[Part]:
    """Every part of Φ in `state`."""
    return (range_parts(rnd, state) + identity_parts(rnd, state) + hand_parts(rnd, state)
            + running_parts(rnd, state))


def holds(rnd: RoundEncoding, state: State) -> Bool:
    """The invariant Φ in `state`."""
    return both(*(f for _, f in parts(rnd, state)))
