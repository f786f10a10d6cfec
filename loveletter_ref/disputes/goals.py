"""z3 goals for the exact case in which two rules decide differently.

`clause_applies(key)` asks whether a clause is consulted at all; two rules that agree in part
differ only in some of those consultations, and z3 is better asked about those alone:

- `GapAt(key)`: the round stops on a rule gap naming `key`. Asked of a *narrowed* spec (the
  clause stated as far as both rules agree, open beyond: two tie chains cut after the steps they
  share), it holds exactly where the two rules part.
- `ShieldAtOwnTurn(key)`: a player is still protected by `key`'s shield when their own turn
  comes to play: the only time a shield that stops its holder from choosing others binds.

Both are conditions of the z3 probes (`loveletter_ref.probes`), built on the unrolled round as
its own conditions are; this module imports the probes (and so z3), and is imported only where the probes are.
"""

from __future__ import annotations

from loveletter_ref.probes.conditions import ClauseApplies, Condition, Happening, gap_named
from loveletter_ref.probes.playback import Playback
from loveletter_ref.probes.terms import FALSE, both, either, num
from loveletter_ref.probes.unroll import RoundEncoding


class GapAt(ClauseApplies):
    """The round stops on a rule gap naming `key` (not merely consults it)."""

    def __init__(self, key: str):
        super().__init__(key)
        self.name = f"gap-at:{key}"

    def _happenings(self, rnd: RoundEncoding, kind: str | None) -> list[Happening]:
        out = [Happening(when, turn.index, phase) for turn in rnd.turns
               for phase, when in turn.gap_keys.get(self.key, {}).items()]
        out += [Happening(when, rnd.layout.depth, "end")
                for when in rnd.ending.board.gap_keys.get(self.key, {}).values()]
        return out

    def confirm(self, playback: Playback) -> str | None:
        return gap_named(playback, f"{playback.edition.prefix}.{self.key}")


class ShieldAtOwnTurn(Condition):
    """A player is protected by the shield of clause `key` when their own turn comes to play: the
    shield outlasts the start of its holder's turn (a shield `until: own_next_turn` ends there)."""

    def __init__(self, key: str):
        self.key = key
        self.name = f"shield-at-own-turn:{key}"

    def happenings(self, rnd: RoundEncoding) -> list[Happening]:
        codes = [i + 1 for i, clause in enumerate(rnd.shields) if clause.key == self.key]
        lasting = [i + 1 for i, clause in enumerate(rnd.shields)
                   if clause.key == self.key and clause.rule["until"] != "own_next_turn"]
        if not codes:
            return []
        bits, seats = rnd.shield_bits, rnd.layout.seat_bits
        out = []
        for turn in rnd.turns:
            held = [both(turn.actor == num(p, seats),
                         either(*(turn.before[f"shield{p}"] == num(code, bits) for code in lasting)))
                    for p in range(rnd.layout.players)] if lasting else [FALSE]
            out.append(Happening(both(turn.running, either(*held)), turn.index, "play"))
        return out

    def confirm(self, playback: Playback) -> str | None:
        last = playback.last
        if last is None or last.action is None or last.action.get("type") != "play":
            return "the witness does not end with a play"
        seat = last.before.get("turn")
        if seat is None or not last.before["protected"][seat]:
            return "the player on turn is not protected when they play"
        return None


def shield_at_own_turn(key: str) -> Condition:
    """The condition of `ShieldAtOwnTurn`."""
    return ShieldAtOwnTurn(key)


def gap_at(key: str) -> Condition:
    """The condition of `GapAt`."""
    return GapAt(key)

