"""A small language for writing conformance cases: actions, events, steps, decks, whole cases.

Scenario modules describe each case in a few lines; these helpers expand them into the JSON of
docs/cases.md. Nothing here plays a game: every expectation is written out by the scenario
author from the rules; decks are built with `build_deck` from the cards the scenario names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from loveletter_ref.engine import build_deck
from loveletter_ref.spec import Edition, load_spec

Json = dict[str, Any]

NO = False
YES = True
"""Readable members of the `eliminated` lists in expected states."""


@dataclass(frozen=True)
class Ed:
    """An edition as scenarios see it: its id, clause prefix and compiled spec."""

    id: str
    prefix: str
    spec: Edition

    def c(self, *keys: str) -> list[str]:
        """Full clause ids for clause keys."""
        return [f"{self.prefix}.{key}" for key in keys]

    def value(self, card: str) -> int:
        """A card's value."""
        return self.spec.card(card).value

    def guesses(self) -> list[str]:
        """Every card a Guard may name (all but the Guard)."""
        return [name for name in self.spec.names if name != "Guard"]


def edition(name: str) -> Ed:
    """The scenario view of a bundled edition."""
    spec = load_spec(name)
    return Ed(spec.id, spec.prefix, spec)


# -- actions -------------------------------------------------------------------------------------


def play(card: str, target: int | None = None, guess: str | int | None = None) -> Json:
    """A play action."""
    out: Json = {"type": "play", "card": card}
    if target is not None:
        out["target"] = target
    if guess is not None:
        out["guess"] = guess
    return out


def group_play(card: str, targets: list[int], look: int | None = None) -> Json:
    """A play choosing several players (Premium)."""
    out: Json = {"type": "play", "card": card, "targets": targets}
    if look is not None:
        out["look"] = look
    return out


def keep(card: str, *returned: str) -> Json:
    """A keep action: keep `card`, place `returned` in that order."""
    return {"type": "keep", "card": card, "return": list(returned)}


def guard_plays(ed: Ed, *targets: int) -> list[Json]:
    """Every legal Guard play on each of `targets`."""
    return [play("Guard", t, g) for t in targets for g in ed.guesses()]


# -- events --------------------------------------------------------------------------------------


def e_play(player: int, card: str, target: int | None = None, guess: str | int | None = None) -> Json:
    """The `play` event."""
    out: Json = {"type": "play", "player": player, "card": card}
    if target is not None:
        out["target"] = target
    if guess is not None:
        out["guess"] = guess
    return out


def e_guess(player: int, target: int, guess: str | int, correct: bool) -> Json:
    return {"type": "guess", "player": player, "target": target, "guess": guess, "correct": correct}


def e_look(player: int, target: int, card: str) -> Json:
    return {"type": "look", "player": player, "target": target, "card": card}


def e_compare(player: int, target: int, mine: str, theirs: str, loser: int | None) -> Json:
    return {"type": "compare", "player": player, "target": target, "cards": [mine, theirs], "loser": loser}


def e_trade(player: int, target: int, mine: str, theirs: str) -> Json:
    return {"type": "trade", "player": player, "target": target, "cards": [mine, theirs]}


def e_protect(player: int) -> Json:
    return {"type": "protect", "player": player}


def e_unprotect(player: int) -> Json:
    return {"type": "unprotect", "player": player}


def e_discard(player: int, card: str) -> Json:
    return {"type": "discard", "player": player, "card": card}


def e_draw(player: int, card: str, source: str = "deck") -> Json:
    return {"type": "draw", "player": player, "card": card, "from": source}


def e_no_effect(player: int, card: str) -> Json:
    return {"type": "no_effect", "player": player, "card": card}


def e_return(player: int, *cards: str, to: str = "bottom") -> Json:
    return {"type": "return", "player": player, "cards": list(cards), "to": to}


def e_out(player: int, by: str, *hand: str) -> list[Json]:
    """A player knocked out by `by`, then their remaining hand discarded."""
    return [{"type": "eliminate", "player": player, "by": by}, *(e_discard(player, c) for c in hand)]


def e_turn(player: int, draws: str, unprotect: bool = False) -> list[Json]:
    """The start of `player`'s turn: protection ending (when it does), then the draw."""
    return [
        {"type": "turn", "player": player},
        *([e_unprotect(player)] if unprotect else []),
        e_draw(player, draws),
    ]


def e_round_end(reason: str, winners: Sequence[int], hands: Sequence[str | None] | None = None) -> Json:
    out: Json = {"type": "round_end", "reason": reason, "winners": list(winners)}
    if hands is not None:
        out["hands"] = list(hands)
    return out


def e_token(player: int, reason: str = "round", amount: int = 1) -> Json:
    return {"type": "token", "player": player, "amount": amount, "reason": reason}


def e_game_end(*winners: int) -> Json:
    return {"type": "game_end", "winners": list(winners)}


def e_round_start(round_: int, first: int, face_up: Sequence[str] = (), set_aside: int = 1) -> Json:
    return {
        "type": "round_start",
        "round": round_,
        "first": first,
        "face_up": list(face_up),
        "set_aside": set_aside,
    }


def e_deal(player: int, card: str | None = None) -> Json:
    """A deal event; without `card`, as the other players observe it."""
    return {"type": "deal", "player": player, **({"card": card} if card is not None else {})}


def start_events(
    hands: Sequence[str], draws: str, *, first: int = 0, face_up: Sequence[str] = (), round_: int = 1
) -> list[Json]:
    """The events of dealing `hands` to seats 0.. and the first player's first draw."""
    return [
        e_round_start(round_, first, face_up),
        *(e_deal(seat, card) for seat, card in enumerate(hands)),
        *e_turn(first, draws),
    ]


HIDDEN = {
    "deal": "card",
    "draw": "card",
    "look": "card",
    "compare": "cards",
    "trade": "cards",
    "return": "cards",
}
"""docs/formats.md: events carrying cards that only some players see, and the field holding them."""


def seen(events: Sequence[Json], viewer: int) -> list[Json]:
    """`events` as `viewer` observes them: hidden cards removed unless the viewer may see them.

    Cards handed between two chosen players (`targets`, Premium) are seen by those two only.
    """
    return [event if _sees(event, viewer) else hidden(event) for event in events]


def _sees(event: Json, viewer: int) -> bool:
    if "targets" in event:
        return viewer in event["targets"]
    both = event["type"] in ("compare", "trade") and event.get("target") == viewer
    return both or event.get("player") == viewer


def hidden(event: Json) -> Json:
    """`event` without its hidden cards."""
    field = HIDDEN.get(event["type"])
    return {k: v for k, v in event.items() if k != field}


# -- steps ---------------------------------------------------------------------------------------


def step(
    action: Json,
    events: list[Json] | None = None,
    *,
    state: Json | None = None,
    legal: list[Json] | None = None,
    views: dict[int, Json] | None = None,
    note: str | None = None,
) -> Json:
    """An action the engine must accept, with what must follow it."""
    out: Json = {"action": action}
    expect = _expect(events, state, legal, views)
    if expect:
        out["expect"] = expect
    if note:
        out["note"] = note
    return out


def refuse(action: Json, note: str | None = None) -> Json:
    """An action the engine must refuse, leaving the state unchanged."""
    out: Json = {"action": action, "refused": True}
    if note:
        out["note"] = note
    return out


def expect(
    events: list[Json] | None = None,
    *,
    state: Json | None = None,
    legal: list[Json] | None = None,
    views: dict[int, Json] | None = None,
) -> Json:
    """What must hold right after dealing (a round's `start`)."""
    return _expect(events, state, legal, views)


def _expect(
    events: list[Json] | None, state: Json | None, legal: list[Json] | None, views: dict[int, Json] | None
) -> Json:
    out: Json = {}
    if events is not None:
        out["events"] = events
    if state is not None:
        out["state"] = state
    if legal is not None:
        out["legal_actions"] = legal
    if views is not None:
        out["views"] = {str(seat): view for seat, view in views.items()}
    return out


# -- rounds and cases ----------------------------------------------------------------------------


def deal(
    ed: Ed,
    players: int,
    hands: Sequence[str],
    draws: Sequence[str] = (),
    *,
    set_aside: Sequence[str] = (),
    face_up: Sequence[str] = (),
    bottom: Sequence[str] = (),
) -> list[str]:
    """A full deck (top first) dealing `hands` to seats 0.. and then drawing `draws` in order."""
    return build_deck(ed.spec, players, hands, draws, set_aside=set_aside, face_up=face_up, bottom=bottom)


def stack(ed: Ed, players: int, top: Sequence[str]) -> list[str]:
    """A full deck with `top` on top, then the other cards in card-table order.

    For rulebook readings whose setup takes cards in another order than the edition's.
    """
    rest = [ed.spec.names[c] for c in ed.spec.deck(players)]
    for card in top:
        rest.remove(card)
    return list(top) + rest


def swap(deck: list[str], old: str, new: str) -> list[str]:
    """`deck` with its last `old` replaced by `new`."""
    at = len(deck) - 1 - deck[::-1].index(old)
    return deck[:at] + [new] + deck[at + 1 :]


def rnd(
    deck: Sequence[str], steps: Sequence[Json] = (), *, start: Json | None = None, note: str | None = None
) -> Json:
    """One round: its deck, what must hold after dealing, its steps."""
    out: Json = {"deck": list(deck)}
    if start:
        out["start"] = start
    out["steps"] = list(steps)
    if note:
        out["note"] = note
    return out


def refused_round(deck: Sequence[str], note: str | None = None) -> Json:
    """A deck the engine must refuse to deal."""
    out: Json = {"deck": list(deck), "refused": True}
    if note:
        out["note"] = note
    return out


def case(
    ed: Ed,
    id_: str,
    description: str,
    *,
    clauses: Sequence[str],
    tags: Sequence[str],
    players: int,
    rounds: Sequence[Json],
    first: int = 0,
    tokens: Sequence[int] | None = None,
    needs: Sequence[str] = (),
    result: Json | None = None,
    note: str | None = None,
    assumes: str | None = None,
) -> Json:
    """A whole case; `id_` gets the clause prefix of the reading it assumes, else of its edition."""
    prefix = load_spec(assumes).prefix if assumes is not None else ed.prefix
    out: Json = {
        "id": f"{prefix}.{id_}",
        "description": description,
        "clauses": list(dict.fromkeys(clauses)),
        "tags": list(dict.fromkeys(tags)),
        "edition": ed.id,
        "players": players,
    }
    if first:
        out["first_player"] = first
    if tokens is not None:
        out["tokens"] = list(tokens)
    if assumes is not None:
        out["assumes"] = assumes
    wanted = set(needs) | ({"games"} if len(rounds) > 1 else set())
    if wanted:
        out["needs"] = sorted(wanted)
    if note:
        out["note"] = note
    out["rounds"] = list(rounds)
    if result is not None:
        out["result"] = result
    return out
