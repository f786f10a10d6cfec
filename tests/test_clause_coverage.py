"""Every clause of every edition is named by at least one test (through the `clause` marker)."""

from __future__ import annotations

from pathlib import Path

import pytest

from loveletter_ref.spec import known_specs, load_spec

TESTS = Path(__file__).parent


class _Collector:
    """A pytest plugin that records the clause ids named by collected tests."""

    def __init__(self) -> None:
        self.named: set[str] = set()

    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        for item in items:
            for mark in item.iter_markers("clause"):
                self.named.update(mark.args)


def test_every_edition_clause_is_named_by_a_test():
    collector = _Collector()
    pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", "-n", "0", str(TESTS)],
                plugins=[collector])
    editions = [load_spec(path) for name, path in known_specs().items() if path.parent.name == "editions"]
    missing = sorted(c for e in editions for c in e.clauses if c not in collector.named)
    assert not missing, f"clauses without a test: {missing}"
    unknown = sorted(c for c in collector.named if not any(c in e.clauses for e in editions))
    assert not unknown, f"tests name clauses that no edition has: {unknown}"
