"""Fuzzing the loaders: bytes of the bundled specs and cases broken at random, and YAML generated
from nothing, given to `llcheck validate` and `llcheck cases --validate`. Every input ends with
exit 0, or exit 2 and one located line per problem whose line and column exist in the file; never
a traceback; memory bounded. The `ci` hypothesis profile (conftest) keeps it fast and the same on
every run."""

from __future__ import annotations

import re
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from llcheck.cli import main
from llcheck.harness.cases import corpus_dir
from loveletter_ref.paths import spec_dir
from loveletter_ref.spec.schema import MAX_PROBLEMS

LOCATED = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): \S.*$")
SPECS = [spec_dir() / "editions" / name for name in ("classic.yaml", "premium.yaml")]
CASES = [corpus_dir() / "required" / "classic" / name for name in ("baron.json", "guard.json")]
MEMORY = 256 * 2**20
"""Most memory (traced Python allocations) one input may take to be refused."""

NASTY = [b"\x00", b"\x1b[2J", b"\xff", b"\t", b"&a ", b"*a", b"!!python/object:os.system ", b"<<: ",
         b"9" * 5000, b"[" * 300, b"{", b"'", b'"', b"\n", b": ", b"- ", b"\r", b"\xe2\x80\xae", b"~"]
"""Bytes that break YAML and JSON readers: control and bad UTF-8 bytes, anchors, tags, merges,
huge numbers, deep nesting, unbalanced quotes and brackets."""

SETTINGS = settings(deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def broken(data: st.DataObject, raw: bytes) -> bytes:
    """`raw` with a few spans deleted, overwritten or inserted with nasty bytes, or cut short."""
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(raw)))
        how = data.draw(st.sampled_from(["insert", "overwrite", "delete", "truncate"]))
        chunk = data.draw(st.sampled_from(NASTY) | st.binary(min_size=1, max_size=8))
        if how == "insert":
            raw = raw[:at] + chunk + raw[at:]
        elif how == "overwrite":
            raw = raw[:at] + chunk + raw[at + len(chunk):]
        elif how == "delete":
            raw = raw[:at] + raw[at + data.draw(st.integers(1, 200)):]
        else:
            raw = raw[:at]
    return raw


def assert_refused_well(code: int, err: str, path: Path, content: bytes) -> None:
    """Exit 0 with nothing on stderr, or 2 with located lines that point inside the file."""
    assert "Traceback" not in err
    if code == 0:
        return
    assert code == 2, err
    lines = err.splitlines()
    assert 1 <= len(lines) <= MAX_PROBLEMS + 1 or "case file" in err, err
    rows = content.split(b"\n")
    for line in lines:
        if line.startswith("llcheck cases: "):  # the closing count of `cases --validate`
            continue
        match = LOCATED.match(line)
        assert match, line
        if match["file"] == str(path):
            row, col = int(match["line"]), int(match["col"])
            assert 1 <= row <= len(rows), line
            assert 1 <= col <= len(rows[row - 1].decode("utf-8", "replace")) + 1, line


def run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, int]:
    """Exit code, stderr and the peak of traced memory of one llcheck command."""
    tracemalloc.start()
    try:
        code = main(argv)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return code, capsys.readouterr().err, peak


@SETTINGS
@given(st.sampled_from(SPECS), st.data())
def test_broken_bytes_of_a_spec_are_valid_or_located(tmp_path_factory, capsys, source, data):
    content = broken(data, source.read_bytes())
    path = tmp_path_factory.mktemp("spec") / "spec.yaml"
    path.write_bytes(content)
    code, err, peak = run(capsys, ["validate", str(path)])
    assert_refused_well(code, err, path, content)
    assert peak < MEMORY


@SETTINGS
@given(st.sampled_from(CASES), st.data())
def test_broken_bytes_of_a_case_file_are_valid_or_located(tmp_path_factory, capsys, source, data):
    content = broken(data, source.read_bytes())
    root = tmp_path_factory.mktemp("corpus")
    path = root / "required" / "classic" / source.name
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    code, err, peak = run(capsys, ["cases", "--validate", "--root", str(root)])
    assert code in (0, 1, 2) and "Traceback" not in err  # 1: a clause left uncovered by the cut corpus
    if code == 2:
        assert_refused_well(code, err, path, content)
    assert peak < MEMORY


SCALARS = st.one_of(st.integers(), st.floats(allow_nan=True), st.booleans(), st.none(),
                    st.text(max_size=20), st.just("9" * 200), st.just("x" * 10_000))
KEYS = st.sampled_from(["kind", "id", "prefix", "title", "players", "cards", "rules", "sources", "extends",
                        "name", "value", "count", "source", "file", "doc", "quote", "min", "max"])


def yaml_of(value: object, depth: int = 0) -> str:
    """A YAML text for a generated value, flow style (keys unquoted, strings quoted)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {yaml_of(item, depth + 1)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(yaml_of(item, depth + 1) for item in value) + "]"
    if isinstance(value, str):
        return '"' + value.encode("unicode_escape").decode("ascii").replace('"', '\\"') + '"'
    if value is None:
        return "null"
    return str(value).lower() if isinstance(value, bool) else repr(value)


DOCUMENTS = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(KEYS, inner, max_size=6),
    max_leaves=40)


@SETTINGS
@given(st.dictionaries(KEYS, DOCUMENTS, min_size=1, max_size=8), st.integers(0, 3), st.integers(0, 2000))
def test_generated_yaml_is_valid_or_located(tmp_path_factory, capsys, document, aliases, times):
    """Generated documents, some with an anchored value aliased many times over."""
    text = "\n".join(f"{key}: {yaml_of(value)}" for key, value in document.items()) + "\n"
    if aliases:
        text = f"anchored: &big {yaml_of(list(document.values()))}\n" + text + \
            "copies: [" + ", ".join(["*big"] * (times * aliases)) + "]\n"
    path = tmp_path_factory.mktemp("gen") / "gen.yaml"
    path.write_text(text, encoding="utf-8")
    code, err, peak = run(capsys, ["validate", str(path)])
    assert_refused_well(code, err, path, text.encode("utf-8"))
    assert peak < MEMORY
