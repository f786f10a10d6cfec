"""Two sides given the same inputs one at a time (`Lockstep`), and what a side is (`Side`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, Protocol, TypeVar

from .divergence import Divergence, Json, Place
from .trail import Trail

D_contra = TypeVar("D_contra", contravariant=True)
A_contra = TypeVar("A_contra", contravariant=True)
X_co = TypeVar("X_co", covariant=True)

D = TypeVar("D")
A = TypeVar("A")
X = TypeVar("X")
Y = TypeVar("Y")


class Side(Protocol[D_contra, A_contra, X_co]):
    """One of two sides stepped together (the reference engine under a spec, an engine under test,
    a recorded baseline, the values a case expects, a tree of legal moves): dealt a round, then
    given actions, it answers each."""

    def deal(self, deal: D_contra, /) -> X_co:
        """Deal a round; what the side answers."""

    def act(self, action: A_contra, /) -> X_co:
        """Take an action; what the side answers."""


class Answers(Generic[X]):
    """A side whose answers are known beforehand (a baseline's records, what a case expects):
    every input, deal or action, is answered with the next of them."""

    def __init__(self, answers: Iterable[X]):
        self._next = iter(answers).__next__

    def deal(self, deal: object, /) -> X:
        return self._next()

    def act(self, action: object, /) -> X:
        return self._next()


def _as_given(action: Any) -> Any:
    return action


class Lockstep(Generic[D, A, X, Y]):
    """Two sides given the same inputs one at a time, the first side first, and the trail of those
    inputs. Comparing what the two answer, and saying how it differs, belongs to whoever steps
    them (a case, the fuzzer, a baseline, perft, a dispute); `part` makes the divergence where
    they found a difference. `show` gives a divergence's action in JSON (the actions as given by
    default)."""

    def __init__(self, first: Side[D, A, X], second: Side[D, A, Y],
                 show: Callable[[A], Json | None] = _as_given):
        self.first = first
        self.second = second
        self.show = show
        self.trail = Trail()

    def deal(self, deal: D) -> tuple[X, Y]:
        """Deal the next round to both sides; their answers."""
        self.trail.deal(deal)
        return self.first.deal(deal), self.second.deal(deal)

    def act(self, action: A) -> tuple[X, Y]:
        """Give both sides the same action; their answers."""
        self.trail.move(action)
        return self.first.act(action), self.second.act(action)

    @property
    def place(self) -> Place | None:
        """Where the last input was given (None before the first deal)."""
        trail = self.trail
        if not trail.round:
            return None
        return Place(trail.round, trail.step, self._action())

    def part(self, what: str, expected: Any, actual: Any, detail: str = "", clauses: Sequence[str] = (),
             also: Sequence[str] = ()) -> Divergence:
        """The divergence at the place of the last input."""
        trail = self.trail
        return Divergence(trail.round, trail.step, what, expected, actual, detail, self._action(),
                          tuple(clauses), tuple(also))

    def _action(self) -> Json | None:
        action = self.trail.action
        return None if action is None else self.show(action)
