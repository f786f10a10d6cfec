"""Conditions: situations a round may reach, as formulas over the unrolled round and as checks on
the reference engine's replay of a witness.

A condition lists its *happenings*: a formula and the point of the round where it happens
(a turn and a phase, or the round's end). The solver asks whether any of them can hold; the
earliest one that holds in the model decides where the witness stops. `confirm` then checks
the same situation on the engine's replay of that witness, during its last call.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import z3

from .layout import Layout
from .playback import Playback, play, silenced
from .terms import TRUE, Bool, at_least, both, either, num
from .unroll import RoundEncoding, Turn

PHASE_ORDER = {"start": 0, "play": 1, "respond": 2, "after": 3, "end": 4, "next": 5}


@dataclass(frozen=True)
class Happening:
    """Where a condition may hold: during `turn` (its start, its play, its end), or at the round's end."""

    when: Bool
    turn: int
    phase: str

    @property
    def order(self) -> tuple[int, int]:
        """Position in the round, for finding the earliest."""
        return self.turn, PHASE_ORDER[self.phase]


class Condition:
    """A situation to look for. Subclasses define `name`, `happenings` and `confirm`."""

    name: str
    uses_tokens = False
    """True when the situation depends on the tokens the players hold before the round."""
    bounded = False
    """True when the situation is about the round's length (only the bounded search may answer)."""
    playable = False
    """True when `confirm` tells from any engine call's states and events whether the situation
    arose during it: seeded playouts (`playouts.py`) may then look for a witness by play."""

    def applicable(self, layout: Layout) -> str | None:
        """Why the situation cannot arise for this spec and player count at all, or None."""
        return None

    def happenings(self, rnd: RoundEncoding) -> list[Happening]:
        """The formulas, each with where in the round it holds."""
        raise NotImplementedError

    def in_state(self, rnd: RoundEncoding, state: dict[str, z3.ExprRef]) -> Bool | None:
        """For a situation that is a property of the state between turns: that property (else None).

        Such a situation is proved unreachable by induction when it does not hold after the deal
        and no turn from a state without it (and satisfying Φ) leads to one with it.
        """
        return None

    def confirm(self, playback: Playback) -> str | None:
        """None when the engine's replay shows the situation during its last call, else what is wrong."""
        raise NotImplementedError

    def __str__(self) -> str:
        return self.name


def per_turn(rnd: RoundEncoding, phase: str, formula: Callable[[Turn], Bool]) -> list[Happening]:
    """One happening per turn, from `formula(turn)`."""
    return [Happening(formula(turn), turn.index, phase) for turn in rnd.turns]


def at_end(rnd: RoundEncoding, formula: Bool) -> list[Happening]:
    """A happening at the round's end."""
    return [Happening(formula, rnd.layout.depth, "end")]


def seen(rnd: RoundEncoding, name: str, phase: str) -> list[Happening]:
    """The turns in which the encoding observed `name` (in `phase`, or a later decision of the same
    action: the target's answer to an offer)."""
    out = []
    for turn in rnd.turns:
        for where, when in turn.seen_at.get(name, {}).items():
            out.append(Happening(when, turn.index, where if where == "respond" else phase))
    return out


SETUP_KINDS = ("deck_size", "set_aside", "face_up", "deal")
"""General rules consulted once, when the round is dealt. (The first player is an input of a
round: the engine never consults `first_player`.)"""

TOKEN_KINDS = frozenset({"game_end", "tokens_to_win", "next_first", "round_tokens", "bonus_token",
                         "token_if_eliminated"})
"""Rule kinds whose consultation depends on the tokens the players hold before the round."""

ENGINE_RAISES_WHEN_SILENT = frozenset({
    "choose", "no_target", "no_valid_target", "look", "compare", "on_tie", "protect", "discard_draw",
    "empty_deck", "draw_return", "short_deck", "trade", "out_if_discarded", "bonus_token", "set_aside",
    "face_up", "deal", "turn_order", "last_standing", "all_eliminated", "deck_empty", "showdown", "tie",
    "round_tokens", "tokens_to_win", "game_end", "next_first", "predict", "force_next_target", "offer_redraw",
    "token_if_eliminated", "deck_size",
})
"""Rule kinds the reference engine consults through `Clause.need()`: silenced, they raise RuleGapError
where the probes say the rule applies. (It applies `turn_draw`, `turn_play`, `elimination` and
`forced_with` without asking, and refuses a play whose `guess` rule is silent as illegal rather
than stopping on a gap.)"""


class ClauseApplies(Condition):
    """The clause with this key (card rule or general rule) decides something during the round.

    The players start the round with `tokens` when given; otherwise with any tokens below the
    target for a rule that depends on them (the game's end, the next round's first player,
    tokens paid), and with none for the others.
    """

    uses_tokens = True

    def __init__(self, key: str, tokens: Sequence[int] | None = None):
        self.key = key
        self.tokens = None if tokens is None else tuple(tokens)
        self.name = f"clause-applies:{key}"

    def happenings(self, rnd: RoundEncoding) -> list[Happening]:
        clause = rnd.edition.clause_by_key(self.key)
        kind = clause.kind if clause is not None else None
        if self.tokens is not None:
            start = both(*(t == num(v, t.size()) for t, v in zip(rnd.tokens, self.tokens, strict=True)))
        elif kind in TOKEN_KINDS:
            start = TRUE
        else:
            start = both(*(t == num(0, t.size()) for t in rnd.tokens))
        return [Happening(both(start, h.when), h.turn, h.phase) for h in self._happenings(rnd, kind)]

    def _happenings(self, rnd: RoundEncoding, kind: str | None) -> list[Happening]:
        if kind in SETUP_KINDS:
            return [Happening(TRUE, 0, "start")]
        out = []
        for turn in rnd.turns:
            for phase, when in turn.consulted.get(self.key, {}).items():
                out.append(Happening(when, turn.index, phase))
            for phase, when in turn.gap_keys.get(self.key, {}).items():
                out.append(Happening(when, turn.index, phase))
        ending = rnd.ending
        for when in ending.board.consulted.get(self.key, {}).values():
            out.append(Happening(when, rnd.layout.depth, "end"))
        for when in ending.board.gap_keys.get(self.key, {}).values():
            out.append(Happening(when, rnd.layout.depth, "end"))
        if kind == "next_first":
            next_round = both(ending.done, z3.Not(either(*ending.reached)))
            out.append(Happening(next_round, rnd.layout.depth, "next"))
        return out

    def confirm(self, playback: Playback) -> str | None:
        edition = playback.edition
        clause = edition.clause_by_key(self.key)
        full = f"{edition.prefix}.{self.key}"
        if clause is None or clause.silent:
            return gap_named(playback, full)
        if clause.kind not in ENGINE_RAISES_WHEN_SILENT:
            return None
        record = playback.record
        if clause.kind == "look":  # silenced, a look step names nobody to look at
            mine = clause.card
            rounds = [{**r, "actions": [{k: v for k, v in a.items() if k != "look" or a["card"] != mine}
                                        for a in r["actions"]]} for r in record["rounds"]]
            record = {**record, "rounds": rounds}
        quiet = play(silenced(edition, self.key), record)
        return quiet.refused or gap_named(quiet, full, silenced_first=True)


class RoundWonBy(Condition):
    """A round ends, the game goes on, and it was won by several players or by nobody (`cases`):
    where the next-round rule `key` must say who starts (its parts `several` and `none`)."""

    uses_tokens = True

    def __init__(self, key: str, cases: Sequence[str]):
        self.key = key
        self.cases = tuple(cases)
        self.name = f"round-won-by:{'/'.join(self.cases)}"

    def happenings(self, rnd: RoundEncoding) -> list[Happening]:
        ending = rnd.ending
        won = {"several": at_least(ending.winners, 2), "none": z3.Not(either(*ending.winners))}
        goes_on = both(ending.done, z3.Not(either(*ending.reached)), either(*(won[c] for c in self.cases)))
        return [Happening(goes_on, rnd.layout.depth, "next")]

    def confirm(self, playback: Playback) -> str | None:
        if playback.gap is not None:  # the spec leaves the case out
            return gap_named(playback, f"{playback.edition.prefix}.{self.key}")
        ends = [e for m in playback.moments for e in m.events if e["type"] == "round_end"]
        counts = {"several": lambda k: k >= 2, "none": lambda k: k == 0}
        if any(counts[c](len(e["winners"])) for e in ends[-1:] for c in self.cases):
            return None
        return f"the reference engine's replay does not end a round won by {' or '.join(self.cases)}"


def gap_named(playback: Playback, clause_id: str, silenced_first: bool = False) -> str | None:
    """None when the replay stops on a rule gap naming `clause_id` during its last call."""
    how = "with the clause silenced, " if silenced_first else ""
    if playback.gap is None:
        return f"{how}the reference engine plays the whole witness without consulting {clause_id}"
    if playback.gap.clause != clause_id:
        return f"{how}the reference engine stops on {playback.gap.clause}, not {clause_id}"
    if not playback.gap_on_last_call():
        return (f"{how}the reference engine consults {clause_id} at call {len(playback.moments) + 1}, "
                f"before the witness's last call ({playback.calls})")
    return None


def clause_applies(key: str, tokens: Sequence[int] | None = None) -> Condition:
    """The condition: the clause `key` (e.g. ``round.tie``) decides something, in a
    round the players start with `tokens` (default: any below the target when they matter)."""
    return ClauseApplies(key, tokens)


def round_won_by(key: str, cases: Sequence[str]) -> Condition:
    """The condition: a round is won by several players or by nobody (`cases`: `several`, `none`)
    and the game goes on, so the next-round rule `key` is asked about that case."""
    return RoundWonBy(key, cases)
