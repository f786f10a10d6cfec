"""What the invariants need to know about an edition, read from its spec for one player count.

Nothing here names a card: which card is forced, which one knocks its holder out when discarded,
which one protects, how many tokens a round is worth, all come from the compiled spec. Rule kinds
the invariants do not model (added to the vocabulary later) switch the exact checks that depend
on them off; `unmodelled` says which, so that a report can say so.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from loveletter_ref.spec import Edition, load_spec
from loveletter_ref.spec.facts import facts_for
from loveletter_ref.spec.model import MODIFIER_OF, PROPERTY_KINDS, STEP_KINDS, table_lookup

MODELLED_KINDS = frozenset(STEP_KINDS + PROPERTY_KINDS + tuple(MODIFIER_OF))
"""Card rule kinds the invariants model: every step, modifier and property of the vocabulary (a
player knocked out by `out_if_hand_total` is paid like any player knocked out during an action)."""

RULE_SHAPES = {"look": ("target", "targets", "one_of_targets"), "trade": ("target", "targets")}
"""The shapes of string rules the invariants model."""


@dataclass(frozen=True)
class Rules:
    """The facts of one edition at one player count that the invariants check against."""

    edition: Edition
    players: int
    deck: Counter[str]
    """The multiset of cards in play."""
    pile: int
    """Cards in the draw pile right after dealing (the bound on a round's turns)."""
    deal: int
    set_aside: int
    face_up: int
    turn_draw: int
    first_turn_draw: int | None
    """Cards the round's first player draws on the round's first turn, where an exception to
    `turn_draw` says so (None: no exception at this player count)."""
    forced: dict[str, frozenset[str]]
    """Card -> the cards that, held with it, force it to be played."""
    out_any_reason: frozenset[str]
    out_when_played: frozenset[str]
    protectors: frozenset[str]
    """Cards whose play protects their player."""
    shield_blocks_choosing: bool
    """Every protection keeps other players' cards from choosing the protected player."""
    shield_blocks_own_choices: bool
    """Some protection keeps its player from choosing others."""
    draw_return: dict[str, int]
    """Card -> how many cards it draws before its player keeps one."""
    choosers: dict[str, str]
    """Card -> `other` or `any`: whom it may choose."""
    groups: dict[str, tuple[int, int, bool]]
    """Card choosing several players -> (most, fewest, whether the player names one to look at)."""
    guesses: dict[str, tuple[str | int, ...]]
    """Card -> the names (or values) it may guess."""
    markers: frozenset[str]
    """Cards whose target must be chosen by the next card played, when that card can choose them."""
    hit_tokens: frozenset[str]
    """Cards whose correct guess earns their player a token instead of knocking the target out."""
    counters: dict[str, frozenset[str]]
    """Card -> the cards that, choosing its holder, knock their own player out instead."""
    predictions: dict[str, int]
    """Card -> tokens its player gains when the player it marked wins the round."""
    eliminated_tokens: dict[str, int]
    """Card -> tokens a player gains when knocked out with the card already in their discards."""
    round_tokens: int
    bonuses: tuple[tuple[str, int], ...]
    """(card, amount): the sole player still in with the card in their discards gains amount."""
    values: dict[str, int]
    showdown_bonus: dict[str, int]
    """Card -> what each copy in a player's discards adds to their hand at the showdown."""
    loses_to: dict[str, frozenset[str]]
    """Card -> the cards it loses to at the showdown whatever the values."""
    tie: tuple[str, ...]
    """The showdown's tie-break chain."""
    mid_round_ends: bool
    """A token gained during a round that reaches the target ends the game at once."""
    target: int
    """Tokens that win the game."""
    winnerless: bool
    """A round may end without a winner (a tie chain ending in `nobody`, or `all_eliminated`)."""
    unmodelled: frozenset[str]
    """Rule kinds of this spec that the invariants do not model."""

    @property
    def exact_tokens(self) -> bool:
        """True when every way of gaining tokens is modelled, so gains can be checked exactly."""
        return not self.unmodelled

    def rests_on(self, kinds: tuple[str, ...]) -> list[str]:
        """The clauses a property of the given rule kinds rests on: full ids of this spec's clauses
        of those kinds, in spec order, or the turn rule's alone when it has none."""
        found = [c.id for c in self.edition.clauses.values() if c.kind in kinds]
        return found or [self.edition.general["turn_play"].id]


@lru_cache(maxsize=64)
def rules_for(edition: str | Edition, players: int) -> Rules:
    """The rules of `edition` (bundled id, path or compiled spec) for `players` players."""
    spec = load_spec(edition) if not isinstance(edition, Edition) else edition
    facts = facts_for(spec, players)
    general = spec.general
    names = spec.names
    deck = Counter(names[c] for c in facts.deck)
    set_aside = facts.number("set_aside")
    face_up = facts.number("face_up")
    deal = general["deal"].need()
    steps = {card.name: {step.kind: step for step in card.steps} for card in spec.cards}
    shields = [clause.rule for clause in facts.shields]
    return Rules(
        edition=spec, players=players, deck=deck,
        pile=sum(deck.values()) - set_aside - face_up - deal * players,
        deal=deal, set_aside=set_aside, face_up=face_up, turn_draw=general["turn_draw"].need(),
        first_turn_draw=table_lookup(facts.first_turn[0].need(), players) if facts.first_turn else None,
        forced={names[card]: frozenset(names[i] for i in forcing) for card, forcing, _ in facts.forcing},
        out_any_reason=_out(spec, "any_reason"), out_when_played=_out(spec, "when_played"),
        protectors=frozenset(name for name, by_kind in steps.items() if "protect" in by_kind),
        shield_blocks_choosing=bool(shields) and all("chosen_by_others" in rule["blocks"]
                                                     for rule in shields),
        shield_blocks_own_choices=any("choosing_others" in rule["blocks"] for rule in shields),
        draw_return={name: by_kind["draw_return"].clause.rule["draw"]
                     for name, by_kind in steps.items() if "draw_return" in by_kind},
        choosers={name: by_kind["choose"].clause.rule["who"]
                  for name, by_kind in steps.items() if "choose" in by_kind},
        groups={name: _group(by_kind) for name, by_kind in steps.items()
                if "choose" in by_kind and by_kind["choose"].clause.rule.get("count", 1) > 1},
        guesses={names[card]: decision.guesses for card, decision in enumerate(facts.decisions)
                 if decision.guess is not None},
        markers=frozenset(name for name, by_kind in steps.items() if "force_next_target" in by_kind),
        hit_tokens=frozenset(name for name, by_kind in steps.items() if "guess" in by_kind
                             and by_kind["guess"].clause.rule.get("on_hit") == "gain_token"),
        counters={card.name: frozenset(names[i] for i in card.counters)
                  for card in spec.cards if card.counter is not None},
        predictions={name: by_kind["predict"].clause.rule["amount"]
                     for name, by_kind in steps.items() if "predict" in by_kind},
        eliminated_tokens={card.name: card.eliminated_token.rule for card in spec.cards
                           if card.eliminated_token is not None},
        round_tokens=general["round_tokens"].need(),
        bonuses=tuple((names[card], clause.rule["amount"]) for card, clause in facts.bonuses),
        values=dict(zip(names, facts.values, strict=True)),
        showdown_bonus={card.name: card.showdown_bonus.rule for card in spec.cards
                        if card.showdown_bonus is not None},
        loses_to={names[card]: frozenset(names[i] for i in losing)
                  for card, losing in enumerate(facts.loses_to) if losing},
        tie=tuple(general["tie"].need()),
        mid_round_ends=general["game_end"].rule.get("mid_round") == "ends_game",
        target=facts.number("tokens_to_win"),
        winnerless=general["tie"].need()[-1] == "nobody" or "all_eliminated" in general,
        unmodelled=_unmodelled(spec),
    )


def _out(spec: Edition, when: str) -> frozenset[str]:
    return frozenset(card.name for card in spec.cards
                     if card.discard_out is not None and card.discard_out.rule == when)


def _group(by_kind: dict[str, Any]) -> tuple[int, int, bool]:
    """(most, fewest, names one to look at) for a card choosing several players."""
    rule = by_kind["choose"].clause.rule
    look = by_kind.get("look")
    return rule["count"], rule.get("at_least", rule["count"]), look is not None and \
        look.clause.rule == "one_of_targets"


def _unmodelled(spec: Edition) -> frozenset[str]:
    """Rule kinds (and rule shapes) of `spec` outside what the invariants model."""
    out = {f"game_end:{key}" for key in spec.general["game_end"].rule if key not in ("several", "mid_round")}
    for clause in spec.clauses.values():
        if clause.card is None or clause.kind == "card":
            continue
        rule = clause.rule
        if clause.kind not in MODELLED_KINDS:
            out.add(clause.kind)
        elif clause.kind in RULE_SHAPES and rule not in RULE_SHAPES[clause.kind]:
            out.add(f"{clause.kind}:{rule}")
        elif clause.kind == "guess" and rule.get("on_hit") not in ("eliminate", "gain_token"):
            out.add(f"guess:on_hit:{rule.get('on_hit')}")
    return frozenset(out)
