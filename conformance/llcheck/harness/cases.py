"""The conformance case corpus: loading, checking and coverage (the format is in docs/cases.md).

Case files live under `conformance/cases/<status>/<edition>/<group>.json`, golden traces under
`conformance/golden/<edition>/<N>-players.json` (in a case folder of your own: its `golden/`).
Loading validates every file against `conformance/schema/case.schema.json` and checks what a
schema cannot (unique ids, seats that exist, a reading named by every disputed case and only by
them). Checks that need the editions (clause ids, decks, card names) are in `corpus_problems`.
Every problem is one located line: `FILE:LINE:COL: case ID: message`.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema.exceptions import ValidationError

from loveletter_ref.errors import Problem, SpecError
from loveletter_ref.spec import Edition, known_specs, load_spec
from loveletter_ref.spec.facts import facts_for
from loveletter_ref.spec.schema import pointer_text, short_message, validator_for
from loveletter_ref.spec.yamlsafe import MAX_INT_DIGITS, Refused, TooLarge, confined, decode, read_bounded

from ..paths import conformance_dir
from .jsonfmt import dumps

STATUSES = ("required", "optional", "disputed", "golden")
"""What a case is, by where it lives: conformance to the edition; behaviour editions leave open;
rulebook readings that depart from the edition (three case folders); and golden traces, games
recorded from the reference engine, which have a folder of their own."""

GOLDEN = STATUSES[-1]
"""The status of golden traces, and the name of their folder."""

CASE_FOLDERS = STATUSES[:-1]
"""The status folders of a case folder."""

MAX_BYTES = 5_000_000
"""Largest case file accepted, in bytes."""

Json = dict[str, Any]


class CaseError(SpecError):
    """Case files are unusable; `problems` holds one located line per problem."""


@dataclass(frozen=True)
class Case:
    """One conformance case, as loaded from its file."""

    id: str
    description: str
    clauses: tuple[str, ...]
    tags: tuple[str, ...]
    status: str
    edition: str
    players: int
    first_player: int
    tokens: tuple[int, ...] | None
    assumes: str | None
    needs: tuple[str, ...]
    rounds: tuple[Json, ...]
    result: Json | None
    path: Path
    line: int = 1
    note: str | None = None
    generated: str | None = None
    """What wrote the case's file, when a program did (its `generated` field)."""

    @property
    def where(self) -> str:
        """FILE:LINE of the case, for messages."""
        return f"{self.path}:{self.line}"

    def to_json(self) -> Json:
        """The case as written in its file."""
        out: Json = {"id": self.id, "description": self.description, "clauses": list(self.clauses),
                     "tags": list(self.tags), "edition": self.edition, "players": self.players}
        if self.first_player:
            out["first_player"] = self.first_player
        if self.tokens is not None:
            out["tokens"] = list(self.tokens)
        for key, value in (("assumes", self.assumes), ("note", self.note)):
            if value is not None:
                out[key] = value
        if self.needs:
            out["needs"] = list(self.needs)
        out["rounds"] = list(self.rounds)
        if self.result is not None:
            out["result"] = self.result
        return out


def corpus_dir() -> Path:
    """The bundled case folder: `conformance/cases/`."""
    return conformance_dir() / "cases"


def golden_dir(root: Path | None = None) -> Path:
    """Where the golden traces of a corpus are: `conformance/golden/` for the bundled one, the
    `golden/` folder inside a case folder of your own."""
    return root / GOLDEN if root is not None else conformance_dir() / GOLDEN


def schema_path() -> Path:
    """The JSON Schema of case files."""
    return conformance_dir() / "schema" / "case.schema.json"


def _placed(root: Path | None) -> list[tuple[Path, tuple[str, str] | Problem]]:
    """Every file of the corpus under `root` (default: the bundled one), the cases then the golden
    traces, each in a stable order, with its (status, edition) or why it does not belong where it is."""
    base = root or corpus_dir()
    if not base.is_dir():
        wrong = "not a folder" if base.exists() else "no such case folder"
        raise CaseError([Problem(str(base), 1, 1, wrong)])
    golden = golden_dir(root)
    cases = [path for path in sorted(base.rglob("*.json")) if not path.is_relative_to(golden)]
    traces = sorted(golden.rglob("*.json")) if golden.is_dir() else []
    return [(path, _confined(path, base) or _case_layout(path, base, golden)) for path in cases] + \
        [(path, _confined(path, golden) or _golden_layout(path, golden)) for path in traces]


def _confined(path: Path, folder: Path) -> Problem | None:
    """Why a file found in a case folder is not read (None when it is): a symlink out of the
    folder, a FIFO or a device, a file over MAX_BYTES, decided before it is opened."""
    try:
        confined(folder, str(path.relative_to(folder)), (folder,), MAX_BYTES, "case file",
                 f"the case folder {folder}")
    except Refused as exc:
        return Problem(str(path), 1, 1, str(exc))
    return None


def corpus_files(root: Path | None = None) -> list[Path]:
    """Every case file and golden trace under `root` (default: the bundled corpus), in a stable order."""
    return [path for path, _ in _placed(root)]


def formatted(doc: Any) -> str:
    """A corpus file's text in the canonical formatting, which keeps diffs reviewable."""
    return dumps(doc) + "\n"


def reformatted(path: Path) -> tuple[str, str]:
    """A corpus file's text, and the same JSON in the canonical formatting (CaseError, located, when
    the file cannot be read as JSON)."""
    data, text = _read(path)
    return text, formatted(data)


def load_corpus(root: Path | None = None, *, checked: bool = False,
                more_editions: Iterable[Edition] = ()) -> list[Case]:
    """Load and validate every case file under `root`; CaseError lists every problem found. With
    `checked`, every case that loads is also checked against its edition (`corpus_problems`, with
    `more_editions` known besides the bundled ones), and the problems of both kinds are listed."""
    cases, problems = _load(root)
    if checked:  # in file order, both kinds together
        problems = sorted(problems + corpus_problems(cases, more_editions),
                          key=lambda problem: (problem.file, problem.line, problem.col))
    if problems:
        raise CaseError(problems)
    return cases


def _load(root: Path | None) -> tuple[list[Case], list[Problem]]:
    """The cases of every valid file of the corpus under `root`, and the problems of the others."""
    cases: list[Case] = []
    problems: list[Problem] = []
    for path, layout in _placed(root):
        if isinstance(layout, Problem):
            problems.append(layout)
            continue
        try:
            found, wrong = _load_file(path, *layout)
        except CaseError as exc:
            found, wrong = [], exc.problems
        cases += found
        problems += wrong
    problems += _duplicates(cases)
    return cases, problems


def load_file(path: Path, status: str = "required", edition: str | None = None) -> list[Case]:
    """The cases of one file, validated; `edition`, when given, is the folder's edition."""
    cases, problems = _load_file(path, status, edition)
    problems += _duplicates(cases)
    if problems:
        raise CaseError(problems)
    return cases


def _load_file(path: Path, status: str, edition: str | None) -> tuple[list[Case], list[Problem]]:
    """The schema-valid cases of one file, and every other problem found in it but duplicate ids
    (CaseError when the file cannot be read as a JSON object)."""
    data, text = _read(path)
    if not isinstance(data, dict):
        raise CaseError([Problem(str(path), 1, 1, "a case file must be a JSON object with 'description' "
                                                  f"and 'cases', not {_json_kind(data)}")])
    at = _Locator(str(path), text, data)
    errors = _schema_errors(data)
    problems = [at.problem(index, message) for index, message in errors]
    broken = {index for index, _ in errors}  # None: the file itself, beyond any one case
    generated = data.get("generated")
    built = {} if None in broken else \
        {i: _case(raw, status, path, at.lines[i], generated) for i, raw in enumerate(data["cases"])
         if i not in broken}
    for index, case in built.items():
        problems += [at.problem(index, message) for message in _structure(case, edition)]
    return list(built.values()), problems


# -- reading and locating ------------------------------------------------------------------------


def _read(path: Path) -> tuple[Any, str]:
    """A file's JSON and text; CaseError, located, when it is unreadable or not JSON."""
    name = str(path)
    try:
        text = decode(read_bounded(path, MAX_BYTES), name)
    except TooLarge as exc:
        raise CaseError([Problem(name, 1, 1, str(exc))]) from None
    except OSError as exc:
        raise CaseError([Problem(name, 1, 1, f"cannot read file: {exc.strerror or exc}")]) from None
    except SpecError as exc:
        raise CaseError(exc.problems) from None
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_int=_bounded_int), text
    except _HugeInt as exc:
        line, col = _Locator(name, text).find(exc.digits[:MAX_INT_DIGITS])
        raise CaseError([Problem(name, line, col, f"an integer of {len(exc.digits):,} digits "
                                                  f"(at most {MAX_INT_DIGITS})")]) from None
    except json.JSONDecodeError as exc:
        raise CaseError([Problem(name, exc.lineno, exc.colno, f"malformed JSON: {exc.msg}")]) from None
    except _DuplicateKey as exc:
        line, col = _Locator(name, text).find(f'"{exc.key}"')
        raise CaseError([Problem(name, line, col, f"duplicate key {exc.key!r}")]) from None
    except RecursionError:
        raise CaseError([Problem(name, 1, 1, "document is nested too deeply")]) from None


def _json_kind(value: Any) -> str:
    """The JSON name of a decoded value's type, with its article."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    kinds = ((list, "an array"), (str, "a string"), (int, "a number"), (float, "a number"))
    return next(name for kind, name in kinds if isinstance(value, kind))


class _DuplicateKey(ValueError):
    """A JSON object spells the same key twice."""

    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


class _HugeInt(Exception):
    def __init__(self, digits: str):
        self.digits = digits


def _bounded_int(digits: str) -> int:
    """An integer of the file, refused beyond MAX_INT_DIGITS (Python's own limit is a traceback)."""
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise _HugeInt(digits)
    return int(digits)


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> Json:
    """A JSON object from its pairs, refusing a repeated key (json.loads keeps the last silently)."""
    out: Json = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


_ID = re.compile(r'"id"\s*:\s*("(?:[^"\\]|\\.)*")')
"""An `"id"` key and its string value, as JSON writes them."""


class _Locator:
    """Where each case of a file begins: the line of its `"id"` (the n-th occurrence for the n-th
    case with that id)."""

    def __init__(self, file: str, text: str, data: Any = None):
        self.file = file
        self.text = text
        self.ids = [_case_id(raw, i) for i, raw in enumerate(_raw_cases(data))]
        seen = self._id_lines() if self.ids else {}
        self.lines: list[int] = []
        for case_id in self.ids:
            found = seen.get(case_id)
            self.lines.append(found.pop(0) if found else 1)

    def _id_lines(self) -> dict[str, list[int]]:
        """The lines of every `"id": "..."` in the text, by the id's value, in one pass (a file of
        thousands of cases is not scanned once per case)."""
        lines: dict[str, list[int]] = {}
        line, counted = 1, 0
        for match in _ID.finditer(self.text):
            line += self.text.count("\n", counted, match.start())
            counted = match.start()
            try:
                value = json.loads(match.group(1))
            except ValueError:
                continue
            lines.setdefault(value, []).append(line)
        return lines

    def _line(self, at: int) -> int:
        return self.text.count("\n", 0, at) + 1

    def find(self, needle: str) -> tuple[int, int]:
        """LINE, COL of the first occurrence of `needle` (1, 1 when absent)."""
        at = self.text.find(needle)
        if at < 0:
            return 1, 1
        return self._line(at), at - (self.text.rfind("\n", 0, at) + 1) + 1

    def problem(self, index: int | None, message: str) -> Problem:
        """A problem located at the case with this index (or at the file's start)."""
        if index is None or index >= len(self.ids):
            return Problem(self.file, 1, 1, message)
        return Problem(self.file, self.lines[index], 1, f"case {self.ids[index]}: {message}")


def _raw_cases(data: Any) -> list[Any]:
    """The `cases` list of a document, whatever shape it has."""
    cases = data.get("cases") if isinstance(data, dict) else None
    return cases if isinstance(cases, list) else []


def _case_id(raw: Any, index: int) -> str:
    """A case's id, or `#N` when it has none."""
    return raw["id"] if isinstance(raw, dict) and isinstance(raw.get("id"), str) else f"#{index}"


def _case_layout(path: Path, base: Path, golden: Path) -> tuple[str, str] | Problem:
    """(status, edition) from `<base>/<status>/<edition>/<file>.json`."""
    parts = path.relative_to(base).parts
    if len(parts) != 3 or parts[0] not in CASE_FOLDERS:
        return Problem(str(path), 1, 1,
                       f"case files belong in <status>/<edition>/NAME.json under {base} (status: "
                       f"{', '.join(CASE_FOLDERS)}), golden traces in <edition>/NAME.json under {golden}")
    return parts[0], parts[1]


def _golden_layout(path: Path, golden: Path) -> tuple[str, str] | Problem:
    """(GOLDEN, edition) from `<golden>/<edition>/<file>.json`."""
    parts = path.relative_to(golden).parts
    if len(parts) != 2:
        return Problem(str(path), 1, 1, f"golden traces belong in <edition>/NAME.json under {golden}")
    return GOLDEN, parts[0]


# -- schema --------------------------------------------------------------------------------------


@cache
def fast_validator(path: Path) -> Any:
    """A compiled validator of the Rust `jsonschema-rs` package, or None where it is not installed."""
    try:
        import jsonschema_rs
    except ImportError:
        return None
    return jsonschema_rs.Draft202012Validator(json.loads(path.read_text(encoding="utf-8")))


def _schema_errors(data: Any) -> list[tuple[int | None, str]]:
    """(case index or None, message) for every schema violation, in document order.

    Valid files (nearly all) are confirmed by the fast validator; the errors of an invalid file
    are found and phrased with `jsonschema`, as spec errors are.
    """
    fast = fast_validator(schema_path())
    if fast is not None and fast.is_valid(data):
        return []
    found: list[tuple[int | None, str]] = []
    for error in validator_for(schema_path()).iter_errors(data):
        leaf = _deepest(error)
        pointer = tuple(leaf.absolute_path)
        index = None
        if len(pointer) >= 2 and pointer[0] == "cases" and isinstance(pointer[1], int):
            index, pointer = pointer[1], pointer[2:]
        where = f"{pointer_text(pointer)}: " if pointer else ""
        found.append((index, where + _message(leaf)))
    return list(dict.fromkeys(found))


def _deepest(error: ValidationError) -> ValidationError:
    """The most specific error beneath a oneOf/anyOf failure."""
    while error.context:
        error = max(error.context, key=lambda e: len(e.absolute_path))
    return error


def _message(error: ValidationError) -> str:
    """A schema error phrased for people writing cases."""
    if error.validator in ("additionalProperties", "unevaluatedProperties"):
        names = re.findall(r"'([^']*)'", error.message.partition("(")[2])
        return f"unknown field {', '.join(repr(n) for n in names)}"
    forbidden = error.validator_value if error.validator == "not" else None
    if isinstance(forbidden, dict) and "required" in forbidden:
        return f"field {forbidden['required'][0]!r} is not allowed with 'refused'"
    return short_message(error)


# -- building and structural checks --------------------------------------------------------------


def _case(raw: Json, status: str, path: Path, line: int, generated: str | None) -> Case:
    tokens = raw.get("tokens")
    return Case(
        id=raw["id"], description=raw["description"], clauses=tuple(raw["clauses"]),
        tags=tuple(raw["tags"]), status=status, edition=raw["edition"], players=raw["players"],
        first_player=raw.get("first_player", 0), tokens=tuple(tokens) if tokens is not None else None,
        assumes=raw.get("assumes"), needs=tuple(raw.get("needs", ())), rounds=tuple(raw["rounds"]),
        result=raw.get("result"), path=path, line=line, note=raw.get("note"), generated=generated)


def _structure(case: Case, edition: str | None) -> Iterator[str]:
    """What is wrong with a schema-valid case without looking at its edition's rules."""
    n = case.players
    if edition is not None and case.edition != edition:
        yield f"edition {case.edition!r} does not match its folder {edition!r}"
    if (case.status == "disputed") != (case.assumes is not None):
        yield ("a disputed case must name the reading it assumes ('assumes')" if case.assumes is None
               else "only disputed cases assume a reading ('assumes')")
    if case.first_player >= n:
        yield f"first_player {case.first_player} is not a seat of {n} players"
    if case.tokens is not None and len(case.tokens) != n:
        yield f"tokens lists {len(case.tokens)} counts for {n} players"
    if len(case.rounds) > 1 and "games" not in case.needs:
        yield "a case of several rounds needs the 'games' capability (add it to 'needs')"
    if not _checks_something(case):
        yield ("the case checks only what optional capabilities report (events, legal actions, views): "
               "list the ones it needs in 'needs'")
    for r, round_ in enumerate(case.rounds):
        if round_.get("refused") and r != len(case.rounds) - 1:
            yield f"rounds[{r}] is refused, so no round may follow it"
        for where, seat in _seats(round_, f"rounds[{r}]"):
            if seat >= n:
                yield f"{where}: seat {seat} does not exist with {n} players"


def _checks_something(case: Case) -> bool:
    """True when an engine with only the capabilities the case needs would still check something.

    States, refusals and results are always checked; `events`, `legal_actions` and `views`
    expectations only with the capability of the same name.
    """
    if case.result:
        return True
    checked = {"state", *case.needs}
    for round_ in case.rounds:
        steps = round_.get("steps", ())
        if round_.get("refused") or any(step.get("refused") for step in steps):
            return True
        expects = [round_.get("start", {})] + [step.get("expect", {}) for step in steps]
        if any(checked & set(expect) for expect in expects):
            return True
    return False


def _seats(round_: Json, where: str) -> Iterator[tuple[str, int]]:
    """Every seat number a round's steps and expectations mention, with where it is."""
    expects = [(f"{where}.start", round_["start"])] if "start" in round_ else []
    for i, step in enumerate(round_.get("steps", ())):
        target = step["action"].get("target")
        if target is not None and not step.get("refused"):
            yield f"{where}.steps[{i}].action", target
        if "expect" in step:
            expects.append((f"{where}.steps[{i}].expect", step["expect"]))
    for place, expect in expects:
        for seat in expect.get("views", {}):
            yield f"{place}.views", int(seat)


def _duplicates(cases: Iterable[Case]) -> list[Problem]:
    first: dict[str, Case] = {}
    problems = []
    for case in cases:
        if case.id in first and first[case.id] is not case:
            problems.append(Problem(str(case.path), case.line, 1,
                                    f"case {case.id}: duplicate id (also at {first[case.id].where})"))
        first.setdefault(case.id, case)
    return problems


# -- checks against the editions -----------------------------------------------------------------


def editions() -> dict[str, Edition]:
    """The bundled editions (not readings), by id."""
    return {name: load_spec(path) for name, path in known_specs().items()
            if path.parent.name == "editions"}


def readings() -> set[str]:
    """The ids of the bundled rulebook readings."""
    return {name for name, path in known_specs().items() if path.parent.name == "readings"}


def corpus_problems(cases: Iterable[Case], more_editions: Iterable[Edition] = ()) -> list[Problem]:
    """What is wrong with loaded cases given the editions (the bundled ones and `more_editions`):
    clauses, player counts, decks, cards."""
    known = {**editions(), **{edition.id: edition for edition in more_editions}}
    known_readings = readings()
    problems = []
    for case in cases:
        edition = known.get(case.edition)
        if edition is None:
            messages: Iterable[str] = [f"unknown edition {case.edition!r} (editions: {', '.join(known)})"]
        else:
            messages = _against(case, edition, known_readings)
        problems += [Problem(str(case.path), case.line, 1, f"case {case.id}: {m}")
                     for m in messages]
    return problems


def _against(case: Case, edition: Edition, known_readings: set[str]) -> Iterator[str]:
    rules = edition
    if case.assumes is not None and case.assumes not in known_readings:
        listed = ", ".join(sorted(known_readings)) or "none"
        yield f"reading {case.assumes!r} is not in spec/readings ({listed})"
        return
    if case.assumes is not None:
        rules = load_spec(case.assumes)
        if rules.describes != edition.id:
            yield f"reading {case.assumes!r} describes {rules.describes}, not {edition.id}"
    if not rules.supports(case.players):
        yield f"{rules.id} is for {rules.min_players}-{rules.max_players} players, not {case.players}"
        return
    target = facts_for(rules, case.players).numbers["tokens_to_win"]
    if case.tokens is not None and target is not None and max(case.tokens) >= target:
        seat = case.tokens.index(max(case.tokens))
        yield (f"tokens: player {seat} starts with {case.tokens[seat]} tokens, and {target} win a "
               f"{rules.id} game of {case.players} players: a game cannot start won")
    for clause in case.clauses:
        if clause not in edition.clauses and clause not in rules.clauses:
            yield f"clause {clause!r} is not a clause of {edition.id}" + \
                (f" or {rules.id}" if rules is not edition else "")
    deck = Counter(rules.names[c] for c in rules.deck(case.players))
    names = set(rules.names)  # a guess may name a card this player count does not deal
    for r, round_ in enumerate(case.rounds):
        if not round_.get("refused") and Counter(round_["deck"]) != deck:
            yield (f"rounds[{r}].deck is not the {rules.id} deck for {case.players} players "
                   f"({_diff(deck, round_['deck'])})")
        for where, name in _card_names(round_, f"rounds[{r}]"):
            if name not in deck:
                yield f"{where}: {name!r} is not a {rules.id} card"
        for where, name in _guessed_names(round_, f"rounds[{r}]"):
            if name not in names:
                yield f"{where}: guess {name!r} is not a {rules.id} card"


def _diff(want: Counter[str], deck: list[str]) -> str:
    have = Counter(deck)
    names = sorted(set(want) | set(have))
    return ", ".join(f"{have[n] - want[n]:+d} {n}" for n in names if have[n] != want[n])


def _card_names(round_: Json, where: str) -> Iterator[tuple[str, str]]:
    """Card names in the accepted actions of a round and in its expected events."""
    for i, step in enumerate(round_.get("steps", ())):
        if step.get("refused"):
            continue
        action = step["action"]
        for name in [action["card"], *action.get("return", ())]:
            yield f"{where}.steps[{i}].action", name
        for event in step.get("expect", {}).get("events", ()):
            for key in ("card", "by"):
                if key in event:
                    yield f"{where}.steps[{i}].expect.events", event[key]


def _guessed_names(round_: Json, where: str) -> Iterator[tuple[str, str]]:
    """Card names guessed in the accepted actions of a round and in its expected events (a guess
    by value is a number, checked by the engine)."""
    for i, step in enumerate(round_.get("steps", ())):
        if step.get("refused"):
            continue
        places = [(f"{where}.steps[{i}].action", step["action"])]
        places += [(f"{where}.steps[{i}].expect.events", event)
                   for event in step.get("expect", {}).get("events", ())]
        for place, holder in places:
            if isinstance(holder.get("guess"), str):
                yield place, holder["guess"]


# -- coverage ------------------------------------------------------------------------------------


def coverage(cases: Iterable[Case], status: str = "required") -> dict[str, list[str]]:
    """Every clause of every bundled edition -> the ids of the `status` cases that name it."""
    out: dict[str, list[str]] = {clause: [] for edition in editions().values() for clause in edition.clauses}
    for case in cases:
        if case.status != status:
            continue
        for clause in case.clauses:
            if clause in out:
                out[clause].append(case.id)
    return out
