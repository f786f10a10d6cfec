"""Answer conditions for one spec and player count, with z3's SAT-based finite-domain solver
(`SolverFor("QF_FD")`). The one-turn encoding is asserted once into an incremental solver, each
question in a push/pop frame; each bounded search starts a fresh solver from the round's facts
and the proved lemmas, so that it does not inherit the search heuristics of the questions asked
before it (an incremental solver made one search four times slower). Which witness z3 finds
depends only on the input and on what the process asked z3 before, never on the machine or its
load: every solver call is bounded by z3's resource limit (`rlimit`, a count of solver steps),
never by a timeout.

Four ways to an answer, cheapest first:

1. *Induction.* The invariant Φ (`invariants.holds`) is proved once: it holds after the deal,
   and one turn from any running state satisfying it leads to a state satisfying it. This alone
   answers `card-in-two-places` and `hand-size-between-turns`. Candidate lemmas beyond Φ
   (`invariants.lemma_parts`) are then kept as far as they are inductive too.
2. *One turn from any Φ-state.* If a situation cannot arise in one turn (and the round's end)
   from *any* running state satisfying Φ and the lemmas, it cannot arise in any round. What
   happens at the round's end is first asked of the end alone, from any state satisfying them.
3. *Playouts* (when asked for): seeded rounds of the reference engine, watched by the
   condition's own engine-side check; the first that reaches the situation is the witness. The
   first hundred are played before step 2: many situations show at once, where a one-turn search
   for a state that leads to them may take a while.
4. *Bounded search* over the whole round, unrolled as deep as the draw pile: complete, so
   unsatisfiable is a proof and satisfiable gives the witness. The whole round is unrolled only
   when a search first needs it: the proofs above need the deal and one free turn only.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, TypeAlias

import z3

from loveletter_ref.spec import Edition

from .conditions import Condition, Happening
from .invariants import holds, lemma_parts, parts
from .layout import Layout, SetupGap, Unsupported
from .playback import Playback, play
from .playouts import EARLY, SEED, find, playable
from .terms import FALSE, both, either, num, ule
from .unroll import RoundEncoding
from .witness import Replay, extract, setup_witness, story, truth

REACHABLE, UNREACHABLE, UNKNOWN = "reachable", "unreachable", "unknown"

Model: TypeAlias = z3.ModelRef | None

INVARIANT_RLIMIT = 1_000_000_000
"""z3 resource units allowed each solver call of the induction proof of Φ (done once per spec
and player count)."""

ONE_TURN_RLIMIT = 60_000_000
"""At most this many z3 resource units for the one-turn attempt of a question (it also gets at
most a quarter of the question's limit)."""

LEMMA_RLIMIT = 200_000_000
"""z3 resource units allowed each solver call that tries a candidate lemma (once per spec and
player count); a lemma not proved within them is dropped."""

INDUCTION, RANKING, ONE_TURN, AT_END, SEARCH, NO_RULE, NOT_APPLICABLE, UNMODELLED, PLAYOUT = (
    "induction", "ranking", "one turn from any state", "the end from any state", "bounded search",
    "no rule leads there", "not applicable", "unmodelled rules", "playout")

ENDING = ("end", "next")
"""The phases of happenings at the round's end (decided by the last state alone)."""


class BeyondModel(Condition):
    """A round meets a rule the encoding stops at instead of modelling (an ``unmodelled`` gap)."""

    name = "unmodelled-rule"
    uses_tokens = True

    def happenings(self, rnd: RoundEncoding) -> list[Happening]:
        out = [Happening(when, turn.index, phase) for turn in rnd.turns
               for phase, when in turn.gaps.get("unmodelled", {}).items()]
        out += [Happening(when, rnd.layout.depth, "end")
                for when in rnd.ending.board.gaps.get("unmodelled", {}).values()]
        return out

    def confirm(self, playback: Playback) -> str | None:
        return playback.refused


@dataclass
class ProbeAnswer:
    """A probe's answer.

    `status` is ``unreachable`` (proved for every deal and every choice), ``reachable`` (with
    `witness`, a replay reaching the situation, actions up to and including the one where it
    happens) or ``unknown`` (not decided within the resource limit). `method` says how the answer
    was found; `reason` why a situation cannot arise at all (not applicable) or why the answer
    is unknown. `story` tells the witness; `problem` is set when the reference engine's replay
    of the witness does not show the situation (one of the two interpreters has a bug).
    """

    status: str
    condition: str
    seconds: float = 0.0
    witness: Replay | None = None
    method: str = SEARCH
    reason: str | None = None
    story: str | None = None
    problem: str | None = None

    @property
    def applicable(self) -> bool:
        """False when the situation cannot arise in this deck at all."""
        return self.method != NOT_APPLICABLE

    def to_json(self) -> dict[str, Any]:
        """The answer as JSON-ready data."""
        out: dict[str, Any] = {"condition": self.condition, "status": self.status, "method": self.method,
                               "seconds": round(self.seconds, 3)}
        for key in ("reason", "story", "witness", "problem"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out


class Prover:
    """Answers conditions for one spec and player count."""

    def __init__(self, edition: Edition, players: int):
        self.edition = edition
        self.players = players
        self.setup_gap: SetupGap | None = None
        self.unsupported: str | None = None
        """A rule the probes cannot encode at all (every answer but `not applicable` is unknown)."""
        self.unmodelled: list[str] = []
        """Rules of this deck the encoding stops at (an ``unmodelled`` gap) instead of modelling."""
        self.invariant: bool | None = None
        """Whether Φ is proved (None: not tried yet)."""
        self.invariant_failure = ""
        """Which part of Φ could not be proved, if one could not."""
        self.invariant_seconds = 0.0
        self.lemmas: list[str] = []
        """The candidate lemmas proved (`invariants.lemma_parts`), by name."""
        self.lemma_seconds = 0.0
        """Time spent trying the candidate lemmas (once, after Φ)."""
        self.round_seconds = 0.0
        """Time spent unrolling the whole round (once, when a bounded search first needs it)."""
        self._round: RoundEncoding | None = None
        self._round_lemmas: list[z3.BoolRef] | None = None
        start = time.perf_counter()
        try:
            self.layout = Layout.of(edition, players)
        except SetupGap as gap:
            self.setup_gap = gap
            self.build_seconds = time.perf_counter() - start
            return
        try:
            self.dealt = RoundEncoding(self.layout, turns=0)
        except Unsupported as exc:
            self.unsupported = str(exc)
            self.build_seconds = time.perf_counter() - start
            return
        self.unmodelled = self.dealt.unmodelled
        self._beyond: ProbeAnswer | None = None
        self.step = RoundEncoding(self.layout, free=True)
        # Rules are the same from every seat, so the free turn's player may as well be seat 0.
        self.step_solver = z3.SolverFor("QF_FD")
        start_state = self.step.states[0]
        seat_zero = start_state["actor"] == num(0, self.layout.seat_bits)
        self.step_solver.add(*self.step.facts, start_state["run"], z3.Not(start_state["gap"]), seat_zero,
                             holds(self.step, start_state))
        # The round's end from any state: every round's last state satisfies Φ (and the lemmas).
        self.ended = RoundEncoding(self.layout, free=True, turns=0)
        self.end_solver = z3.SolverFor("QF_FD")
        self.end_solver.add(*self.ended.facts, holds(self.ended, self.ended.states[0]))
        self.build_seconds = time.perf_counter() - start
        start = time.perf_counter()
        proved = self.prove_invariant(INVARIANT_RLIMIT)
        self.invariant_seconds = time.perf_counter() - start
        start = time.perf_counter()
        if proved:
            self.prove_lemmas(LEMMA_RLIMIT)
        self.lemma_seconds = time.perf_counter() - start

    @property
    def rnd(self) -> RoundEncoding:
        """The whole round, unrolled as deep as the draw pile (built when first needed)."""
        if self._round is None:
            start = time.perf_counter()
            self._round = RoundEncoding(self.layout)
            self.round_seconds = time.perf_counter() - start
        return self._round

    def proved(self, rnd: RoundEncoding, state: dict[str, z3.ExprRef]) -> z3.BoolRef:
        """Φ and the lemmas proved, in a state of `rnd` (true in every state of every round)."""
        kept = [f for name, f in lemma_parts(rnd, state) if name in self.lemmas]
        return both(holds(rnd, state), *kept)

    def ask(self, condition: Condition, rlimit: int, confirm: bool = True, playouts: int = 0,
            seed: int = SEED) -> ProbeAnswer:
        """Decide whether the condition is reachable, each solver call within `rlimit` z3
        resource units (the encoding and the invariant, built once per prover, are not part of
        it), after up to `playouts` seeded rounds of the reference engine when no cheap proof
        settles it (`playouts.py`; the same `seed` and count give the same witness). `seconds`
        only records how long it took."""
        start = time.perf_counter()
        if self.setup_gap is not None:
            answer = self._without_round(condition)
        else:
            reason = condition.applicable(self.layout)
            if reason:
                answer = ProbeAnswer(UNREACHABLE, condition.name, method=NOT_APPLICABLE, reason=reason)
            elif self.unsupported is not None:
                answer = ProbeAnswer(UNKNOWN, condition.name, method=UNMODELLED,
                                  reason=f"the probes cannot encode this spec: {self.unsupported}")
            else:
                answer = self._honest(self._decide(condition, rlimit, playouts, seed), rlimit)
        if answer.witness is not None:
            answer.story = story(self.edition, answer.witness)
            if confirm:
                replayed = play(self.edition, answer.witness)
                answer.problem = replayed.refused or condition.confirm(replayed)
        answer.seconds = time.perf_counter() - start
        return answer

    def _decide(self, condition: Condition, rlimit: int, playouts: int = 0, seed: int = SEED) -> ProbeAnswer:
        """The cheapest answer, every solver call within `rlimit` resource units, after at most
        `playouts` rounds of play."""
        proof = getattr(condition, "proof", None)
        if proof == "invariant" and self.invariant:
            return ProbeAnswer(UNREACHABLE, condition.name, method=INDUCTION)
        if proof == "ranking" and self.invariant and self.pile_shrinks(rlimit):
            return ProbeAnswer(UNREACHABLE, condition.name, method=RANKING)
        early = min(playouts, EARLY) if playable(condition) else 0
        played = self._play(condition, 0, early, playouts, seed)
        if played is not None:
            return played
        if not condition.bounded and self.invariant:
            quick = self._one_turn(condition, min(rlimit // 4, ONE_TURN_RLIMIT))
            if quick is not None:
                return quick
        played = self._play(condition, early, playouts if playable(condition) else 0, playouts, seed)
        if played is not None:
            return played
        answer = self._search(condition, rlimit)
        if answer.status == UNKNOWN:
            answer.reason = f"not decided within the z3 resource limit of {rlimit} units"
        return answer

    def _play(self, condition: Condition, start: int, stop: int, playouts: int,
              seed: int) -> ProbeAnswer | None:
        """The witness of the first of the seeded rounds `start` .. `stop` - 1 that reaches the
        situation (of a budget of `playouts`), if one does."""
        found = find(self.edition, self.players, condition, stop, seed, start) if stop > start else None
        if found is None:
            return None
        reason = (f"round {found.round + 1} of at most {playouts} seeded rounds of the reference engine "
                  f"({found.policy}, seed {seed})")
        return ProbeAnswer(REACHABLE, condition.name, witness=found.witness, method=PLAYOUT, reason=reason)

    @property
    def unmodelled_ids(self) -> list[str]:
        """The ids of the clauses in `unmodelled`."""
        return [text.split(":", 1)[0] for text in self.unmodelled]

    def _honest(self, answer: ProbeAnswer, rlimit: int) -> ProbeAnswer:
        """An unreachable answer holds only when no round reaches a rule the encoding stops at
        instead of modelling it (decided within `rlimit`); otherwise it is unknown, naming those rules."""
        if answer.status != UNREACHABLE or not self.unmodelled:
            return answer
        if self._beyond is None or self._beyond.status == UNKNOWN:
            self._beyond = self._decide(BeyondModel(), rlimit)
        if self._beyond.status == UNREACHABLE:
            return answer
        how = "a round can reach" if self._beyond.status == REACHABLE else "no proof that no round reaches"
        return ProbeAnswer(UNKNOWN, answer.condition, method=UNMODELLED,
                       reason=f"{how} rules the probes do not model ({', '.join(self.unmodelled_ids)}), "
                              f"so {answer.method} proves nothing beyond them")

    def _without_round(self, condition: Condition) -> ProbeAnswer:
        """With a silent setup rule no round is dealt: only that gap is reachable."""
        assert self.setup_gap is not None
        why = "is silent" if self.setup_gap.clause.silent else "does not fit the cards the spec names"
        witness = setup_witness(self.edition, self.players)
        if condition.confirm(play(self.edition, witness)) is None:
            return ProbeAnswer(REACHABLE, condition.name, witness=witness)
        return ProbeAnswer(UNREACHABLE, condition.name, method=NOT_APPLICABLE,
                       reason=f"no round can be dealt: {self.setup_gap.clause.id} {why}")

    def prove_invariant(self, rlimit: int) -> bool:
        """Prove Φ by induction, part by part; on success it becomes a lemma of the search."""
        rnd, step = self.dealt, self.step
        base = z3.SolverFor("QF_FD")
        base.set("rlimit", rlimit)
        base.add(*rnd.deal_facts, z3.Not(holds(rnd, rnd.states[0])))
        self.invariant = base.check() == z3.unsat
        if not self.invariant:
            self.invariant_failure = "after the deal"
            return False
        after = step.states[1]
        extra = step.turns[0].saw("hand_sizes")
        goals = [(name, z3.Not(f)) for name, f in parts(step, after)] + [("one card per hand", extra)]
        for name, violated in goals:
            self.step_solver.push()
            self.step_solver.set("rlimit", rlimit)
            self.step_solver.add(violated)
            answer = self.step_solver.check()
            self.step_solver.pop()
            if answer != z3.unsat:
                self.invariant = False
                self.invariant_failure = f"{name} ({answer})"
                return False
        return True

    def prove_lemmas(self, rlimit: int) -> list[str]:
        """Keep the candidate lemmas that hold after the deal and are inductive relative to Φ and
        the others kept (Houdini: drop every one not proved, then try the rest again, until none
        is dropped); each solver call within `rlimit` units. The kept ones join the one-turn
        proofs' assumptions and every bounded search's lemmas."""
        dealt, step = self.dealt, self.step
        at_deal = lemma_parts(dealt, dealt.states[0])
        before = dict(lemma_parts(step, step.states[0]))
        after = dict(lemma_parts(step, step.states[1]))
        kept = []
        for name, formula in at_deal:
            base = z3.SolverFor("QF_FD")
            base.set("rlimit", rlimit)
            base.add(*dealt.deal_facts, z3.Not(formula))
            if base.check() == z3.unsat:
                kept.append(name)
        while kept:
            self.step_solver.push()
            self.step_solver.add(*(before[name] for name in kept))
            broken = [name for name in kept if not self._refuted(z3.Not(after[name]), rlimit)]
            self.step_solver.pop()
            if not broken:
                break
            kept = [name for name in kept if name not in broken]
        self.lemmas = kept
        self.step_solver.add(*(before[name] for name in kept))
        self.end_solver.add(*(f for name, f in lemma_parts(self.ended, self.ended.states[0]) if name in kept))
        return kept

    def _refuted(self, formula: z3.BoolRef, rlimit: int) -> bool:
        """The one-turn solver refutes `formula` within `rlimit` units."""
        self.step_solver.push()
        self.step_solver.set("rlimit", rlimit)
        self.step_solver.add(formula)
        answer = self.step_solver.check()
        self.step_solver.pop()
        return answer == z3.unsat

    def pile_shrinks(self, rlimit: int) -> bool:
        """Every turn from a running Φ-state after which the round goes on takes a card from the
        pile for good: the pile then bounds the round's length (a ranking function)."""
        before, after = self.step.states[0], self.step.states[1]
        grows = both(after["run"], ule(before["end"] - before["top"], after["end"] - after["top"]))
        self.step_solver.push()
        self.step_solver.set("rlimit", rlimit)
        self.step_solver.add(grows)
        answer = self.step_solver.check()
        self.step_solver.pop()
        return answer == z3.unsat

    def _one_turn(self, condition: Condition, rlimit: int) -> ProbeAnswer | None:
        """Unreachable when impossible in one turn from any running Φ-state; else None.

        A situation that is a property of the state is assumed absent before the turn, and
        checked absent after the deal: together, a proof by induction.
        """
        happenings = [h for h in condition.happenings(self.step) if not h.when.eq(FALSE)]
        if not happenings:
            return ProbeAnswer(UNREACHABLE, condition.name, method=NO_RULE)
        if any(h.phase in ENDING for h in happenings) and self._never_at_end(condition, rlimit):
            happenings = [h for h in happenings if h.phase not in ENDING]
            if not happenings:
                return ProbeAnswer(UNREACHABLE, condition.name, method=AT_END)
        before = condition.in_state(self.step, self.step.states[0])
        if before is not None:
            dealt = condition.in_state(self.dealt, self.dealt.states[0])
            base = z3.SolverFor("QF_FD")
            base.set("rlimit", rlimit)
            base.add(*self.dealt.deal_facts, dealt)
            if base.check() != z3.unsat:
                return None
        answer = self._check(self.step_solver, self.step, condition, happenings, rlimit,
                             assume=[] if before is None else [z3.Not(before)])[0]
        if answer != z3.unsat:
            return None
        return ProbeAnswer(UNREACHABLE, condition.name, method=ONE_TURN if before is None else INDUCTION)

    def _never_at_end(self, condition: Condition, rlimit: int) -> bool:
        """No state satisfying Φ and the lemmas ends the round in the situation, so no round does
        (its last state is one): the end of the round alone, much smaller than a turn and the end
        (with 8 players, a few hundred thousand units where one turn could take tens of millions)."""
        happenings = [h for h in condition.happenings(self.ended)
                      if h.phase in ENDING and not h.when.eq(FALSE)]
        if not happenings:
            return True
        return self._check(self.end_solver, self.ended, condition, happenings, rlimit)[0] == z3.unsat

    def _search(self, condition: Condition, rlimit: int) -> ProbeAnswer:
        """Bounded search over the whole round: unsat is a proof, sat gives the witness."""
        rnd = self.rnd
        happenings = [h for h in condition.happenings(rnd) if not h.when.eq(FALSE)]
        if not happenings:
            return ProbeAnswer(UNREACHABLE, condition.name, method=NO_RULE)
        if self._round_lemmas is None:
            self._round_lemmas = [self.proved(rnd, state) for state in rnd.states] if self.invariant else []
        solver = z3.SolverFor("QF_FD")
        solver.add(*rnd.facts, *self._round_lemmas)
        answer, model = self._check(solver, rnd, condition, happenings, rlimit, scoped=False)
        if answer == z3.sat:
            assert model is not None
            witness = extract(rnd, model, earliest(model, happenings), condition.uses_tokens)
            return ProbeAnswer(REACHABLE, condition.name, witness=witness)
        if answer == z3.unsat:
            return ProbeAnswer(UNREACHABLE, condition.name)
        return ProbeAnswer(UNKNOWN, condition.name)

    def _check(self, solver: z3.Solver, rnd: RoundEncoding, condition: Condition, happenings: list[Happening],
               rlimit: int, assume: list[z3.BoolRef] | None = None,
               scoped: bool = True) -> tuple[z3.CheckSatResult, Model]:
        """Is the condition reachable under the solver's facts? `scoped`: the solver is kept for
        other questions, so this one's assertions are pushed and popped. (A fresh solver is not
        scoped: a push makes z3 take in every fact at once, which no resource limit bounds and which
        takes longer than the search itself with 32 cards.)"""
        if scoped:
            solver.push()
        try:
            solver.add(*(assume or []))
            if not condition.uses_tokens:
                solver.add(*(t == num(0, t.size()) for t in rnd.tokens))
            solver.add(either(*(h.when for h in happenings)))
            solver.set("rlimit", rlimit)
            answer = solver.check()
            return answer, solver.model() if answer == z3.sat else None
        finally:
            if scoped:
                solver.pop()


def earliest(model: z3.ModelRef, happenings: list[Happening]) -> Happening:
    """The first happening that holds in the model."""
    return min((h for h in happenings if truth(model, h.when)), key=lambda h: h.order)

