"""Answers an engine may send that are well formed but absurd (any JSON where a state, an event,
a legal action or a view belongs): the harness compares them with every case and reports a
result it can write to every report, without ever failing itself."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from llcheck.engines import Engine, Hello, ReferenceEngine, Reply
from llcheck.engines.base import CAPABILITIES
from llcheck.harness.cases import load_corpus
from llcheck.harness.junit import junit_xml
from llcheck.harness.report import Report, RunInfo
from llcheck.harness.runner import run_case
from llcheck.harness.text import text_report

CASES = load_corpus(Path(__file__).parent / "cases")

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6) | st.sampled_from(["\x1b[2J", "\u202eevil", "\x9b31m", "a\tb\x7f"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12)
OBJECT = st.dictionaries(st.sampled_from(["round", "turn", "hands", "phase", "log", "hand", "tokens", "x"]),
                         JSON, max_size=5)
BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
"""Characters that reorder what a terminal shows."""
EVENT = st.builds(lambda kind, rest: {**rest, "type": kind}, st.sampled_from(["deal", "play", "draw", "?"]),
                  OBJECT)


class Absurd(Engine):
    """Accepts whatever it is asked, answering with values drawn by hypothesis."""

    def __init__(self, data: st.DataObject):
        self.data = data
        self.hello = Hello("absurd", "0", ("classic",), frozenset(CAPABILITIES))

    def _reply(self) -> Reply:
        if self.data.draw(st.booleans()):
            return Reply(False, reason=self.data.draw(st.text(max_size=20)))
        return Reply(True, self.data.draw(st.lists(EVENT, max_size=4)), self.data.draw(OBJECT))

    def start(self, edition: str, players: int, deck: Sequence[str], first_player: int = 0,
              tokens: Sequence[int] | None = None) -> Reply:
        return self._reply()

    def next_round(self, deck: Sequence[str]) -> Reply:
        return self._reply()

    def apply(self, action: dict[str, Any]) -> Reply:
        return self._reply()

    def legal_actions(self) -> list[dict[str, Any]]:
        return self.data.draw(st.lists(OBJECT, max_size=4))

    def state(self) -> dict[str, Any]:
        return self.data.draw(OBJECT)

    def view(self, player: int) -> dict[str, Any]:
        return self.data.draw(OBJECT)


@settings(max_examples=60)
@given(st.sampled_from(CASES), st.data())
def test_absurd_answers_are_compared_and_reported_without_a_harness_error(case, data):
    engine = Absurd(data)
    result = run_case(engine, case)
    assert result.status in ("passed", "failed")
    json.dumps(result.to_json(), allow_nan=False)
    report = Report(RunInfo("absurd", engine.hello, {}), [result], 0.1)
    text = text_report(report)
    assert text.splitlines()[-1].startswith(f"{int(result.status == 'passed')} passed")
    assert not [c for c in text if c != "\n" and (unicodedata.category(c) == "Cc" or c in BIDI)]
    junit_xml(report)


def test_a_huge_value_is_shortened_in_every_line_of_the_report():
    """A round number of 400 digits must not flood the one-line difference."""

    class Huge(ReferenceEngine):
        def start(self, edition, players, deck, first_player=0, tokens=None):
            reply = super().start(edition, players, deck, first_player, tokens)
            return Reply(True, reply.events, {**reply.state, "round": 10 ** 400})

    case = next(c for c in load_corpus() if c.status == "golden" and c.edition == "classic")
    engine = Huge()
    result = run_case(engine, case)
    text = text_report(Report(RunInfo("huge", engine.hello, {}), [result], 0.1))
    assert result.status == "failed" and "0" * 400 not in text
    assert max(map(len, text.splitlines())) < 600
