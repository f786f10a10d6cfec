"""Import the PyPI package `loveletter` 0.0.5 offline, on Python 3.11 and later.

Three obstacles, each handled without touching the rest of the process for longer than the
import itself:

- every module calls `gettext.install(..., codeset='UTF-8')`, a TypeError since Python 3.11, and
  relies on the `_` that call puts into builtins (card names are `_("Guard")` at class level):
  during the import `gettext.install` only installs an identity `_`; afterwards builtins are
  restored and each module gets its own identity `_`;
- `loveletter.game` and `loveletter.cards` import `telebot` (pyTelegramBotAPI, undeclared) for
  its keyboard classes, and `loveletter.bot` subclasses `telebot.TeleBot`: a stand-in `telebot`
  with plain keyboard objects and a TeleBot that can never reach the network is used for the
  import, whether or not the real package is installed;
- `loveletter.bot` imports numpy (undeclared, used by the /cards command only): the real one when
  installed, else a stand-in for the import.
"""

from __future__ import annotations

import builtins
import gettext
import importlib
import importlib.metadata
import importlib.util
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

VERSION = "0.0.5"
"""The version of the package this adapter drives."""

MODULES = ("cards", "users", "game", "bot")
"""The package's modules the adapter uses (`bot` for its input handling)."""


class Keyboard:
    """A reply keyboard: the options the engine offers the player, as button texts."""

    def __init__(self, *args: Any, **kwargs: Any):
        self.options: list[str] = []

    def add(self, *buttons: Any, **kwargs: Any) -> Keyboard:
        """Add buttons (telebot's `ReplyKeyboardMarkup.add`)."""
        self.options += [button.text for button in buttons]
        return self


class Button:
    """A keyboard button (telebot's `KeyboardButton`)."""

    def __init__(self, text: str, **kwargs: Any):
        self.text = text


class NoKeyboard:
    """Hides the keyboard (telebot's `ReplyKeyboardRemove`)."""

    def __init__(self, *args: Any, **kwargs: Any):
        pass


class OfflineBot:
    """Stands in for `telebot.TeleBot` as the base class of `loveletter.bot.GameBot`; it is never
    instantiated by the adapter, and would refuse any network call if it were."""

    def __init__(self, token: str, *args: Any, **kwargs: Any):
        self.token = token

    def message_handler(self, *args: Any, **kwargs: Any) -> Any:
        """A decorator that registers nothing."""
        return lambda handler: handler

    def send_message(self, *args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the offline stand-in for telebot sends no messages")

    def get_me(self) -> Any:
        raise RuntimeError("the offline stand-in for telebot makes no network calls")

    def polling(self, *args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the offline stand-in for telebot makes no network calls")


def _telebot() -> dict[str, types.ModuleType]:
    telebot = types.ModuleType("telebot")
    keyboards = types.ModuleType("telebot.types")
    keyboards.ReplyKeyboardMarkup = Keyboard  # type: ignore[attr-defined]
    keyboards.KeyboardButton = Button  # type: ignore[attr-defined]
    keyboards.ReplyKeyboardRemove = NoKeyboard  # type: ignore[attr-defined]
    telebot.types = keyboards  # type: ignore[attr-defined]
    telebot.TeleBot = OfflineBot  # type: ignore[attr-defined]
    return {"telebot": telebot, "telebot.types": keyboards}


def _numpy() -> dict[str, types.ModuleType]:
    if importlib.util.find_spec("numpy") is not None:
        return {}
    numpy = types.ModuleType("numpy")

    def unique(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("numpy is not installed (the /cards command needs it)")

    numpy.unique = unique  # type: ignore[attr-defined]
    return {"numpy": numpy}


def _identity(text: str) -> str:
    return text


@contextmanager
def _import_shims(stand_ins: dict[str, types.ModuleType]) -> Iterator[None]:
    """Stand-in modules, and a gettext.install that works, for the duration of the import."""
    saved_modules = {name: sys.modules.get(name) for name in stand_ins}
    had_underscore = hasattr(builtins, "_")
    saved_underscore = getattr(builtins, "_", None)
    saved_install = gettext.install

    def install(domain: str, localedir: Any = None, *args: Any, **kwargs: Any) -> None:
        builtins._ = _identity  # type: ignore[attr-defined]

    sys.modules.update(stand_ins)
    gettext.install = install
    try:
        yield
    finally:
        gettext.install = saved_install
        for name, module in saved_modules.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
        if had_underscore:
            builtins._ = saved_underscore  # type: ignore[attr-defined]
        elif hasattr(builtins, "_"):
            delattr(builtins, "_")


@dataclass(frozen=True)
class Package:
    """The imported modules of loveletter 0.0.5."""

    cards: types.ModuleType
    users: types.ModuleType
    game: types.ModuleType
    bot: types.ModuleType


class NotInstalled(ImportError):
    """loveletter 0.0.5 is not installed (`pip install loveletter==0.0.5`)."""


_PACKAGE: Package | None = None


def load() -> Package:
    """The package, imported once (NotInstalled when it is missing)."""
    global _PACKAGE
    if _PACKAGE is None:
        if importlib.util.find_spec("loveletter") is None:
            raise NotInstalled("loveletter 0.0.5 is not installed: pip install loveletter==0.0.5")
        version = importlib.metadata.version("loveletter")
        if version != VERSION:
            raise NotInstalled(f"loveletter {version} is installed; this adapter drives {VERSION} "
                               f"(pip install loveletter=={VERSION})")
        with _import_shims({**_telebot(), **_numpy()}):
            found = {name: importlib.import_module(f"loveletter.{name}") for name in MODULES}
        for module in found.values():
            module._ = _identity  # type: ignore[attr-defined]
        _PACKAGE = Package(**found)
    return _PACKAGE
