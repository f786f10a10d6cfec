"""Turn a satisfying model into a concrete replay, and tell it as a short story.

The replay is the JSON form of docs/formats.md: `{"edition", "players", "first_player",
"tokens"?, "rounds": [{"deck", "actions"}]}`, the deck top first and the actions up to and
including the one during which the situation arises. The story is told from the reference
engine's own events, so it says what the engine did, not what the solver claimed.
"""

from __future__ import annotations

from collections.abc import Callable
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
    told = (TELLERS[event["type"]](action, event) for event in events if event["type"] in TELLERS)
    return ", ".join(bit for bit in told if bit is not None)


def _returned(action: dict[str, Any], event: dict[str, Any]) -> str:
    return (f"seat {event['player']} keeps the {action['card']} and puts "
            f"{', '.join(event['cards']) or 'nothing'} under the pile")


def _responded(event: dict[str, Any]) -> str:
    return f"seat {event['player']} {'discards and draws' if event['redraw'] else 'keeps their card'}"


Teller = Callable[[dict[str, Any], dict[str, Any]], str | None]

TELLERS: dict[str, Teller] = {
    "play": lambda _, e: _play(e),
    "guess": lambda _, e: "right" if e["correct"] else "wrong",
    "compare": lambda _, e: f"{e['cards'][0]} against {e['cards'][1]}",
    "return": _returned,
    "respond": lambda _, e: _responded(e),
    "counter": lambda _, e: f"seat {e['player']} reveals the {e['card']}",
    "no_effect": lambda _, e: "no effect",
    "eliminate": lambda _, e: f"seat {e['player']} is out",
    "draw": lambda _, e: (f"seat {e['player']} draws the set-aside {e['card']}"
                          if e["from"] == "set_aside" else None),
    "round_end": lambda _, e: _ending(e),
    "token": lambda _, e: f"seat {e['player']} gains a bonus token" if e["reason"] == "bonus" else None,
    "trade": lambda _, e: (f"seats {e['targets'][0]} and {e['targets'][1]} trade hands"
                           if "targets" in e else None),
    "game_end": lambda _, e: f"the game ends: {_seats(e['winners'])} {_win(e['winners'])}",
}
"""How a witness's story tells each kind of event (None: the event is not told)."""


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
