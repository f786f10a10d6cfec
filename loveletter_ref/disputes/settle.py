"""Settle a dispute: for every clause on which two specs differ, a verdict.

- *observable*: a witness game that the two specs play differently (a refusal or a rule gap on
  one side only, someone out, a different round winner, other tokens, another game winner, an
  action legal under one and refused under the other, a deal one accepts and the other refuses);
  the first point at which the two games differ is due to that clause alone;
- *vacuous*: z3 proved that no game ever consults the clause under one of the specs, so the
  difference can never show;
- *undecided*: neither, within the search budget; the reason says what was tried.

One spec alone (`audit`): each contradiction is settled between its versions, and each silence
gets a game that needs the clause (the engine stops with a rule gap naming it) or a proof that
no game ever does.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from loveletter_ref.errors import RuleGapError
from loveletter_ref.lockstep import DEAL, Step
from loveletter_ref.spec import Edition, known_specs
from loveletter_ref.spec.model import OPTIONAL_GENERAL_IDS

from . import values
from .differences import (
    Difference,
    Stance,
    clause_stance,
    differing_cases,
    line_up,
    open_cases,
    player_counts,
    shared_steps,
    shield_blocks,
)
from .search import Budget, GamePlan, PairSearch, first_gap, seed_for, setting
from .sides import PLAYERS, Side, open_side
from .vacuity import NOT_ASKED, Goal, Probe, probe
from .witness import Witness, replay_looks

OBSERVABLE, VACUOUS, UNDECIDED = "observable", "vacuous", "undecided"


@dataclass
class Ruling:
    """The ruling on one disputed clause between two sides: its verdict (`status`: observable, vacuous
    or undecided) with the witness, the proof or the reason."""

    key: str
    status: str
    a: Stance
    b: Stance
    a_side: Side
    b_side: Side
    witness: Witness | None = None
    proof: list[dict[str, Any]] = field(default_factory=list)
    reason: str = ""
    kind: str = "difference"
    """`difference` (two specs), `contradiction` (two versions of one reading) or `silence`."""
    alone: Ruling | None = None
    """For a difference undecided between the two sides, or a vacuous one whose proof may owe to
    the proving side's own open points: the ruling between one side and the same spec with only
    this clause as the other side states it: does it matter on its own?"""
    on_its_own: bool = False
    """True when `status` is the verdict on its own (`alone`): between the two sides the games
    always part earlier (`reason` says why), so the clause was settled alone."""
    alone_note: str = ""
    """Where the clause settled on its own was taken from, when not from the other side."""
    together: tuple[str, ...] = ()
    """For a card clause settled with others (their values move together, since no two cards may
    share a value): all of them; a witness is then due to the group, not to the one card."""


@dataclass
class Comparison:
    """Every ruling between two sides."""

    a: Side
    b: Side
    verdicts: list[Ruling]
    alike: list[Difference] = field(default_factory=list)
    """Clauses worded differently to the same effect."""
    masked: str = ""
    """Why no clause but the setup can be told apart (empty when some can)."""

    def count(self, status: str) -> int:
        """How many verdicts have this status."""
        return sum(1 for v in self.verdicts if v.status == status)


SETUP = ("card", "deck_size", "set_aside", "face_up", "deal")
"""Rule kinds that decide the deal itself."""


# -- two specs -------------------------------------------------------------------------------


CASES = {"several": "several players", "none": "nobody"}
"""The round outcomes a next-round rule may leave out, in words."""


def compare(a: Side, b: Side, budget: Budget, rlimit: int,
            keys: Iterable[str] | None = None, alone: bool = True,
            say: Callable[[str], None] = lambda text: None,
            together: dict[str, tuple[str, ...]] | None = None, partner: bool = True) -> Comparison:
    """Settle every clause on which `a` and `b` differ (or only `keys`).

    With `alone`, each clause left undecided is also settled on its own: between one side and
    the same spec with only that clause taken from the other (`_settle_alone`); its verdict there
    becomes the clause's (`Ruling.on_its_own`). `say` hears what is being done, as it starts.
    `together` names clauses to be attributed as a group (a card whose value moves with others).
    Without `partner`, z3 is not asked about the other side once one side's proof is found (two
    specs that differ in one clause only, where whether the verdict depends on the partner is
    not the question).
    """
    wanted = set(keys) if keys is not None else None
    every, alike = line_up(a.edition, b.edition)
    diffs = [d for d in every if wanted is None or d.key in wanted]
    counts = player_counts(a.edition, b.edition)
    setups = {n: _setup_differs(every, a.edition, b.edition, n) for n in counts}
    open_counts = [n for n in counts if not setups[n]]
    masked = _masked(counts, setups)
    verdicts, searchable = _without_search(diffs, a, b, counts, open_counts, masked)
    say(f"playing games that tell {a.label} and {b.label} apart on {len(searchable)} clauses")
    groups = together or {}
    search = _search(a, b, searchable, budget, {d.key: counts if d.kind in SETUP else open_counts
                                                for d in searchable}, groups)
    for i, d in enumerate(searchable, 1):
        if d.key in search.found:
            verdicts[d.key] = Ruling(d.key, OBSERVABLE, d.a, d.b, a, b, witness=search.found[d.key])
        else:
            say(f"proving with z3 that {d.key} never matters ({i} of {len(searchable)})")
            verdicts[d.key] = _z3_verdict(d, a, b, open_counts or counts, budget, rlimit, search,
                                          _masked_note(counts, setups, d), open_counts, partner)
    for verdict in verdicts.values():
        verdict.together = groups.get(verdict.key, ())
    if alone:
        for verdict in verdicts.values():
            _settle_left(verdict, a, b, budget, rlimit, say)
    return Comparison(a, b, [verdicts[d.key] for d in diffs], alike, masked)


def _without_search(diffs: list[Difference], a: Side, b: Side, counts: list[int], open_counts: list[int],
                    masked: str) -> tuple[dict[str, Ruling], list[Difference]]:
    """The verdicts that need no search (the player counts, cards never dealt, clauses every
    player count's deal already masks), and the differences left to search."""
    verdicts: dict[str, Ruling] = {}
    searchable: list[Difference] = []
    for d in diffs:
        if d.key == PLAYERS:
            verdicts[d.key] = _players_verdict(d, a, b)
        elif d.kind == "card" and counts and not _dealt(d, counts):
            verdicts[d.key] = Ruling(d.key, VACUOUS, d.a, d.b, a, b, reason=_never_dealt(d, a, b, counts))
        elif d.kind not in SETUP and not open_counts:
            verdicts[d.key] = Ruling(d.key, UNDECIDED, d.a, d.b, a, b, reason=masked)
        else:
            searchable.append(d)
    return verdicts, searchable


def _settle_left(verdict: Ruling, a: Side, b: Side, budget: Budget, rlimit: int,
                 say: Callable[[str], None]) -> None:
    """Settle a clause on its own when it was left undecided (then its verdict on its own is its
    verdict), or proved vacuous by a side whose games may stop on its silences first."""
    if verdict.key == PLAYERS:
        return
    if verdict.status == UNDECIDED:
        say(f"settling {verdict.key} on its own")
        _settle_alone(verdict, _directions(a, b), budget, rlimit)
        if verdict.alone is not None and verdict.alone.status != UNDECIDED:
            verdict.status, verdict.on_its_own = verdict.alone.status, True
    elif verdict.status == VACUOUS and _masked_by_gaps(verdict, (a, b)):
        say(f"settling {verdict.key} on its own")
        base, donor = (b, a) if verdict.proof[0]["spec"] == a.label else (a, b)
        _settle_alone(verdict, [(base, donor)] + [(x, y) for x, y in _directions(a, b)[2:] if y is donor],
                      budget, rlimit)


def _directions(a: Side, b: Side) -> list[tuple[Side, Side]]:
    """The (base, donor) pairs a clause is settled on its own with, in turn: each side with the
    clause as the other states it, then the edition each reading describes (where a reading's
    own silences stop its games before the clause can show, its edition's rules may not)."""
    out = [(a, b), (b, a)]
    for side, other in ((a, b), (b, a)):
        described = side.edition.describes
        if described and described not in (a.id, b.id) and described in known_specs():
            out.append((open_side(described), other))
    return out


def _masked_by_gaps(verdict: Ruling, sides: tuple[Side, Side]) -> bool:
    """True when the side whose games never consult the clause leaves other points open (its
    declared silences, or rules it states in part): its games may stop there first, so the proof
    says little about the clause on its own."""
    prover = next((s for s in sides if verdict.proof and s.label == verdict.proof[0]["spec"]), None)
    if prover is None:
        return False
    return any(key != verdict.key and prover.edition.clause_by_key(key) is not None
               for key in open_clauses(prover.edition))


def _settle_alone(verdict: Ruling, directions: list[tuple[Side, Side]], budget: Budget, rlimit: int) -> None:
    """Settle the verdict's clause between a base and the base with only that clause as a donor
    states it (`verdict.alone`), for each (base, donor) in turn while the clause stays undecided:
    the first observable or vacuous ruling, else the first undecided. A card whose value clashes
    with another's is taken with the cards whose values move with it (`value_group`). When no
    such spec passes validation, the reason says why.

    The clause is taken from the first bundled spec that states it as the donor does (`canonical`;
    the verdict's `alone_note` says so when that is not the donor), and each settling is kept for
    the rest of the process: the same question, met again in another comparison, is the same
    computation, so its answer does not depend on which comparisons a process settled before."""
    lighter = replace(budget, games=budget.games // 2, reach=budget.reach // 2)
    found: list[tuple[Ruling, str]] = []
    failed: list[str] = []
    for base, donor in directions:
        keys = base.value_group(donor, verdict.key) if verdict.kind != "silence" else (verdict.key,)
        keys = keys or (verdict.key,)
        source = canonical(base, donor, keys)
        memo = (base.label, _header(base), source.label, _header(source), keys, repr(lighter), rlimit)
        if memo not in _SETTLED:
            _SETTLED[memo] = _settled_alone(base, source, keys, verdict.key, lighter, rlimit)
        ruled = _SETTLED[memo]
        if isinstance(ruled, str):
            failed.append(ruled)
            continue
        note = "" if source is donor else (f"{source.label} states {' and '.join(keys)} as {donor.label} "
                                           "does, and is the first bundled spec that does")
        found.append((ruled, note))
        if ruled.status != UNDECIDED:
            break
    pick = next((r for status in (OBSERVABLE, VACUOUS, UNDECIDED) for r in found if r[0].status == status),
                None)
    if pick is not None:
        verdict.alone, verdict.alone_note = pick
    if pick is None and failed:
        verdict.reason = "; ".join(filter(None, [verdict.reason, f"not settled on its own: {failed[0]}"]))


_SETTLED: dict[tuple[Any, ...], Ruling | str] = {}
"""Clauses settled on their own in this process, by everything the settling depends on."""


def _settled_alone(base: Side, donor: Side, keys: tuple[str, ...], key: str, budget: Budget,
                   rlimit: int) -> Ruling | str:
    """`key` settled between `base` and `base` with `keys` as `donor` states them (or why no such
    spec is valid)."""
    hybrid = base.derived(donor, *keys)
    if isinstance(hybrid, str):
        return hybrid
    together = {key: keys} if len(keys) > 1 else None
    ruled = compare(base, hybrid, budget, rlimit, keys=[key], alone=False, together=together,
                    partner=False).verdicts
    if not ruled:
        return f"{hybrid.label} and {base.label} agree on {key}"
    return ruled[0]


def _header(side: Side) -> str:
    return json.dumps(side.replay_header(), sort_keys=True)


def canonical(base: Side, donor: Side, keys: tuple[str, ...]) -> Side:
    """The first bundled spec (in `known_specs` order) from which `keys` taken into `base` play
    as they do taken from `donor`; `donor` itself when none does."""
    wanted = _played(base, donor, keys)
    if wanted is None:
        return donor
    for name in known_specs():
        other = open_side(name)
        if other.path.resolve() == base.path.resolve() and other.choices == base.choices:
            continue
        if _played(base, other, keys) == wanted:
            return other
    return donor


def _played(base: Side, donor: Side, keys: tuple[str, ...]) -> str | None:
    """How `keys`, taken from `donor` into `base`, are played (None when that spec is not valid)."""
    hybrid = base.blend(donor, *keys)
    if hybrid is None:
        return None
    counts = range(hybrid.min_players, hybrid.max_players + 1)
    out: list[list[Any]] = []
    for key in keys:
        clause = hybrid.clause_by_key(key)
        if clause is None:
            out.append([key, None])
        elif clause.kind == "card":
            card = hybrid.card(clause.card or "")
            out.append([key, card.value, [card.count_for(n) for n in counts]])
        else:
            out.append([key, clause.kind, clause.silent, None if clause.silent else clause.rule])
    return json.dumps(out, sort_keys=True, default=sorted)


def _search(a: Side, b: Side, diffs: list[Difference], budget: Budget,
            counts: dict[str, list[int]], groups: dict[str, tuple[str, ...]]) -> PairSearch:
    sides = (a, b)

    def blend(side: int, key: str) -> Edition | None:
        return sides[side].blend(sides[1 - side], *groups.get(key, (key,)))

    def silence(side: int, key: str) -> Edition | None:
        d = next(x for x in diffs if x.key == key)
        shared = shared_steps(d.a, d.b)
        narrowed = sides[side].narrowed(key, shared) if shared is not None else None
        return narrowed or sides[side].silenced(key)

    search = PairSearch(a.edition, b.edition, diffs, budget, blend, silence, f"{a.label}|{b.label}", counts)
    if diffs:
        search.run()
    return search


def _z3_verdict(d: Difference, a: Side, b: Side, counts: list[int], budget: Budget,
                rlimit: int, search: PairSearch, note: str = "", open_counts: list[int] | None = None,
                partner: bool = True) -> Ruling:
    """Ask z3 whether each side ever consults the clause; continue any game it finds. A proof
    under one side while the other's games do consult the clause makes the verdict depend on the
    partner: the reason says so. A clause z3 is not asked about gets deeper games, with the
    player counts whose deals do not already differ (`open_counts`)."""
    if d.kind == "card":
        ruled = _values_verdict(d, a, b, counts, note)
        if ruled is not None:
            return ruled
    probes = _probes(d, a, b, counts, rlimit, partner)
    problems = [p.problem for p in probes if p.problem]
    proved = next((p for p in probes if p.unreachable), None)
    if proved is not None:
        return _proved(d, a, b, counts, proved, probes, note)
    witness = _continue_z3_games(d, search, probes)
    deep = open_counts if open_counts is not None else counts
    if witness is None and d.kind in NOT_ASKED and deep:
        search.deepen(d.key, budget.deep, deep)
        witness = search.found.get(d.key)
    if witness is not None:
        return Ruling(d.key, OBSERVABLE, d.a, d.b, a, b, witness=witness)
    why = _undecided_reason(d, a, b, budget, search, problems, deepened=d.kind in NOT_ASKED and bool(deep))
    return Ruling(d.key, UNDECIDED, d.a, d.b, a, b, reason=why)


def _probes(d: Difference, a: Side, b: Side, counts: list[int], rlimit: int, partner: bool) -> list[Probe]:
    """z3's answers about the clause, side by side (without `partner`, none after a proof)."""
    probes: list[Probe] = []
    cases = differing_cases(d.a, d.b)
    for side in (a, b):
        if side.edition.clause_by_key(d.key) is None and d.kind != "all_eliminated":
            continue
        if not partner and any(p.unreachable for p in probes):
            break
        quiet = side.opened(d.key, cases) if cases else side.silenced(d.key)
        probes.append(probe(side.edition, side.label, d.key, counts, rlimit, quiet or side.edition, cases,
                            _goal(d, side)))
    return probes


def _proved(d: Difference, a: Side, b: Side, counts: list[int], proved: Probe, probes: list[Probe],
            note: str) -> Ruling:
    """The vacuous verdict of a clause z3 proved one side never needs where the rules differ."""
    cases = differing_cases(d.a, d.b)
    who = f"{_players_text(counts)} players"
    never = (f"ends a round won by {' or by '.join(CASES[c] for c in cases)} (the only cases in "
             f"which the two rules differ) and goes on" if cases else _never(d))
    reached = next((p.spec for p in probes if p.reached and not p.refuted), None)
    depends = (f"; games of {reached} do, so this verdict depends on the partner: against another "
               f"spec the clause may show" if reached else "")
    return Ruling(d.key, VACUOUS, d.a, d.b, a, b, proof=proved.proofs,
                  reason=f"no game of {proved.spec} with {who} ever {never} (z3){depends}{note}")


def _values_verdict(d: Difference, a: Side, b: Side, counts: list[int], note: str) -> Ruling | None:
    """A card valued differently by two specs that deal the same cards: vacuous when the rules of
    one side never read the value (with the values that must move with it) but to compare it
    (`values.proof`), None otherwise."""
    for side, other in ((a, b), (b, a)):
        moving = _moving(side, other, d.key)
        found = None if moving is None else values.proof(side.edition, side.label, moving, counts,
                                                         other.label)
        if found is None:
            continue
        why, records = found
        theirs = _moving(other, side, d.key)
        shifted = set(values.moved(other.edition, theirs, counts) or ()) if theirs is not None else set()
        adds = values.additions(other.edition, shifted, counts) if theirs is not None else ["its values"]
        partner = (f"; games of {other.label} add them up ({', '.join(adds)}), so this verdict depends on "
                   "the partner: against another spec the values may show" if adds else "")
        who = f"{_players_text(counts)} players"
        return Ruling(d.key, VACUOUS, d.a, d.b, a, b, proof=records,
                      reason=f"no game of {side.label} with {who} reads these values but to compare them: "
                             f"{why}{partner}{note}")
    return None


def _moving(side: Side, other: Side, key: str) -> Edition | None:
    """`side` with card `key` valued as `other` values it, and the cards whose values must move
    with it (None when no valid valuation does that)."""
    group = side.value_group(other, key)
    return side.blend(other, *group) if group else None


def _goal(d: Difference, side: Side) -> Goal | None:
    """What z3 is asked of one side when the two rules agree in part: the case in which they
    decide differently, rather than whether the clause is consulted at all (see `goals`)."""
    shared = shared_steps(d.a, d.b)
    if shared is not None:
        narrowed = side.narrowed(d.key, shared)
        if narrowed is not None:
            return Goal("gap", narrowed, f"tie still undecided after {' then '.join(shared)}")
    if shield_blocks(d.a, d.b):
        return Goal("shield", side.edition, f"protected by {d.key} when their own turn comes to play")
    return None


def _never(d: Difference) -> str:
    """What no game does, for the reason of a vacuous verdict."""
    shared = shared_steps(d.a, d.b)
    if shared is not None:
        return (f"leaves a tie at the showdown undecided after {' then '.join(shared)} (the only case in "
                "which the two tie rules differ)")
    if shield_blocks(d.a, d.b):
        return (f"leaves a player protected by {d.key} when their own turn comes to play (the only time "
                "a shield that stops its holder from choosing others binds)")
    return f"consults {d.key}"


def _players_text(counts: list[int]) -> str:
    if len(counts) > 1 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}-{counts[-1]}"
    return ", ".join(map(str, counts))


def _undecided_reason(d: Difference, a: Side, b: Side, budget: Budget, search: PairSearch,
                      problems: list[str], deepened: bool = False) -> str:
    games = budget.games + (budget.deep if deepened else 0)
    tried = f"no game showed a difference due to this clause in {games} games per player count"
    if a.silenced(d.key) is not None or b.silenced(d.key) is not None:
        tried += f" and {budget.reach} games per player count that reach it"
    blocked = search.blocked.most_common(3)
    if blocked:
        tried += "; the games parted first on " + ", ".join(f"{k} ({n})" for k, n in blocked)
    z3 = "; ".join(dict.fromkeys(problems)) or "z3 found games that consult it; none showed a difference"
    return f"{tried}; {z3}"


def _continue_z3_games(d: Difference, search: PairSearch, probes: list[Probe]) -> Witness | None:
    games = [(players, steps, tokens) for p in probes for players, steps, tokens in p.reached]
    for index, (players, steps, tokens) in enumerate(games):
        game = search.new_game(players, "z3", index, d.key)
        game.tokens = tokens
        search.continue_from(d.key, game, steps, index)
    return search.found.get(d.key)


def _players_verdict(d: Difference, a: Side, b: Side) -> Ruling:
    """The player counts differ: a game of a count only one side allows is the witness."""
    only = [n for n in range(2, 17) if a.edition.supports(n) != b.edition.supports(n)]
    n = only[0]
    dealer = a.edition if a.edition.supports(n) else b.edition
    deck = [dealer.names[c] for c in dealer.deck(n)]
    steps: list[Step] = [(DEAL, deck)]
    looks = list(zip(replay_looks(a.edition, n, 0, None, steps), replay_looks(b.edition, n, 0, None, steps),
                     strict=True))
    return Ruling(d.key, OBSERVABLE, d.a, d.b, a, b, witness=Witness(n, 0, None, steps, 0, looks))


def _dealt(d: Difference, counts: list[int]) -> bool:
    """True when either side deals the card of a card clause with some of these player counts."""
    return any(s.card is not None and s.card.count_for(n) > 0 for s in (d.a, d.b) for n in counts)


def _never_dealt(d: Difference, a: Side, b: Side, counts: list[int]) -> str:
    name = next(s.card.name for s in (d.a, d.b) if s.card is not None)
    why = "; ".join(f"{side.label} {'counts it 0 times' if s.card is not None else 'has no such card'}"
                    for side, s in ((a, d.a), (b, d.b)))
    return f"no deck for {_players_text(counts)} players holds the {name} ({why})"


def _setup_differs(diffs: list[Difference], a: Edition, b: Edition, players: int) -> list[str]:
    """The setup clauses whose difference already changes the deal for this player count."""
    out = []
    for d in diffs:
        if d.kind not in SETUP:
            continue
        if d.kind == "card":  # a card a spec lacks is dealt as often as one it counts 0 times
            if len({s.card.count_for(players) if s.card is not None else 0 for s in (d.a, d.b)}) > 1:
                out.append(d.key)
            continue
        try:
            values = {setting(e, d.kind, players) for e in (a, b)}
        except RuleGapError:
            out.append(d.key)
            continue
        if len(values) > 1:
            out.append(d.key)
    return out


def _masked_note(counts: list[int], setups: dict[int, list[str]], d: Difference) -> str:
    """For a clause searched on some player counts only: why not the others."""
    if d.kind in SETUP:
        return ""
    hidden = [n for n in counts if setups[n]]
    if not hidden or len(hidden) == len(counts):
        return ""
    causes = sorted({k for n in hidden for k in setups[n]})
    return (f"; with {_players_text(hidden)} players every deal already differs ({', '.join(causes)}), "
            "so those games cannot show it")


def _masked(counts: list[int], setups: dict[int, list[str]]) -> str:
    """Why only setup clauses can be told apart, or "" when other clauses can be."""
    if not counts:
        return "no player count is allowed by both, so no game can be played under both"
    if any(not keys for keys in setups.values()):
        return ""
    causes = sorted({k for keys in setups.values() for k in keys})
    return ("masked: for every player count both allow the deal already differs ("
            + ", ".join(causes) + "), so no game played under both can single this clause out")


# -- table conventions -----------------------------------------------------------------------


CONVENTIONS = {"turn_order": "turns pass clockwise", "first_player": "the table chooses who starts"}
"""Rule kinds on which every table does the same when its rulebook is silent, with what tables do
(the edition's rule): a rulebook silent on them gets a verdict by convention too."""


def by_convention(a: Side, edition: Side) -> tuple[Side, list[str]] | None:
    """`a` with each of its silent convention clauses as `edition` states it, and their keys
    (None when `a` is silent on none, or a filled spec would not be valid)."""
    keys = [c.key for c in a.edition.clauses.values() if c.silent and c.kind in CONVENTIONS]
    filled = a.derived(edition, *keys) if keys else None
    return (filled, keys) if isinstance(filled, Side) else None


# -- one spec --------------------------------------------------------------------------------


def audit(a: Side, budget: Budget, rlimit: int) -> list[Ruling]:
    """A reading's contradictions (settled between versions) and silences (reached, or proved
    never needed)."""
    verdicts: list[Ruling] = []
    for clause in a.edition.clauses.values():
        for i in range(len(clause.versions)):
            for j in range(i + 1, len(clause.versions)):
                verdicts.append(_contradiction(a, clause.key, i, j, budget, rlimit))
    gaps = open_clauses(a.edition)
    found = reach_gaps(a, list(gaps), budget)
    for key, silence in gaps.items():
        stance = clause_stance(a.edition, key)
        declared = stance.status != "absent"
        if not declared:  # an optional rule the spec does not state: silent, as the engine treats it
            stance = Stance(key, "silent")
        if key in found:
            verdicts.append(Ruling(key, OBSERVABLE, stance, stance, a, a, witness=found[key],
                                    kind="silence", reason=silence))
            continue
        if not declared:  # a gap the reading does not declare is reported when a game reaches it
            continue
        result = probe(a.edition, a.label, key, list(range(a.edition.min_players, a.edition.max_players + 1)),
                       rlimit, a.edition, open_cases(stance))
        if result.unreachable:
            verdicts.append(Ruling(key, VACUOUS, stance, stance, a, a, proof=result.proofs,
                                    kind="silence", reason=silence))
            continue
        witness = _z3_gap(a, key, result)
        status = OBSERVABLE if witness else UNDECIDED
        z3 = result.problem or ("z3's game does not stop on it when the reference engine replays it"
                                if result.reached else "z3 found no game either")
        why = (f"{silence}; {result.problem}" if witness and result.refuted else silence if witness else
               f"{silence}; no game reached it in {budget.reach} games per player count; {z3}")
        verdicts.append(Ruling(key, status, stance, stance, a, a, witness=witness, kind="silence",
                                reason=why))
    return verdicts


def _contradiction(a: Side, key: str, i: int, j: int, budget: Budget, rlimit: int) -> Ruling:
    first, second = a.with_version(key, i), a.with_version(key, j)
    comparison = compare(first, second, budget, rlimit, keys=[key], alone=False)
    if comparison.verdicts:
        verdict = comparison.verdicts[0]
        verdict.kind = "contradiction"
        return verdict
    stance = Stance(key, "stated", None, None, first.edition.clause_by_key(key))
    return Ruling(key, VACUOUS, stance, stance, first, second, kind="contradiction",
                   reason="the two versions state the same rule")


def open_clauses(edition: Edition) -> dict[str, str]:
    """Clauses a game may find open, with what is left open: silent clauses, an optional rule
    the spec does not state (a round in which everybody is out), a next-round rule that leaves
    out ties or roundless winners, a tie chain that may run out, and a deck size the named cards
    do not fill."""
    out: dict[str, str] = {}
    for clause in edition.clauses.values():
        if clause.silent:
            out[clause.key] = clause.silence or "the rules are silent here"
    if "all_eliminated" not in edition.general:
        out[OPTIONAL_GENERAL_IDS["all_eliminated"]] = ("who wins a round in which every player is out "
                                                       "(the spec states no all_eliminated rule)")
    nxt = edition.general.get("next_first")
    missing = open_cases(clause_stance(edition, nxt.key)) if nxt is not None else []
    if nxt is not None and missing:
        out[nxt.key] = f"who starts after a round won by {' or by '.join(CASES[m] for m in missing)}"
    tie = edition.general.get("tie")
    if tie is not None and not tie.silent and tie.rule[-1] not in ("all_win", "nobody"):
        out[tie.key] = "what happens when the last tie-breaker leaves players still tied"
    size = edition.general.get("deck_size")
    if size is not None and not size.silent:
        for n in range(edition.min_players, edition.max_players + 1):
            try:
                if edition.player_table("deck_size", n) != len(edition.deck(n)):
                    out[size.key] = f"which cards make up the deck for {n} players"
                    break
            except RuleGapError:
                break
    return out


def reach_gaps(a: Side, keys: list[str], budget: Budget) -> dict[str, Witness]:
    """Games that stop on a rule gap, for as many of `keys` as the budget finds."""
    found: dict[str, Witness] = {}
    edition = a.edition
    for n in range(edition.min_players, edition.max_players + 1):
        for key in keys:
            for i in range(budget.reach):
                if key in found:
                    break
                witness = first_gap(edition, _gap_game(a, n, key, i))
                hit = witness.looks[-1][0].clause if witness else None
                if witness is not None and hit in keys and hit not in found:
                    found[str(hit)] = witness
    return found


def _gap_game(a: Side, players: int, key: str, index: int) -> GamePlan:
    """A seeded game aimed at the clause: its card preferred, sometimes tokens near the target."""
    rng = random.Random(seed_for(a.label, "gap", key, players, index))
    clause = a.edition.clause_by_key(key)
    tokens: tuple[int, ...] | None = None
    if rng.random() < 0.3:
        try:
            target = a.edition.player_table("tokens_to_win", players)
            tokens = tuple([target - 1] * players) if target > 1 else None
        except RuleGapError:
            tokens = None
    card = clause.card if clause is not None else None
    return GamePlan(players, 0, tokens, rng, [a.edition], frozenset({card} if card else ()), frozenset({key}))


def _z3_gap(a: Side, key: str, result: Probe) -> Witness | None:
    """A game among those z3 (or the engine's cross-check) found that stops on a gap naming `key`."""
    for players, steps, tokens in result.reached:
        looks = replay_looks(a.edition, players, 0, tokens, steps)
        if looks and looks[-1].status == "gap" and looks[-1].clause == key:
            return Witness(players, 0, tokens, steps[:len(looks)], len(looks) - 1,
                           [(look, look) for look in looks])
    return None
