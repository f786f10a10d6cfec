"""The cases and games of a baseline: their inputs, and how one is played on an engine.

A corpus case is played as its file writes it: the deal of each round, then each action (the
ones the rules forbid included), whatever the engine answers. A random game is drawn from its
own seed: a shuffled deck and a first player, then at each decision one of the engine's own
legal actions (the reference's, for an engine that does not list them), the next round while
the game goes on. Both end early at the first failure of the engine or refused deal; a game
also ends at the first refused action and after `MAX_ROUNDS` rounds or `MAX_ACTIONS` actions.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from loveletter_ref import Action, Game
from loveletter_ref.errors import EngineError
from loveletter_ref.spec import Edition

from ..harness.cases import Case
from .delta import Json
from .observe import APPLY, NEXT_ROUND, START, Observer, is_deal, live, sorted_actions

MAX_ROUNDS = 40
"""Rounds a random game plays at most."""

MAX_ACTIONS = 2000
"""Actions a random game sends at most."""


def ends(record: Json) -> bool:
    """True when nothing can follow this record: the engine failed, or refused a deal."""
    return "error" in record or (is_deal(record["in"]) and not record["out"]["accepted"])


def start_input(edition: str, players: int, deck: list[str], first_player: int,
                tokens: list[int] | None) -> Json:
    """The input that deals a new game's first round."""
    return {START: {"edition": edition, "players": players, "deck": list(deck), "first_player": first_player,
                    "tokens": list(tokens) if tokens is not None else [0] * players}}


def case_script(case: Case) -> Iterator[tuple[int, int, Json]]:
    """(round, step, input) for every deal and action of a case, in order."""
    for number, round_ in enumerate(case.rounds, 1):
        deck = list(round_["deck"])
        if number == 1:
            tokens = list(case.tokens) if case.tokens is not None else None
            yield number, 0, start_input(case.edition, case.players, deck, case.first_player, tokens)
        else:
            yield number, 0, {NEXT_ROUND: {"deck": deck}}
        for index, step in enumerate(round_.get("steps", ()), 1):
            yield number, index, {APPLY: step["action"]}


def play_script(observer: Observer, key: Json, script: Iterator[tuple[int, int, Json]]) -> list[Json]:
    """Send a script's inputs until it ends or the engine stops it; the records."""
    records = []
    for number, index, inputs in script:
        record = {"at": {**key, "round": number, "step": index}, **observer.send(inputs)}
        records.append(record)
        if ends(record):
            break
    return records


def game_id(edition: Edition, players: int, seed: int) -> str:
    """The id of a random game: `classic.random/3-players-seed-123`."""
    return f"{edition.prefix}.random/{players}-players-seed-{seed}"


def game_seed(master: int, edition: str, players: int, index: int) -> int:
    """The seed of the `index`-th random game of an edition and player count."""
    return random.Random(f"{master}/{edition}/{players}/{index}").getrandbits(32)


def choose(rng: random.Random, actions: list[Any]) -> Any:
    """A card uniformly among those the actions play (or keep), then one of its actions uniformly.

    The golden traces are played by it too (tools/gen_golden.py). Given the actions' JSON forms
    sorted canonically, the choice does not depend on the order in which an engine lists them.
    """
    cards = sorted({_card(action) for action in actions})
    card = cards[rng.randrange(len(cards))]
    mine = [action for action in actions if _card(action) == card]
    return mine[rng.randrange(len(mine))]


def _phase(state: Any) -> Any:
    return state.get("phase") if isinstance(state, dict) else None


def _card(action: Any) -> str:
    return json.dumps(action.get("card") if isinstance(action, dict) else None)


class RandomGame:
    """One random game, drawn from its seed, played on an engine through an observer."""

    def __init__(self, observer: Observer, edition: Edition, players: int, seed: int):
        self.observer = observer
        self.edition = edition
        self.players = players
        self.rng = random.Random(seed)
        self.key = {"game": game_id(edition, players, seed)}
        self.records: list[Json] = []
        self.shadow: Game | None = None
        self.round = 0
        self.step = 0

    def play(self, can_continue: bool) -> list[Json]:
        """Play it to its end (`can_continue`: the engine plays rounds after the first); the records."""
        first = self.rng.randrange(self.players)
        if self._deal(start_input(self.edition.id, self.players, self._deck(), first, None), first):
            self._rounds(can_continue)
        return self.records

    def _rounds(self, can_continue: bool) -> None:
        actions = 0
        while actions < MAX_ACTIONS:
            state = self.observer.state
            if live(state):
                legal = self._legal()
                actions += 1
                if not legal or not self._apply(choose(self.rng, legal)):
                    return
            elif can_continue and self.round < MAX_ROUNDS and _phase(state) == "round_over":
                if not self._deal({NEXT_ROUND: {"deck": self._deck()}}, None):
                    return
            else:
                return

    def _deck(self) -> list[str]:
        deck = [self.edition.names[card] for card in self.edition.deck(self.players)]
        self.rng.shuffle(deck)
        return deck

    def _send(self, inputs: Json) -> Json:
        record = {"at": {**self.key, "round": self.round, "step": self.step}, **self.observer.send(inputs)}
        self.records.append(record)
        return record

    def _deal(self, inputs: Json, first: int | None) -> bool:
        """Deal a round on the engine (and on the shadow reference); False when the game ends."""
        self.round += 1
        self.step = 0
        record = self._send(inputs)
        if ends(record):
            return False
        if "legal_actions" not in self.observer.capabilities:
            return self._shadow_deal(inputs, first)
        return True

    def _shadow_deal(self, inputs: Json, first: int | None) -> bool:
        deal = inputs[START] if START in inputs else inputs[NEXT_ROUND]
        try:
            if first is not None:
                self.shadow = Game(self.edition, self.players, first_player=first)
            if self.shadow is None:
                return False
            self.shadow.start_round(list(deal["deck"]))
        except EngineError:  # the engine went on where the rules do not: the game ends here
            return False
        return True

    def _legal(self) -> list[Any]:
        """The engine's legal actions, or the shadow reference's for an engine that lists none."""
        if "legal_actions" in self.observer.capabilities:
            legal = self.observer.legal
            return legal if isinstance(legal, list) else []
        if self.shadow is None:
            return []
        return sorted_actions([action.to_json() for action in self.shadow.legal_actions()])

    def _apply(self, action: Any) -> bool:
        """Send an action; False when the game ends (the engine failed or refused it)."""
        self.step += 1
        record = self._send({APPLY: action})
        if "error" in record or not record["out"]["accepted"]:
            return False
        if self.shadow is not None:
            try:
                self.shadow.apply(Action.from_json(action))
            except (EngineError, ValueError):  # the engine and the rules have parted
                self.shadow = None
        return True
