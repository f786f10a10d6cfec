"""Replay a witness with the reference engine, call by call, keeping every state and event.

The catalogue's queries confirm their witnesses on this record: the situation the solver
claims must be visible in the engine's own states and events, during the witness's last call.
`silenced` makes one clause of a spec silent, so that replaying under it shows whether (and
when) the engine consults that clause: it raises RuleGapError naming it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from loveletter_ref.engine import Action, Game
from loveletter_ref.errors import DeckError, IllegalActionError, RuleGapError
from loveletter_ref.spec import Clause, ClauseStatus, Edition, Step

Json = dict[str, Any]


@dataclass
class Moment:
    """One engine call: a round's start (`action` None) or an action, with the states around it."""

    action: Json | None
    before: Json
    after: Json
    events: list[Json]


@dataclass
class Playback:
    """A replay as the engine played it; `gap` is set when it stopped on a rule gap."""

    edition: Edition
    record: Json
    moments: list[Moment] = field(default_factory=list)
    gap: RuleGapError | None = None
    refused: str | None = None
    """Why the engine refused the witness (an illegal action or deal), if it did."""
    calls: int = 0
    """Engine calls the record asks for (round starts and actions)."""
    game: Game | None = None
    stopped: list[Json] = field(default_factory=list)
    """The events the engine logged during the action that stopped on a rule gap, before the gap."""

    @property
    def last(self) -> Moment | None:
        """The last call that completed."""
        return self.moments[-1] if self.moments else None

    def gap_on_last_call(self) -> bool:
        """The engine stopped on a rule gap during the record's very last call."""
        return self.gap is not None and len(self.moments) == self.calls - 1

    def last_events(self) -> list[Json]:
        """The events of the last completed call."""
        return self.last.events if self.last else []

    def final_events(self) -> list[Json]:
        """The events of the record's last call: all of them when it completed, those logged before
        the gap when it stopped on one (a round's end, say, before a silent rule of its tokens)."""
        if self.gap is None:
            return self.last_events()
        return self.stopped if self.gap_on_last_call() else []


def play(edition: Edition, record: Json) -> Playback:
    """Replay `record`; an illegal action or deal stops it, with `refused` saying why."""
    game = Game(edition, record["players"], first_player=record.get("first_player", 0),
                tokens=record.get("tokens"))
    out = Playback(edition, record, game=game)
    out.calls = sum(1 + len(r["actions"]) for r in record["rounds"])
    logged: int | None = None  # the engine's log length before the action being applied (None: a deal)
    try:
        for round_ in record["rounds"]:
            before = game.state()
            logged = None
            events = game.start_round(round_["deck"], first_player=round_.get("first"))
            out.moments.append(Moment(None, before, game.state(), events))
            for action in round_["actions"]:
                before = game.state()
                logged = len(game.log)
                events = game.apply(Action.from_json(action))
                out.moments.append(Moment(action, before, game.state(), events))
    except RuleGapError as gap:
        out.gap = gap
        out.stopped = [] if logged is None else game.log[logged:]
    except (IllegalActionError, DeckError) as refusal:
        out.refused = f"the reference engine refuses call {len(out.moments) + 1} of the witness: {refusal}"
    return out


CARD_SETS = {"forced": "forced_with", "counter": "counters", "loses_clause": "loses_to"}
"""Card properties naming other cards, and the card ids compiled from them (empty when silent)."""


def silenced(edition: Edition, key: str) -> Edition:
    """A copy of `edition` in which the clause `key` is silent (KeyError if there is none),
    compiled as the spec compiler would compile it."""
    old = edition.clause_by_key(key)
    if old is None:
        raise KeyError(key)
    new = dataclasses.replace(old, status=ClauseStatus.SILENT, rule=None,
                              silence="silenced to see where the engine consults it")

    def swap(value: Any) -> Any:
        return new if value is old else value

    cards = []
    for card in edition.cards:
        changes = {f.name: swap(getattr(card, f.name)) for f in dataclasses.fields(card)
                   if isinstance(getattr(card, f.name), Clause)}
        for clause_field, names_field in CARD_SETS.items():
            if getattr(card, clause_field, None) is old and hasattr(card, names_field):
                changes[names_field] = frozenset()
        steps = tuple(Step(s.kind, swap(s.clause), {k: swap(m) for k, m in s.modifiers.items()})
                      for s in card.steps)
        cards.append(dataclasses.replace(card, steps=steps, **changes))
    return dataclasses.replace(
        edition, cards=tuple(cards),
        clauses={cid: swap(c) for cid, c in edition.clauses.items()},
        general={kind: swap(c) for kind, c in edition.general.items()})
