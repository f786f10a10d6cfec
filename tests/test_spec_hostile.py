"""Hostile spec files: every one ends as located one-line problems, never a traceback or a hang."""

from __future__ import annotations

import re
import tracemalloc
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mutations import mutate, paths

from llcheck.cli import main
from loveletter_ref.errors import SpecError
from loveletter_ref.paths import spec_dir
from loveletter_ref.spec import check_spec, load_spec
from loveletter_ref.spec.yamlsafe import MAX_BYTES, MAX_NODES

LOCATED = re.compile(r"^.+:\d+:\d+: \S.*$")
EDITIONS = [spec_dir() / "editions" / f"{name}.yaml" for name in ("classic", "z-man-2019")]


def problems_of(tmp_path: Path, content: str | bytes) -> list[str]:
    path = tmp_path / "hostile.yaml"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return [str(p) for p in check_spec(path)]


def test_billion_laughs_is_refused_at_the_expansion_limit_with_bounded_memory(tmp_path):
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 10):
        prev = f"*a{i - 1}"
        lines.append(f"a{i}: &a{i} [{', '.join([prev] * 10)}]")
    tracemalloc.start()
    try:
        found = problems_of(tmp_path, "\n".join(lines) + "\n")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 200 * 2**20, f"expanding a billion values must stop early; peak {peak} bytes"
    assert len(found) == 1 and f"expands to more than {MAX_NODES} values" in found[0]
    assert LOCATED.match(found[0])


def test_oversized_file_is_refused_before_parsing(tmp_path):
    found = problems_of(tmp_path, "# " + "x" * MAX_BYTES + "\n")
    assert len(found) == 1 and f"larger than the limit of {MAX_BYTES:,} bytes" in found[0]


def test_bad_encoding_is_located(tmp_path):
    found = problems_of(tmp_path, b"kind: edition\nid: caf\xe9\n")
    assert found == [f"{tmp_path / 'hostile.yaml'}:2:8: not valid UTF-8 (byte 0xe9)"]


def test_object_construction_tags_are_refused(tmp_path):
    found = problems_of(tmp_path, "kind: !!python/object/apply:os.system ['true']\n")
    assert len(found) == 1 and "unsupported YAML tag" in found[0]


def test_merge_keys_are_refused(tmp_path):
    found = problems_of(tmp_path, "base: &b {x: 1}\nother:\n  <<: *b\n")
    assert len(found) == 1 and "merge keys (<<) are not supported" in found[0]


def test_deep_nesting_is_refused(tmp_path):
    found = problems_of(tmp_path, "[" * 5000 + "]" * 5000 + "\n")
    assert len(found) == 1 and LOCATED.match(found[0])


def test_duplicate_keys_are_located(tmp_path):
    found = problems_of(tmp_path, "kind: edition\nkind: reading\n")
    assert found == [f"{tmp_path / 'hostile.yaml'}:2:1: duplicate key 'kind'"]


def test_not_a_mapping(tmp_path):
    found = problems_of(tmp_path, "- just\n- a list\n")
    assert len(found) == 1 and "(document): " in found[0] and "is not of type 'object'" in found[0]


def test_cli_never_prints_a_traceback(tmp_path, capsys):
    path = tmp_path / "x.yaml"
    path.write_bytes(b"\xff\xfe garbage")
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and LOCATED.match(err.splitlines()[0])


# -- mutations of valid specs ---------------------------------------------------------------------

ABSURD = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-10**12, max_value=10**12),
    st.floats(allow_nan=True), st.text(max_size=12), st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)


@settings(max_examples=4 * settings.default.max_examples, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(EDITIONS), st.data())
def test_mutated_specs_give_located_problems_or_load(tmp_path_factory, source, data):
    spec = yaml.safe_load(source.read_text(encoding="utf-8"))
    path = data.draw(st.sampled_from(paths(spec)))
    how = data.draw(st.sampled_from(["delete", "replace", "rename"]))
    value = data.draw(ABSURD)
    if how == "delete" and not path:
        how = "replace"
    mutated = mutate(spec, path, how, value)
    target = tmp_path_factory.mktemp("mut") / "spec.yaml"
    target.write_text(yaml.safe_dump(mutated, allow_unicode=True), encoding="utf-8")
    found = check_spec(target)
    for problem in found:
        assert LOCATED.match(str(problem)), str(problem)
    if not found:
        try:
            load_spec(target)
        except SpecError as exc:  # a valid file must compile; a SpecError would be a checker gap
            pytest.fail(f"checker accepted a spec the compiler rejects: {exc}")
