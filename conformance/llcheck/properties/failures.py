"""How a property run fails: a broken property (shrunk by hypothesis) or a broken engine (not).

Each property raises its own `Violation` subclass, so that hypothesis keeps the failures of
different properties apart while it shrinks. An engine that crashes, hangs or breaks the protocol
raises `EngineBroke`, a BaseException: hypothesis lets it through at once instead of shrinking
(which would call a hanging engine again and again).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from ..engines.base import EngineFailure
from .trace import Json

T = TypeVar("T")


class Violation(Exception):
    """A property does not hold; `replay` (set by the state machine) is the game that shows it."""

    prop: ClassVar[str] = ""

    def __init__(self, message: str, *, observer: int | None = None, contrast: Json | None = None):
        super().__init__(message)
        self.message = message
        self.observer = observer
        """The player whose view differed (hidden information)."""
        self.contrast = contrast
        """The resampled replay whose view differed (hidden information)."""
        self.replay: Json | None = None
        self.attempt: Json | None = None
        """The action the engine refused when the property broke, if it refused one."""
        self.where = ""


_VIOLATIONS: dict[str, type[Violation]] = {}


def violation(prop: str) -> type[Violation]:
    """The Violation subclass of one property (one class per property)."""
    if prop not in _VIOLATIONS:
        name = "".join(part.title() for part in prop.split("-")) + "Violation"
        _VIOLATIONS[prop] = type(name, (Violation,), {"prop": prop})
    return _VIOLATIONS[prop]


class EngineBroke(BaseException):  # noqa: N818 - it ends a run, it is not an error of ours
    """The engine under test failed; the run stops without shrinking."""

    def __init__(self, message: str, replay: Json | None = None, attempt: Json | None = None):
        super().__init__(message)
        self.message = message
        self.replay = replay
        self.attempt = attempt


class ShrinkSpent(BaseException):  # noqa: N818 - it ends shrinking, it is not an error
    """Shrinking has played its budget of games (`Context.shrunk`): the run stops, and the smallest
    failure found so far is the one reported."""


def guarded(call: Callable[[], T], replay: Callable[[], Json | None], attempt: Json | None = None) -> T:
    """`call()`, turning any failure of the engine into EngineBroke with the game so far."""
    try:
        return call()
    except EngineFailure as exc:
        raise EngineBroke(one_line(exc), replay(), attempt) from None
    except Exception as exc:  # an in-process adapter's own bug is the engine's failure too
        raise EngineBroke(f"the engine raised {type(exc).__name__}: {one_line(exc)}", replay(),
                          attempt) from None


def one_line(text: Any) -> str:
    """`text` (an exception, a message) on one line."""
    return " ".join(str(text).split())
