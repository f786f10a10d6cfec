"""Turn a satisfying model into a concrete replay, and tell it as a short story.

The replay is the JSON form of docs/formats.md: `{"edition", "players", "first_player",
"tokens"?, "rounds": [{"deck", "actions"}]}`, the deck top first and the actions up to and
including the one during which the situation arises. The story is told from the reference
engine's own events, so it says what the engine did, not what the solver claimed.
"""

from __future__ import annotations

from typing import Any

import z3

from loveletter_ref.spec import Edition

from .conditions import Happening
from .playback import Playback, play
from .unroll import RoundEncoding, Turn

Replay = dict[str, Any]


def value(model: z3.ModelRef, term: z3.ExprRef) -> int:
    """A bit-vector's value in the model."""
    return model.eval(term, model_completion=True).as_long()


def truth(model: z3.ModelRef, term: z3.ExprRef) -> bool:
    """A Boolean's value in the model."""
    return z3.is_true(model.eval(term, model_completion=True))


def turn_actions(rnd: RoundEncoding, model: z3.ModelRef, turn: Turn) -> list[dict[str, Any]]:
    """The one or two actions (a play, then maybe a keep) of a played turn."""
    names = rnd.layout.names
    card = value(model, turn.played)
    play: dict[str, Any] = {"type": "play", "card": names[card]}
    decision = rnd.layout.facts.decisions[card]
    if decision.count > 1 and truth(model, turn.has_target):
        seats = [value(model, turn.target)]
        seats += [value(model, turn.target2)] if truth(model, turn.has_target2) else []
        play["targets"] = seats
        if decision.look_choice:
            play["look"] = seats[-1] if truth(model, turn.look2) else seats[0]
    elif truth(model, turn.has_target):
        play["target"] = value(model, turn.target)
    rule = decision.guess.clause.rule if decision.guess is not None else None
    if truth(model, turn.guessing) and rule is not None:  # a silent guess rule names nothing
        guess = value(model, turn.guess)
        play["guess"] = guess if rule["by"] == "value" else names[guess]
    actions = [play]
    if truth(model, turn.offered):
        actions.append({"type": "respond", "card": names[card], "redraw": truth(model, turn.redraw)})
    if truth(model, turn.keeping):
        returned = [names[value(model, s.card)] for s in turn.returned if truth(model, s.present)]
        actions.append({"type": "keep", "card": names[value(model, turn.kept)], "return": returned})
    return actions


def extract(rnd: RoundEncoding, model: z3.ModelRef, moment: Happening, with_tokens: bool) -> Replay:
    """The replay of the model's round, cut just after the action during which `moment` happens."""
    layout = rnd.layout
    deck = [layout.names[value(model, d)] for d in rnd.deal]
    if moment.phase in ("end", "next"):
        turns = layout.depth
    else:
        turns = moment.turn + (0 if moment.phase == "start" else 1)
    actions: list[dict[str, Any]] = []
    for turn in rnd.turns[:turns]:
        if truth(model, turn.acted):
            done = turn_actions(rnd, model, turn)
            actions += done[:1] if moment.phase == "play" and turn.index == moment.turn else done
    record: Replay = {"edition": rnd.edition.id, "players": layout.players, "first_player": 0}
    tokens = [value(model, t) for t in rnd.tokens]
    if with_tokens and any(tokens):
        record["tokens"] = tokens
    record["rounds"] = [{"deck": deck, "actions": actions}]
    if moment.phase == "next":
        record["rounds"].append({"deck": deck, "actions": []})
    return record


def setup_witness(edition: Edition, players: int) -> Replay:
    """A replay that only deals a round (in card-table order): enough to reach a silent setup rule."""
    deck = [edition.names[c] for c in edition.deck(players)]
    return {"edition": edition.id, "players": players, "first_player": 0,
            "rounds": [{"deck": deck, "actions": []}]}


def story(edition: Edition, record: Replay) -> str:
    """The replay as one readable line: the deal, then each action and what it caused."""
    run = play(edition, record)
    parts: list[str] = []
    for moment in run.moments:
        if moment.action is None and not parts:
            parts.append(_deal(moment.after, moment.events, record))
        elif moment.action is None:
            parts.append("the next round is dealt")
        else:
            parts.append(_telling(moment.action, moment.events))
    if run.refused is not None:
        parts.append(run.refused)
    if run.gap is not None:
        attempt = _attempt(run)
        parts.append(f"{attempt}the rules give no answer: {run.gap.reason} [{run.gap.clause}]")
    return "; ".join(parts)


def _attempt(run: Playback) -> str:
    """The action during which the engine stopped on a rule gap, told as it was tried (with what
    it caused before the gap)."""
    actions = [a for r in run.record["rounds"] for a in [None, *r["actions"]]]
    if run.last is None or len(run.moments) >= len(actions) or actions[len(run.moments)] is None:
        return ""
    action = actions[len(run.moments)]
    if run.stopped:
        return _telling(action, run.stopped) + ": "
    seat = run.last.after["turn"]
    if action["type"] == "keep":
        return f"seat {seat} keeps the {action['card']}: "
    return _play({"player": seat, **action}) + ": "


def _deal(state: dict[str, Any], events: list[dict[str, Any]], record: Replay) -> str:
    hands = ", ".join(f"seat {e['player']} {e['card']}" for e in events if e["type"] == "deal")
    text = f"deal: set aside {', '.join(state['set_aside']) or 'nothing'}"
    if state["face_up"]:
        text += f", face up {', '.join(state['face_up'])}"
    dealt = len(state["set_aside"]) + len(state["face_up"]) + len(state["hands"])
    text += f"; hands {hands}; draw pile {', '.join(record['rounds'][0]['deck'][dealt:])}"
    if any(record.get("tokens") or ()):
        text += f"; tokens before the round {', '.join(map(str, record['tokens']))}"
    return text


def _telling(action: dict[str, Any], events: list[dict[str, Any]]) -> str:
    """One action and what it caused, from the engine's events."""
    bits = []
    for event in events:
        kind = event["type"]
        if kind == "play":
            bits.append(_play(event))
        elif kind == "guess":
            bits.append("right" if event["correct"] else "wrong")
        elif kind == "compare":
            bits.append(f"{event['cards'][0]} against {event['cards'][1]}")
        elif kind == "return":
            bits.append(f"seat {event['player']} keeps the {action['card']} and puts "
                        f"{', '.join(event['cards']) or 'nothing'} under the pile")
        elif kind == "respond":
            answer = "discards and draws" if event["redraw"] else "keeps their card"
            bits.append(f"seat {event['player']} {answer}")
        elif kind == "counter":
            bits.append(f"seat {event['player']} reveals the {event['card']}")
        elif kind == "no_effect":
            bits.append("no effect")
        elif kind == "eliminate":
            bits.append(f"seat {event['player']} is out")
        elif kind == "draw" and event["from"] == "set_aside":
            bits.append(f"seat {event['player']} draws the set-aside {event['card']}")
        elif kind == "round_end":
            bits.append(_ending(event))
        elif kind == "token" and event["reason"] == "bonus":
            bits.append(f"seat {event['player']} gains a bonus token")
        elif kind == "trade" and "targets" in event:
            bits.append(f"seats {event['targets'][0]} and {event['targets'][1]} trade hands")
        elif kind == "game_end":
            bits.append(f"the game ends: {_seats(event['winners'])} {_win(event['winners'])}")
    return ", ".join(bits)


def _play(event: dict[str, Any]) -> str:
    text = f"seat {event['player']} plays the {event['card']}"
    if "target" in event:
        text += " on themself" if event["target"] == event["player"] else f" on seat {event['target']}"
    if "guess" in event:
        guess = event["guess"]
        text += f", naming the {guess}" if isinstance(guess, str) else f", naming {guess}"
    return text


def _ending(event: dict[str, Any]) -> str:
    reason = event["reason"].replace("_", " ")
    text = f"the round ends ({reason}): {_seats(event['winners'])} {_win(event['winners'])}"
    if "hands" in event:
        held = ", ".join(f"seat {s} {c}" for s, c in enumerate(event["hands"]) if c is not None)
        text += f" (hands {held})"
    return text


def _seats(seats: list[int]) -> str:
    return ", ".join(f"seat {s}" for s in seats) if seats else "nobody"


def _win(seats: list[int]) -> str:
    return "win" if len(seats) > 1 else "wins"
