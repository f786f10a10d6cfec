"""A small Love Letter engine written for issue 25, independent of the reference: Z-Man 2019 for
two players only, one round, no favour tokens, its own shuffle (it cannot be dealt a given deck),
the Chancellor's keep and return taken in the play itself, and a list of its legal actions.

`OneRound` is the engine; `GivenDecks` also takes a given deck (so that the corpus cases apply);
`FaceUpShort` and `BaronTieOut` each add one bug (a setup rule and a
card rule) for the tests to find. As an in-process adapter: `python:one_round:OneRound` with
tests/engines on the path.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Sequence
from typing import Any

from llcheck.engines import Engine, EngineFailure, Hello, Reply

Json = dict[str, Any]

EDITION = "z-man-2019"
VALUES = {"Spy": 0, "Guard": 1, "Priest": 2, "Baron": 3, "Handmaid": 4, "Prince": 5, "Chancellor": 6,
          "King": 7, "Countess": 8, "Princess": 9}
COUNTS = {"Spy": 2, "Guard": 6, "Priest": 2, "Baron": 2, "Handmaid": 2, "Prince": 2, "Chancellor": 2,
          "King": 1, "Countess": 1, "Princess": 1}
TARGETS_OTHER = {"Guard", "Priest", "Baron", "King"}


def _sorted(hand: list[str]) -> list[str]:
    return sorted(hand, key=lambda card: (VALUES[card], card))


class OneRound(Engine):
    """Two players, one round, no tokens, deals itself, one-step Chancellor."""

    face_up_count = 3

    def __init__(self) -> None:
        capabilities = frozenset({"legal_actions", "one_step_chancellor"})
        self.hello = Hello("one-round", "1.0", (EDITION,), capabilities, capabilities_version=2,
                           players={EDITION: (2,)})
        self.game: Json | None = None

    # -- dealing ---------------------------------------------------------------------------------

    def start(self, edition: str, players: int, deck: Sequence[str], first_player: int = 0,
              tokens: Sequence[int] | None = None) -> Reply:
        raise EngineFailure("this engine shuffles its own deck")

    def next_round(self, deck: Sequence[str]) -> Reply:
        raise EngineFailure("this engine plays one round")

    def deal(self, edition: str, players: int, seed: int, first_player: int = 0,
             tokens: Sequence[int] | None = None) -> Reply:
        if edition != EDITION or players != 2 or first_player not in (0, 1):
            return Reply(False, reason="this engine plays z-man-2019 with 2 players only")
        cards = [card for card, n in COUNTS.items() for _ in range(n)]
        random.Random(seed).shuffle(cards)
        return self._dealt(cards, first_player)

    def _dealt(self, cards: list[str], first_player: int) -> Reply:
        k = self.face_up_count
        self.game = {"set_aside": cards[:1], "face_up": cards[1:1 + k],
                     "hands": [[cards[1 + k]], [cards[2 + k]]],
                     "deck": cards[3 + k:], "discards": [[], []], "out": [False, False],
                     "protected": [False, False], "turn": first_player, "starter": first_player,
                     "winners": None}
        self._begin(first_player)
        return Reply(True, [], self.state())

    def _begin(self, seat: int) -> None:
        game = self._game()
        game["turn"] = seat
        game["protected"][seat] = False
        game["hands"][seat].append(game["deck"].pop(0))

    def _game(self) -> Json:
        if self.game is None:
            raise EngineFailure("no game has been dealt")
        return self.game

    # -- what may be done --------------------------------------------------------------------------

    def legal_actions(self) -> list[Json]:
        game = self._game()
        if game["winners"] is not None:
            return []
        seat = game["turn"]
        hand = game["hands"][seat]
        forced = "Countess" in hand and ({"King", "Prince"} & set(hand))
        actions: list[Json] = []
        for card in sorted(set(hand), key=lambda c: (VALUES[c], c)):
            if forced and card != "Countess":
                continue
            actions += self._plays(seat, card)
        return actions

    def _open(self, seat: int) -> list[int]:
        game = self._game()
        return [s for s in (0, 1) if s != seat and not game["out"][s] and not game["protected"][s]]

    def _plays(self, seat: int, card: str) -> list[Json]:
        play: Json = {"type": "play", "card": card}
        if card in TARGETS_OTHER:
            targets = self._open(seat)
            if not targets:
                return [play]
            if card == "Guard":
                names = [name for name in VALUES if name != "Guard"]
                return [{**play, "target": t, "guess": name} for t in targets for name in names]
            return [{**play, "target": t} for t in targets]
        if card == "Prince":
            return [{**play, "target": t} for t in sorted([seat, *self._open(seat)])]
        if card == "Chancellor":
            return self._chancellor(seat)
        return [play]

    def _chancellor(self, seat: int) -> list[Json]:
        game = self._game()
        hand = list(game["hands"][seat])
        hand.remove("Chancellor")
        drawn = game["deck"][:2]
        if not drawn:
            return [{"type": "play", "card": "Chancellor"}]
        pool = hand + drawn
        out = []
        for keep in sorted(set(pool)):
            rest = list(pool)
            rest.remove(keep)
            for order in sorted(set(itertools.permutations(rest))):
                out.append({"type": "play", "card": "Chancellor", "keep": keep, "return": list(order)})
        return out

    # -- playing -----------------------------------------------------------------------------------

    def apply(self, action: Json) -> Reply:
        game = self._game()
        if action not in self.legal_actions():
            return Reply(False, reason=f"not a legal action now: {action}")
        seat = game["turn"]
        card = action["card"]
        game["hands"][seat].remove(card)
        game["discards"][seat].append(card)
        target = action.get("target")
        if card == "Guard" and target is not None:
            if game["hands"][target][0] == action["guess"]:
                self._knock_out(target)
        elif card == "Baron" and target is not None:
            self._baron(seat, target)
        elif card == "Handmaid":
            game["protected"][seat] = True
        elif card == "Prince":
            self._prince(target)
        elif card == "Chancellor" and "keep" in action:
            del game["deck"][:2]  # drawn: the kept card and the returned ones are the action's
            game["hands"][seat] = [action["keep"]]
            game["deck"] += action["return"]
        elif card == "King" and target is not None:
            game["hands"][seat], game["hands"][target] = game["hands"][target], game["hands"][seat]
        elif card == "Princess":
            self._knock_out(seat)
        self._end_turn()
        return Reply(True, [], self.state())

    def _baron(self, seat: int, target: int) -> None:
        game = self._game()
        mine, theirs = VALUES[game["hands"][seat][0]], VALUES[game["hands"][target][0]]
        if mine < theirs:
            self._knock_out(seat)
        elif theirs < mine:
            self._knock_out(target)

    def _prince(self, target: int) -> None:
        game = self._game()
        dropped = game["hands"][target].pop()
        game["discards"][target].append(dropped)
        if dropped == "Princess":
            game["out"][target] = True
            return
        game["hands"][target].append(game["deck"].pop(0) if game["deck"] else game["set_aside"].pop())

    def _knock_out(self, seat: int) -> None:
        game = self._game()
        game["discards"][seat] += game["hands"][seat]
        game["hands"][seat] = []
        game["out"][seat] = True

    def _end_turn(self) -> None:
        game = self._game()
        alive = [s for s in (0, 1) if not game["out"][s]]
        if len(alive) <= 1:
            game["winners"] = alive
        elif not game["deck"]:
            best = max(VALUES[game["hands"][s][0]] for s in alive)
            game["winners"] = [s for s in alive if VALUES[game["hands"][s][0]] == best]
        else:
            self._begin(1 - game["turn"])
            return
        game["turn"] = None

    # -- what is seen ------------------------------------------------------------------------------

    def state(self) -> Json:
        game = self._game()
        over = game["winners"] is not None
        return {"edition": EDITION, "players": 2, "round": 1, "phase": "round_over" if over else "play",
                "turn": game["turn"], "starter": game["starter"], "deck": list(game["deck"]),
                "set_aside": list(game["set_aside"]), "face_up": list(game["face_up"]),
                "hands": [_sorted(hand) for hand in game["hands"]],
                "discards": [list(d) for d in game["discards"]], "eliminated": list(game["out"]),
                "protected": list(game["protected"]), "tokens": [0, 0], "pending": None,
                "round_winners": game["winners"], "game_winners": None}

    def view(self, player: int) -> Json:
        raise EngineFailure("this engine has no views")


class GivenDecks(OneRound):
    """The same engine, which can also be dealt a given deck."""

    def __init__(self) -> None:
        super().__init__()
        self.hello = dataclasses.replace(self.hello, capabilities=self.hello.capabilities | {"deck"})

    def start(self, edition: str, players: int, deck: Sequence[str], first_player: int = 0,
              tokens: Sequence[int] | None = None) -> Reply:
        wanted = sorted(card for card, n in COUNTS.items() for _ in range(n))
        if edition != EDITION or players != 2 or first_player not in (0, 1) or sorted(deck) != wanted:
            return Reply(False, reason="not a z-man-2019 deck for 2 players")
        if tokens is not None and any(tokens):
            return Reply(False, reason="this engine keeps no tokens")
        return self._dealt(list(deck), first_player)


class FaceUpShort(OneRound):
    """A setup bug: only two cards face up with two players (the rules say three)."""

    face_up_count = 2


class BaronTieOut(OneRound):
    """A rule bug: a Baron tie knocks both players out (the rules say nothing happens)."""

    def _baron(self, seat: int, target: int) -> None:
        game = self._game()
        if VALUES[game["hands"][seat][0]] == VALUES[game["hands"][target][0]]:
            self._knock_out(seat)
            self._knock_out(target)
            return
        super()._baron(seat, target)
