"""Clause pairs and player counts: the interactions of rules the corpus must play, declared from
the editions' rule kinds, and the required cases that play each (docs/cases.md, *Pair coverage*).

A *pair* is a clause of an interaction kind and a partner, declared for every clause of these
kinds (no card is named here; everything comes from the editions' rules):

- a forcing rule and every card of its edition that a game deals with the forcing rule's card
  (`forced_with`: a player to play holds the forced card beside the partner; `force_next_target`:
  the partner is the next card played after the rule's mark);
- a protection rule (`protect`) and each boundary its protection must be tested across: the
  protected player's own next turn, and the end of the round (the next round is dealt while they
  are protected);
- a bonus rule (`bonus_token`, `showdown_bonus`, `token_if_eliminated`, `predict`) and each state
  of a *holder*, a player whose discard pile holds the rule's card when the round ends (at a
  showdown, for `showdown_bonus`): still in or out, and alone (no other player still in holds the
  card) or sharing it (another player still in holds it too; declared only for a card with two
  copies or more): `holder out and sharing`.

A required case *covers* a pair when it names the pair's clause and, played on the reference
engine, reaches the pair's situation. A card of a pair is named by its card clause
(`classic.guard`).

A *player-count clause* is one whose number is a table by player count that does not give the
same number at every count its edition allows (`setup.face-up`, `tokens.target`, a card's count
in Premium). Each needs a required case naming it at 2 players and one at 3 or more.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from loveletter_ref.spec import Card, Clause, Edition
from loveletter_ref.spec.model import table_lookup

from ..engines import EngineFailure, ReferenceEngine
from .cases import Case, Json, editions

HELD_BESIDE = ("forced_with",)
"""Forcing rules that hold while their card is in hand: the partner is the card beside it."""

NEXT_PLAYED = {"force_next_target": "force_target"}
"""Forcing rules that bind the next card played, with the event that places their mark."""

PROTECTION = ("protect",)
"""Protection rules: tested across each of `BOUNDARIES`."""

BONUSES = {"bonus_token": None, "showdown_bonus": "showdown", "token_if_eliminated": None, "predict": None}
"""Bonus rules, which pay or count for the player with their card in the discard pile, with the
way a round must end for the rule to matter (None: any end)."""

OWN_NEXT_TURN = "own next turn"
ROUND_END = "round end"
BOUNDARIES = (OWN_NEXT_TURN, ROUND_END)

IN, OUT, ALONE, SHARING = "in", "out", "alone", "sharing"

GROUPS = ("2", "3+")
"""The player-count groups a player-count clause needs a case in: 2 players, and 3 or more."""

_COUNT_KEY = re.compile(r"\d+(-\d+)?")
"""A key of a player-count table: `2`, `5-8`."""


def group_of(players: int) -> str:
    """The player-count group of a game of `players`."""
    return GROUPS[0] if players <= 2 else GROUPS[1]


@dataclass(frozen=True, order=True)
class Pair:
    """A clause and its partner: a card's clause id, a boundary or a holder's state."""

    clause: str
    partner: str

    def __str__(self) -> str:
        return f"{self.clause} + {self.partner}"


def gap_text(clause: str, group: str) -> str:
    """A player-count gap in words: `classic.setup.face-up at 2 players`."""
    return f"{clause} at {group} players"


def holder_state(still_in: bool, alone: bool) -> str:
    """The partner naming a holder's state."""
    return f"holder {IN if still_in else OUT} and {ALONE if alone else SHARING}"


# -- what each edition declares ------------------------------------------------------------------


def _card_rules(edition: Edition, card: Card) -> Iterator[Clause]:
    """The stated rule clauses of a card (its own card clause left out)."""
    for clause in edition.clauses.values():
        if clause.card == card.name and clause.kind != "card" and not clause.silent:
            yield clause


def _players(edition: Edition) -> range:
    return range(edition.min_players, edition.max_players + 1)


def _dealt_with(edition: Edition, card: Card, partner: Card) -> bool:
    """True when some player count deals `partner` together with `card` (a second copy, when
    they are the same card)."""
    wanted = 2 if partner is card else 1
    return any(card.count_for(n) >= 1 and partner.count_for(n) >= wanted for n in _players(edition))


def declared_pairs(edition: Edition) -> list[Pair]:
    """Every pair an edition's rules declare, in the order of its clauses."""
    pairs: list[Pair] = []
    for card in edition.cards:
        copies = max(card.count_for(n) for n in _players(edition))
        for clause in _card_rules(edition, card):
            if clause.kind in HELD_BESIDE or clause.kind in NEXT_PLAYED:
                pairs += [Pair(clause.id, partner.clause.id) for partner in edition.cards
                          if _dealt_with(edition, card, partner)]
            elif clause.kind in PROTECTION:
                pairs += [Pair(clause.id, boundary) for boundary in BOUNDARIES]
            elif clause.kind in BONUSES:
                pairs += [Pair(clause.id, holder_state(still_in, alone))
                          for still_in in (True, False) for alone in (True, False) if alone or copies >= 2]
    return pairs


def player_count_clauses(edition: Edition) -> list[str]:
    """The clauses of an edition whose number depends on the player count, in order."""
    found = []
    for clause in edition.clauses.values():
        if clause.silent:
            continue
        table = clause.rule.get("count") if clause.kind == "card" else clause.rule
        if not isinstance(table, Mapping) or not table or \
                not all(_COUNT_KEY.fullmatch(str(key)) for key in table):
            continue
        if len({table_lookup(table, n) for n in _players(edition)}) > 1:
            found.append(clause.id)
    return found


def groups_of(edition: Edition) -> list[str]:
    """The player-count groups an edition allows."""
    return list(dict.fromkeys(group_of(n) for n in _players(edition)))


# -- what the cases play ---------------------------------------------------------------------------


@dataclass
class _Watch:
    """Follows one case as the reference engine plays it, collecting the pairs it reaches."""

    edition: Edition
    found: set[Pair] = field(default_factory=set)
    shielded: dict[int, str] = field(default_factory=dict)
    """Seat -> the protection rule protecting it."""
    across: set[str] = field(default_factory=set)
    """The protection rules still protecting someone when the last round ended."""
    mark: str | None = None
    """A next-played forcing rule whose mark waits for the next card played."""
    last_play: str | None = None
    """The card of the last `play` event of the round."""
    ended: bool = False
    """True once the round has ended (its end is looked at once)."""

    def card_of(self, name: str) -> Card:
        return self.edition.card(name)

    def rule_of(self, name: str | None, kinds: Iterable[str]) -> str | None:
        """The id of the first rule of one of these kinds of the card called `name`, or None."""
        if name is None:
            return None
        return next((c.id for c in _card_rules(self.edition, self.card_of(name)) if c.kind in kinds), None)

    def dealt(self, events: list[Json], state: Json) -> None:
        """A round was dealt: a protection standing at the end of the last one has crossed it."""
        self.found |= {Pair(clause, ROUND_END) for clause in self.across}
        self.shielded, self.across, self.mark, self.last_play, self.ended = {}, set(), None, None, False
        self.played(events, state)

    def played(self, events: list[Json], state: Json) -> None:
        """What an accepted action caused (its events, the state after it)."""
        reason = None
        for event in events:
            kind, seat = event.get("type"), event.get("player")
            if kind == "play":
                if self.mark is not None:
                    self.found.add(Pair(self.mark, self.card_of(event["card"]).clause.id))
                    self.mark = None
                self.last_play = event["card"]
            elif kind in NEXT_PLAYED.values():
                self.mark = self.rule_of(self.last_play, [k for k, e in NEXT_PLAYED.items() if e == kind])
            elif kind == "protect":
                rule = self.rule_of(self.last_play, PROTECTION)
                if rule is not None and isinstance(seat, int):
                    self.shielded[seat] = rule
            elif kind == "unprotect" and seat in self.shielded:
                self.found.add(Pair(self.shielded.pop(seat), OWN_NEXT_TURN))
            elif kind == "eliminate" and isinstance(seat, int):
                self.shielded.pop(seat, None)
            elif kind == "round_end":
                reason = event.get("reason")
        self._held(state)
        if not self.ended and state.get("phase") in ("round_over", "game_over"):
            self.ended = True
            self._round_end(state, reason)

    def _held(self, state: Json) -> None:
        """The forcing rules held beside another card by the player to play."""
        if state.get("phase") != "play" or not isinstance(state.get("turn"), int):
            return
        hand = list(state["hands"][state["turn"]])
        for name in dict.fromkeys(hand):
            rule = self.rule_of(name, HELD_BESIDE)
            if rule is None:
                continue
            rest = list(hand)
            rest.remove(name)
            self.found |= {Pair(rule, self.card_of(other).clause.id) for other in rest}

    def _round_end(self, state: Json, reason: str | None) -> None:
        """The protections standing and the bonus holders' states when a round ends (`reason`:
        how, from its `round_end` event; None for a game ended during the round)."""
        protected = state.get("protected") or []
        self.across = {rule for seat, rule in self.shielded.items()
                       if seat < len(protected) and protected[seat]}
        out = state.get("eliminated") or []
        for card in self.edition.cards:
            for clause in _card_rules(self.edition, card):
                if clause.kind not in BONUSES or BONUSES[clause.kind] not in (None, reason):
                    continue
                holders = [seat for seat, pile in enumerate(state.get("discards") or []) if card.name in pile]
                for seat in holders:
                    alone = not any(not out[other] for other in holders if other != seat)
                    self.found.add(Pair(clause.id, holder_state(not out[seat], alone)))


def reached(case: Case, edition: Edition) -> set[Pair]:
    """The pairs a case reaches when the reference engine plays it (as far as the engine accepts
    it: a refused step is skipped, as the case expects; a refused action or deal, or a point the
    rules leave open, ends the case)."""
    watch = _Watch(edition)
    with contextlib.suppress(EngineFailure):  # a case the reference cannot play: --validate says so
        _play(case, watch)
    return watch.found


def _play(case: Case, watch: _Watch) -> None:
    engine = ReferenceEngine()
    tokens = list(case.tokens) if case.tokens is not None else [0] * case.players
    for number, round_ in enumerate(case.rounds):
        if round_.get("refused"):
            break
        deck = list(round_["deck"])
        reply = engine.start(case.edition, case.players, deck, case.first_player, tokens) if number == 0 \
            else engine.next_round(deck)
        if not reply.accepted:
            break
        watch.dealt(reply.events, reply.state or {})
        for step in round_.get("steps", ()):
            if step.get("refused"):
                continue
            reply = engine.apply(step["action"])
            if not reply.accepted:
                return
            watch.played(reply.events, reply.state or {})


# -- coverage --------------------------------------------------------------------------------------


@dataclass
class PairCoverage:
    """Which required cases cover each declared pair, and name each player-count clause at each
    player-count group."""

    pairs: dict[Pair, list[str]]
    player_counts: dict[str, dict[str, list[str]]]
    """Player-count clause -> group (`2`, `3+`) -> the ids of the required cases; a group the
    edition does not allow is left out."""

    @property
    def uncovered(self) -> list[Pair]:
        """The pairs no required case covers."""
        return [pair for pair, ids in self.pairs.items() if not ids]

    @property
    def count_gaps(self) -> list[tuple[str, str]]:
        """(clause, group) for every group a player-count clause has no case in."""
        return [(clause, group) for clause, groups in self.player_counts.items()
                for group, ids in groups.items() if not ids]

    def only(self, clauses: set[str]) -> PairCoverage:
        """The coverage of the pairs and player-count clauses of these clauses only."""
        return PairCoverage({pair: ids for pair, ids in self.pairs.items() if pair.clause in clauses},
                            {clause: groups for clause, groups in self.player_counts.items()
                             if clause in clauses})

    def to_json(self) -> dict[str, Any]:
        """The keys `llcheck cases --coverage --json` adds beside `coverage` and `uncovered`."""
        return {"pairs": [{"clause": pair.clause, "with": pair.partner, "cases": ids}
                          for pair, ids in self.pairs.items()],
                "uncovered_pairs": [str(pair) for pair in self.uncovered],
                "player_counts": self.player_counts,
                "player_count_gaps": [gap_text(*gap) for gap in self.count_gaps]}


def pair_coverage(cases: Iterable[Case], known: Mapping[str, Edition] | None = None) -> PairCoverage:
    """The pair and player-count coverage of the required cases over every bundled edition (or
    the editions `known`)."""
    known = editions() if known is None else known
    pairs: dict[Pair, list[str]] = {
        pair: [] for edition in known.values() for pair in declared_pairs(edition)}
    counts: dict[str, dict[str, list[str]]] = {
        clause: {group: [] for group in groups_of(edition)}
        for edition in known.values() for clause in player_count_clauses(edition)}
    wanted = {pair.clause for pair in pairs}
    for case in cases:
        edition = known.get(case.edition)
        if case.status != "required" or edition is None:
            continue
        group = group_of(case.players)
        for clause in case.clauses:
            if clause in counts and group in counts[clause]:
                counts[clause][group].append(case.id)
        if wanted.isdisjoint(case.clauses):
            continue
        for pair in sorted(reached(case, edition)):
            if pair in pairs and pair.clause in case.clauses:
                pairs[pair].append(case.id)
    return PairCoverage(pairs, counts)
