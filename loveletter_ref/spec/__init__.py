"""Load, validate and compile rules specs (editions and rulebook readings)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import Problem, SpecError, escape_controls
from ..paths import rulebook_dirs, spec_dir
from .compile import compile_spec
from .extend import MAX_DEPTH, base_file, merge
from .model import OPTIONAL_GENERAL_IDS, Card, Clause, ClauseStatus, Edition, Source, Step
from .schema import schema_problems
from .semantic import KindOf, semantic_problems
from .yamlsafe import Missing, Positions, Refused, load_yaml

__all__ = [
    "Card", "Clause", "ClauseStatus", "Edition", "Source", "Step", "check_spec", "data_problems", "find_spec",
    "known_specs", "load_document", "load_spec",
]


def schema_path() -> Path:
    """The JSON Schema every spec file is validated against."""
    return spec_dir() / "schema" / "loveletter-spec.schema.json"


def known_specs() -> dict[str, Path]:
    """Bundled specs by id: editions first, then readings."""
    found: dict[str, Path] = {}
    for folder in ("editions", "readings"):
        for path in sorted((spec_dir() / folder).glob("*.yaml")):
            found.setdefault(path.stem, path)
    return found


def find_spec(name: str | Path) -> Path:
    """A spec file from a bundled id (``classic``) or a path; SpecError when neither exists.

    A bundled id wins over a file or folder of the same name in the current directory (write
    ``./classic`` for the file): a word is a path only when it names no bundled spec."""
    if not str(name):
        raise SpecError([Problem("''", 1, 1, "the spec name is empty: give a bundled spec id or a file")])
    path = Path(name)
    explicit = isinstance(name, Path) or path.suffix in (".yaml", ".yml") or path.name != name  # a/b, ./b
    known = known_specs()
    if not explicit and name in known:
        return known[name]
    try:
        if explicit or path.exists():
            return path
    except OSError as exc:  # a name the file system cannot even look up (too long, say)
        raise SpecError([Problem(str(name), 1, 1, f"cannot read file: {exc.strerror or exc}")]) from None
    choices = ", ".join(known) or "none"
    raise SpecError([Problem(str(name), 1, 1, f"no such spec file or bundled spec (bundled: {choices})")])


def _described(data: Any, positions: Positions, file: str) -> Edition | None:
    """The bundled edition a reading describes (None for an edition); SpecError when unknown."""
    name = data.get("describes") if data.get("kind") == "reading" else None
    if name is None:
        return None
    editions = [key for key, path in known_specs().items() if path.parent.name == "editions"]

    def fail(message: str) -> SpecError:
        return SpecError([Problem(file, *positions.get(("describes",), (1, 1)), message)])

    if name not in editions:
        raise fail(f"the described edition {name!r} is unknown (known editions: {', '.join(editions)})")
    try:
        return load_spec(name)
    except SpecError as exc:
        raise fail(f"the described edition {name!r} is not valid: {exc.problems[0]}") from None


def _kind_of(described: Edition | None) -> KindOf | None:
    if described is None:
        return None

    def kind_of(key: str) -> str | None:
        clause = described.clause_by_key(key)
        if clause is not None:
            return clause.kind
        return next((kind for kind, known in OPTIONAL_GENERAL_IDS.items() if known == key), None)

    return kind_of


def _checked(data: Any, positions: Positions, file: str) -> Edition | None:
    """Check a spec's data (SpecError with every problem); the edition it describes, if a reading."""
    problems = schema_problems(data, positions, file, schema_path())
    if problems:
        raise SpecError(problems)
    described = _described(data, positions, file)
    problems = semantic_problems(data, positions, file, rulebook_dirs(), _kind_of(described), described)
    if problems:
        raise SpecError(problems)
    return described


def data_problems(data: Any, positions: Positions, file: str) -> list[Problem]:
    """Every problem of a spec's data, as `llcheck validate` finds them, but for its quotations
    (checked against the rulebooks when a spec file is validated): for specs built from the data
    of valid specs, such as the clause-by-clause hybrids of `llcheck disputes`."""
    problems = schema_problems(data, positions, file, schema_path())
    if problems:
        return problems
    try:
        described = _described(data, positions, file)
    except SpecError as exc:
        return exc.problems
    return semantic_problems(data, positions, file, (), _kind_of(described), described)


def _document(path: Path, seen: tuple[Path, ...] = ()) -> tuple[Any, Positions]:
    """A spec file's data with its `extends` base merged in (see `extend`); `seen` holds the
    files that extend this one, so that a cycle of any length is named rather than followed."""
    data, positions = load_yaml(path)
    base = data.get("extends") if isinstance(data, dict) else None
    if not isinstance(base, str):
        return data, positions
    line, col = positions.get(("extends",), (1, 1))

    def fail(message: str) -> SpecError:
        return SpecError([Problem(str(path), line, col, message)])

    if data.get("kind") == "reading":
        raise fail("a reading may not extend another spec: it records one rulebook, silences included")
    editions = {key: spec for key, spec in known_specs().items() if spec.parent.name == "editions"}
    try:
        base_path = base_file(path, base, editions)
    except Missing:
        raise fail(f"extends {escape_controls(base)!r}: no such bundled edition or file beside "
                   f"{path.name} (bundled: {', '.join(editions)})") from None
    except Refused as exc:
        raise fail(str(exc)) from None
    chain = seen + (path.resolve(),)
    if base_path in chain:
        raise fail(f"extends {escape_controls(base)!r}, which extends this file again")
    if len(chain) >= MAX_DEPTH:
        raise fail(f"extends {escape_controls(base)!r}: more than {MAX_DEPTH} editions extend one another")
    try:
        base_data, base_positions = _document(base_path, chain)
        _checked(base_data, base_positions, str(base_path))
    except SpecError as exc:
        if seen:  # the first file of the chain names the file that is wrong
            raise
        first = exc.problems[0]
        raise fail(f"extends {escape_controls(base)!r}, which is not valid: {first}") from None
    return merge(base_data, data, positions)


def check_spec(name: str | Path) -> list[Problem]:
    """Every problem in a spec file (empty when it is valid)."""
    try:
        path = find_spec(name)
        data, positions = _document(path)
        _checked(data, positions, str(path))
    except SpecError as exc:
        return exc.problems
    return []


@lru_cache(maxsize=64)
def _load(path: Path, choices: tuple[tuple[str, int], ...]) -> Edition:
    data, positions = _document(path)
    described = _checked(data, positions, str(path))
    return compile_spec(data, positions, path, dict(choices), _kind_of(described))


def _as_given(exc: SpecError, resolved: Path, given: Path) -> SpecError:
    """The same problems, naming the file as the user gave it rather than resolved."""
    return SpecError([Problem(str(given), p.line, p.col, p.message) if p.file == str(resolved) else p
                      for p in exc.problems])


def load_document(name: str | Path) -> tuple[Path, dict[str, Any], Positions]:
    """A valid spec's file, plain data (any `extends` base merged in) and positions.

    For tools that build specs of their own from a spec's data (`compile_spec`), such as the
    clause-by-clause hybrids of `llcheck disputes`. SpecError when the spec is not valid.
    """
    given = find_spec(name)
    path = given.resolve()
    data, positions = _document(given)
    _checked(data, positions, str(given))
    return path, data, positions


def load_spec(name: str | Path, choices: Mapping[str, int] | None = None) -> Edition:
    """Load and compile a spec by bundled id or path; SpecError lists every problem.

    `choices` selects, for a reading, which version of each contradicted clause is played
    (clause key -> version index, default 0).
    """
    given = find_spec(name)
    try:
        return _load(given.resolve(), tuple(sorted((choices or {}).items())))
    except SpecError as exc:
        raise _as_given(exc, given.resolve(), given) from None
