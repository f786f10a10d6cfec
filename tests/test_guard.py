"""An in-process adapter is kept apart from the harness as a protocol program is: it gets copies
of what it is sent, and what it answers must be a Reply of JSON values."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from llcheck.engines import Hello, ReferenceEngine, Reply
from llcheck.engines.guard import AdapterFailure, Guarded
from loveletter_ref import load_spec

DECK = [load_spec("classic").names[c] for c in load_spec("classic").deck(2)]


class TupleDeck(ReferenceEngine):
    """Answers its state's deck as a tuple."""

    def start(self, *args, **kwargs) -> Reply:
        reply = super().start(*args, **kwargs)
        reply.state["deck"] = tuple(reply.state["deck"])
        return reply


class Name(str):
    """A string subclass, as an enum of card names would give."""


class Tokens(dict):
    """A dict subclass."""


class Answers(ReferenceEngine):
    """Answers its state with `value` added under `extra`, and its events with a last event
    holding it."""

    def __init__(self, value: object):
        super().__init__()
        self.value = value

    def start(self, *args, **kwargs) -> Reply:
        reply = super().start(*args, **kwargs)
        reply.state["extra"] = self.value
        return reply


class NoReply(ReferenceEngine):
    """Forgets to return the Reply of apply."""

    def apply(self, action: dict) -> Reply:
        super().apply(action)
        return None  # type: ignore[return-value]


class ChangesWhatItGets(ReferenceEngine):
    """Plays the action, then scribbles on the dict and the deck it was given."""

    def start(self, edition, players, deck, first_player=0, tokens=None) -> Reply:
        reply = super().start(edition, players, deck, first_player, tokens)
        deck.clear()
        return reply

    def apply(self, action: dict) -> Reply:
        reply = super().apply(action)
        action["target"] = 99
        return reply


def test_a_tuple_where_a_list_belongs_is_named_not_compared():
    with pytest.raises(AdapterFailure, match=r"^the engine's state answering start is not JSON: "
                                             r"state\.deck is a tuple \(JSON values are expected"):
        Guarded(TupleDeck()).start("classic", 2, DECK, 0, [0, 0])


@pytest.mark.parametrize(("value", "where"), [
    ([["Guard", ("Priest",)]], r"state\.extra\[0\]\[1\] is a tuple"),
    ({"hands": {1: "Guard"}}, r"state\.extra\.hands has the key 1, not a string"),
    ([{"seen": {"Guard"}}], r"state\.extra\[0\]\.seen is a set"),
    ([None, 1.5, True, [object()]], r"state\.extra\[3\]\[0\] is an object"),
    ({"n": Tokens(a=("Guard",))}, r"state\.extra\.n\.a is a tuple"),
])
def test_whatever_is_not_json_is_named_at_its_place_however_deep(value, where):
    with pytest.raises(AdapterFailure, match=rf"^the engine's state answering start is not JSON: {where} "):
        Guarded(Answers(value)).start("classic", 2, DECK, 0, [0, 0])


@pytest.mark.parametrize("value", [[Name("Guard")], {"n": [1, 2.5, None, False, {"k": []}]}, [], {}])
def test_json_values_pass_subclasses_of_str_included(value):
    reply = Guarded(Answers(value)).start("classic", 2, DECK, 0, [0, 0])
    assert reply.accepted and reply.state["extra"] == value


class WholeStateSubclassed(ReferenceEngine):
    """Answers its state as a dict subclass whose deck is a tuple."""

    def start(self, *args, **kwargs) -> Reply:
        reply = super().start(*args, **kwargs)
        reply.state = Tokens(reply.state, deck=tuple(reply.state["deck"]))
        return reply


def test_a_dict_subclass_is_walked_all_through():
    with pytest.raises(AdapterFailure, match=r"not JSON: state\.deck is a tuple"):
        Guarded(WholeStateSubclassed()).start("classic", 2, DECK, 0, [0, 0])


def test_an_answer_that_is_not_a_reply_is_named():
    engine = Guarded(NoReply())
    assert engine.start("classic", 2, DECK, 0, [0, 0]).accepted
    with pytest.raises(AdapterFailure, match="^the engine's apply returned NoneType, not an llcheck"):
        engine.apply(engine.legal_actions()[0])


def test_the_adapter_gets_copies_so_what_the_harness_sends_and_records_stays_as_sent():
    engine = Guarded(ChangesWhatItGets())
    deck = list(DECK)
    assert engine.start("classic", 2, deck, 0, [0, 0]).accepted and deck == DECK
    action = engine.legal_actions()[0]
    sent = dict(action)
    assert engine.apply(action).accepted and action == sent


@dataclass(frozen=True)
class Seat:
    """A frozen record, whose `__setattr__` dataclasses generate as `<string>` code."""

    number: int


class AssignsToFrozen(ReferenceEngine):
    """Assigns to a frozen dataclass's field while applying (an adapter bug)."""

    def apply(self, action: dict) -> Reply:
        seat = Seat(0)
        seat.number = 1  # type: ignore[misc]
        return super().apply(action)


def test_an_exception_raised_in_generated_code_is_located_at_the_adapters_line():
    """Regression: the frozen dataclass's refusal was located at `<string>:4, in __setattr__`."""
    engine = Guarded(AssignsToFrozen())
    assert engine.start("classic", 2, DECK, 0, [0, 0]).accepted
    with pytest.raises(AdapterFailure) as info:
        engine.apply(engine.legal_actions()[0])
    found = re.fullmatch(r"the engine raised FrozenInstanceError: cannot assign to field 'number' "
                         r"\(at (.*test_guard\.py):(\d+), in apply\)", str(info.value))
    assert found, str(info.value)
    assert "seat.number = 1" in Path(found[1]).read_text().splitlines()[int(found[2]) - 1]


class ListsInItsHello(ReferenceEngine):
    """Says hello with lists, and a capability spelt wrong."""

    def __init__(self) -> None:
        super().__init__()
        self.hello = Hello("lists", "1", ["classic"], ["events", "legal-actions", "views"])


def test_a_hello_is_read_as_one_over_the_protocol_is_and_a_misspelt_capability_set_apart():
    hello = Guarded(ListsInItsHello()).hello
    assert hello.editions == ("classic",)
    assert hello.capabilities == frozenset({"events", "views"})
    assert hello.ignored == ("legal-actions",)
