"""No function in `loveletter_ref` is at radon's grade D or worse (cyclomatic complexity 21 and
up): the rules side stays readable in one sitting."""

from __future__ import annotations

from pathlib import Path

from radon.complexity import cc_rank, cc_visit

import loveletter_ref

ROOT = Path(loveletter_ref.__file__).parent
WORST_GRADE = "C"
"""The worst grade a function may have (`radon cc -n D loveletter_ref` lists those beyond it)."""


def offenders(root: Path) -> list[str]:
    """`file:line name (grade complexity)` for every function or method graded beyond WORST_GRADE."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for block in cc_visit(path.read_text(encoding="utf-8")):
            grade = cc_rank(block.complexity)
            if grade > WORST_GRADE:
                found.append(f"{path.relative_to(root.parent)}:{block.lineno} {block.fullname} "
                             f"({grade} {block.complexity})")
    return found


def test_no_function_in_loveletter_ref_is_graded_d_or_worse():
    assert offenders(ROOT) == []


def test_the_check_finds_a_function_graded_d(tmp_path):
    branches = "\n".join(f"    if x == {i}:\n        return {i}" for i in range(21))
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "tangled.py").write_text(f"def tangled(x):\n{branches}\n    return -1\n")
    assert offenders(tmp_path / "pkg") == ["pkg/tangled.py:1 tangled (D 22)"]
