"""The memo the engine's tables and the harness's per-action lookups are built on."""

from __future__ import annotations

from loveletter_ref.engine.tables import Memo


def test_a_memo_makes_each_value_once():
    made: list[int] = []
    memo = Memo(lambda key: made.append(key) or key * 2)
    assert [memo[3], memo[3], memo[4]] == [6, 6, 8]
    assert made == [3, 4]


def test_a_memo_with_a_limit_never_holds_more_and_still_answers():
    memo = Memo(str, limit=3)
    for key in range(10):
        assert memo[key] == str(key)
        assert len(memo) <= 3
    assert memo[9] == "9" and 9 in memo
