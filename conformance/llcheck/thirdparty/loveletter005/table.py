"""One round of loveletter 0.0.5, driven the way its Telegram bot drives it.

The package's `Game` talks to players only through the bot object it is given
(`send_message`); `Chat` stands in for it and records the messages instead. Players act by
chat text, which goes through the package's own input handling (`GameBot.text_handler`): the
card's name, then the target's name, then the guessed card's name. A text the bot does not take
changes nothing, which is how a refusal shows.

The engine names the Handmaid "Maid"; everything else uses the names of the classic spec.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any

from ...engines.base import Json
from .loader import Package

ENGINE_NAMES = {"Handmaid": "Maid"}
"""Classic card name -> the engine's name for it, where they differ."""

SPEC_NAMES = {engine: spec for spec, engine in ENGINE_NAMES.items()}

FIRST_ID = 1000
"""Telegram user id of seat 0 (seat s is FIRST_ID + s)."""

WINNER_LINE = "Winner is "
"""How the engine's end-of-game message names the winner."""


def engine_name(name: str) -> str:
    """The engine's name for a classic card."""
    return ENGINE_NAMES.get(name, name)


def spec_name(name: str) -> str:
    """The classic name of an engine card."""
    return SPEC_NAMES.get(name, name)


class Chat:
    """Stands in for the Telegram bot the game sends its messages through: keeps them instead."""

    def __init__(self) -> None:
        self.messages: list[tuple[int, str, list[str]]] = []

    def send_message(self, chat_id: int, text: str, reply_markup: Any = None, **kwargs: Any) -> None:
        """Record a message with the options of its keyboard, if it has one."""
        self.messages.append((chat_id, text, list(getattr(reply_markup, "options", []))))


class _Unshuffled:
    """Takes the place of the `random` module inside the package while it deals: no shuffling."""

    @staticmethod
    def shuffle(items: Any) -> None:
        """Leave the order as it is."""


@contextmanager
def _unshuffled(package: Package) -> Iterator[None]:
    """The package's modules deal and seat players without shuffling, for the duration."""
    modules = (package.game, package.users)
    saved = [module.__dict__["random"] for module in modules]
    for module in modules:
        module.__dict__["random"] = _Unshuffled
    try:
        yield
    finally:
        for module, original in zip(modules, saved, strict=True):
            module.__dict__["random"] = original


class Table:
    """One game of the package (one round), its players seated 0..n-1."""

    def __init__(self, package: Package, players: int, deck: list[str], first_player: int):
        self.package = package
        self.chat = Chat()
        self.game = package.game.Game(self.chat)
        self.seats = [package.users.User(f"player{s}", FIRST_ID + s, self.chat, self.game)
                      for s in range(players)]
        for user in self.seats:
            self.game.users.add(user)
        cards = {card.name: card for card in package.game.Game.card_types}
        self.game.deck = [cards[engine_name(name)]() for name in reversed(deck)]
        self.starter = first_player
        self.winners: list[int] | None = None
        with _unshuffled(package):
            self.game.start()
        self.game.users.queue.rotate(-first_player)
        self.game.start_turn()

    def clone(self) -> Table:
        """An independent copy of the game (the package has no undo)."""
        twin = copy.copy(self)
        twin.game, twin.seats, twin.chat = copy.deepcopy((self.game, self.seats, self.chat))
        return twin

    # -- acting ----------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """True once the engine has ended the game (its round)."""
        return bool(self.game.state == "game_over")

    def turn(self) -> int:
        """The seat of the player to act."""
        return self.seat_of(self.game.dealer)

    def seat_of(self, user: Any) -> int:
        """A user's seat."""
        return next(s for s, seated in enumerate(self.seats) if seated is user)

    def say(self, text: str) -> bool:
        """The player to act sends `text` to the bot; True when the game took it."""
        before = self._progress()
        user = self.game.dealer
        message = SimpleNamespace(text=text, from_user=SimpleNamespace(id=user.user_id, username=user.name))
        self.package.bot.GameBot.text_handler(SimpleNamespace(get_game=lambda user_id: self.game), message)
        took = self._progress() != before
        if took and self.over:
            self.winners = self._announced_winners()
        return took

    def _progress(self) -> tuple[Any, ...]:
        game = self.game
        return game.state, id(game.dealer), len(game.used_cards), len(game.deck)

    def choose_card(self, card: str) -> str | None:
        """Stage 1 of a play: name the card. None when taken, else why not."""
        self.chat.messages.clear()
        if self.over:
            return "the game is over"
        user = self.game.dealer
        if self.say(engine_name(card)):
            return None
        told = [text for to, text, _ in self.chat.messages if to == user.user_id]
        return f"the bot did not take the card {card!r}" + (f" ({told[-1]})" if told else "")

    @property
    def asks_target(self) -> bool:
        """True when the engine waits for the target of the chosen card."""
        return bool(self.game.state == "select_victim")

    @property
    def asks_guess(self) -> bool:
        """True when the engine waits for a guess."""
        return bool(self.game.state == "guess_card")

    def choose_target(self, seat: Any) -> str | None:
        """Stage 2: name the target. None when taken, else why not."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.seats):
            return f"there is no seat {seat!r}"
        if self.say(self.seats[seat].name):
            return None
        return f"the bot did not take player {seat} as the target"

    def choose_guess(self, guess: Any) -> str | None:
        """Stage 3: name the guessed card. None when taken, else why not."""
        if self.say(engine_name(str(guess))):
            return None
        return f"the bot did not take the guess {guess!r}"

    def act(self, action: Json) -> str | None:
        """Play a protocol action through the bot: None when the engine took all of it, else why not."""
        if action.get("type") != "play":
            return "loveletter 0.0.5 has only play decisions"
        refused = self.choose_card(str(action.get("card")))
        if refused:
            return refused
        target, guess = action.get("target"), action.get("guess")
        if self.asks_target:
            if target is None:
                return f"the engine asks whom the {action.get('card')} chooses"
            refused = self.choose_target(target)
            if refused:
                return refused
        elif target is not None:
            return f"the engine played the {action.get('card')} without asking for a target"
        if self.asks_guess:
            return self.choose_guess(guess) if guess is not None else "the engine asks for a guess"
        return "the engine did not ask for a guess" if guess is not None else None

    def _announced_winners(self) -> list[int]:
        for _, text, _ in reversed(self.chat.messages):
            for line in text.splitlines():
                if line.startswith(WINNER_LINE):
                    name = line[len(WINNER_LINE):].strip()
                    return [s for s, user in enumerate(self.seats) if user.name == name]
        return []

    # -- reading ---------------------------------------------------------------------------

    def hand(self, seat: int) -> list[str]:
        """A player's cards, classic names, sorted by value then name (empty once out)."""
        user = self.seats[seat]
        if user not in self.game.users.queue:
            return []
        held = [c for c in (user.card, user.new_card) if c is not None]
        return [spec_name(c.name) for c in sorted(held, key=lambda c: (c.value, spec_name(c.name)))]

    def state(self, tokens: list[int]) -> Json:
        """The canonical state (docs/formats.md) as far as the engine keeps it."""
        game, players = self.game, len(self.seats)
        discards: list[list[str]] = [[] for _ in range(players)]
        for card in game.used_cards:
            discards[self.seat_of(card.owner)].append(spec_name(card.name))
        aside = game.first_card
        drawn = any(aside is c for u in self.seats for c in (u.card, u.new_card)) or any(
            aside is c for c in game.used_cards)
        alive = list(game.users.queue)
        return {
            "edition": "classic", "players": players, "round": 1,
            "phase": "round_over" if self.over else "play",
            "turn": None if self.over else self.turn(), "starter": self.starter,
            "deck": [spec_name(c.name) for c in reversed(game.deck)],
            "set_aside": [] if aside is None or drawn else [spec_name(aside.name)],
            "face_up": [],
            "hands": [self.hand(s) for s in range(players)],
            "discards": discards,
            "eliminated": [user not in alive for user in self.seats],
            "protected": [bool(user.defence) for user in self.seats],
            "tokens": list(tokens), "pending": None,
            "round_winners": self.winners if self.over else None, "game_winners": None,
        }
