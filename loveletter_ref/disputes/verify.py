"""Check a stored verdict: its witness replays, under each spec, to the difference it claims.

For a difference or contradiction: each side's machine replay is played by the reference engine
(refusals and rule gaps may only come at the last step); the two endings differ; the two games
first part at the step the witness says; and the clause alone accounts for it there. For a
silence: the replay stops at its last step on a rule gap naming that clause. For a vacuous
verdict: z3's proof is on record for every player count.
"""

from __future__ import annotations

import random
from typing import Any

from loveletter_ref import Action, Game
from loveletter_ref.errors import DeckError, IllegalActionError, RuleGapError
from loveletter_ref.spec import Edition

from . import values
from .differences import line_up
from .duel import differ
from .search import Budget, GamePlan, PairSearch, Run
from .sides import Side, side_of
from .witness import Witness, replay_looks


def ending(edition: Edition, record: dict[str, Any]) -> tuple[Any, ...]:
    """How a replay ends under `edition`: ("refused"|"gap", clause key, at last step?) or
    ("ok", eliminated, tokens, round winners, game winners)."""
    prefix = edition.prefix + "."
    steps = sum(1 + len(r["actions"]) for r in record["rounds"])
    done = 0
    try:
        game = Game(edition, record["players"], first_player=record.get("first_player", 0),
                    tokens=record.get("tokens"))
        for round_ in record["rounds"]:
            game.start_round(round_["deck"])
            done += 1
            for action in round_["actions"]:
                game.apply(Action.from_json(action))
                done += 1
    except (IllegalActionError, RuleGapError) as exc:
        kind = "refused" if isinstance(exc, IllegalActionError) else "gap"
        return kind, exc.clause.removeprefix(prefix), done == steps - 1
    except DeckError:
        return "refused", "setup.deck", done == steps - 1
    state = game.state()
    return ("ok", tuple(state["eliminated"]), tuple(state["tokens"]), state["round_winners"],
            state["game_winners"])


def problems(verdict: dict[str, Any]) -> list[str]:
    """What is wrong with a stored verdict (empty when it holds). A verdict settled on its own
    holds when its verdict on its own does, with the same status."""
    key, status = verdict["clause"], verdict["status"]
    if verdict.get("on_its_own"):
        return _own_problems(verdict)
    if status == "vacuous":
        return _proof_problems(verdict)
    witness = verdict.get("witness")
    if status != "observable":
        return [] if witness is None else [f"{key}: an {status} verdict with a witness"]
    if witness is None:
        return [f"{key}: an observable verdict without a witness"]
    headers = list(witness["replays"].values())
    sides = [side_of(h) for h in headers]
    if any(side is None for side in sides):
        return [f"{key}: a spec of the witness cannot be rebuilt"]
    built = [s for s in sides if s is not None]
    if verdict["kind"] == "silence":
        end = ending(built[0].edition, headers[0])
        if end != ("gap", key, True):
            return [f"{key}: the replay does not stop on a gap naming it at its last step ({end})"]
        return []
    return _difference_problems(key, {**witness, "together": verdict.get("together")}, built, headers)


def _own_problems(verdict: dict[str, Any]) -> list[str]:
    """A verdict settled on its own: its verdict on its own holds, with the same status."""
    key, status = verdict["clause"], verdict["status"]
    alone = verdict.get("alone")
    if alone is None or alone["status"] != status:
        return [f"{key}: settled on its own, but its verdict on its own is not {status}"]
    if verdict.get("witness") is not None:
        return [f"{key}: a verdict settled on its own with a witness between the two"]
    return problems(alone)


def _proof_problems(verdict: dict[str, Any]) -> list[str]:
    """A vacuous verdict: a proof for every player count (one by the rules bears itself out)."""
    key = verdict["clause"]
    proofs = verdict.get("proof", [])
    if verdict["kind"] == "contradiction" and not proofs:
        return []
    if not proofs or any(p["status"] != "unreachable" for p in proofs):
        return [f"{key}: a vacuous verdict without a complete z3 proof"]
    return [f"{key}: {problem}" for p in proofs if p.get("method") == values.METHOD
            if (problem := values.check(p)) is not None]


def _difference_problems(key: str, witness: dict[str, Any], sides: list[Side],
                         headers: list[dict[str, Any]]) -> list[str]:
    out = []
    ends = [ending(side.edition, header) for side, header in zip(sides, headers, strict=True)]
    for end, side in zip(ends, sides, strict=True):
        if end[0] != "ok" and not end[2]:
            out.append(f"{key}: {side.label} stops before the last step ({end[0]} {end[1]})")
    if ends[0] == ends[1]:
        out.append(f"{key}: the replays end the same way under both specs ({ends[0]})")
    a, b = sides
    w = Witness.from_json(witness, a.edition)
    looks = list(zip(replay_looks(a.edition, w.players, w.first_player, w.tokens, w.steps),
                     replay_looks(b.edition, w.players, w.first_player, w.tokens, w.steps), strict=False))
    first = next((i for i, (la, lb) in enumerate(looks) if differ(la, lb)), None)
    if first != w.diverged:
        out.append(f"{key}: the games part at step {first}, not {w.diverged} as recorded")
        return out
    together = tuple(witness.get("together") or ()) or (key,)
    if not _attributed(key, a, b, w, looks, together):
        due = key if len(together) == 1 else " and ".join(together)
        out.append(f"{key}: the first difference is not due to {due} alone")
    return out


def _attributed(key: str, a: Side, b: Side, w: Witness, looks: list[Any], together: tuple[str, ...]) -> bool:
    diffs = [d for d in line_up(a.edition, b.edition)[0] if d.key == key]
    if not diffs:
        return False
    sides = (a, b)
    search = PairSearch(a.edition, b.edition, diffs, Budget(),
                        lambda s, k: sides[s].blend(sides[1 - s], *together),
                        lambda s, k: sides[s].silenced(k), "verify")
    game = GamePlan(w.players, w.first_player, w.tokens, random.Random(0), [a.edition])
    run = Run(game, list(w.steps[:len(looks)]), looks, w.diverged, True)
    return key in search.attribute(run, [key])
