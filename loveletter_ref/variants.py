"""Variants of an edition: the same spec with one clause (or two) stating something else.

A clause's alternatives come from two places: what every other bundled spec (edition or
rulebook reading) states under the same clause key, and a catalogue of standard variants built
from the spec vocabulary itself (the schema): every other value of an enumerated choice (the
opposite comparison, the other tie rules, the other duration, self allowed or refused), counts
one up or down (or none), a listed card left out or one more listed, one or two parts of a
rule with several changed. Nothing here names a card or a rule: the
catalogue is read off the schema, so a new kind gets its variants with no code.
A variant is compiled under the edition's own id and prefix, so that it plays the edition as
far as any engine can tell; a rewrite the schema or the semantic checks refuse is no variant.
"""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .errors import SpecError
from .spec import Edition, find_spec, known_specs, load_document, schema_path
from .spec.compile import compile_spec
from .spec.model import table_lookup
from .spec.schema import fits, schema_problems
from .spec.semantic import semantic_problems

CATALOGUE = "catalogue"
"""The `source` of an alternative taken from the catalogue of standard variants."""


@dataclass(frozen=True)
class Alternative:
    """Clause `key` (a `kind` rule) stating `rule` instead, as `source` states it (a bundled
    spec's id, or CATALOGUE)."""

    key: str
    kind: str
    encoded: str
    """The rule as sorted JSON (so that an alternative can be hashed)."""
    source: str

    @classmethod
    def of(cls, key: str, kind: str, rule: Any, source: str) -> Alternative:
        """The alternative stating `rule`."""
        return cls(key, kind, json.dumps(rule, sort_keys=True), source)

    @property
    def rule(self) -> Any:
        """The rule stated instead."""
        return json.loads(self.encoded)

    @property
    def text(self) -> str:
        """The rule as written in a spec (compact JSON)."""
        return rule_text(self.rule)

    def says(self, prefix: str) -> str:
        """`PREFIX.KEY` were `RULE` (as SOURCE states it), for an edition's `prefix`."""
        origin = "" if self.source == CATALOGUE else f" (as {self.source} states it)"
        return f"`{prefix}.{self.key}` were `{self.text}`{origin}"


def rule_text(rule: Any) -> str:
    """A clause's parameters in one line: a bare word, or compact JSON."""
    return rule if isinstance(rule, str) else json.dumps(rule, separators=(", ", ": "), ensure_ascii=False)


def raw_clause(data: Mapping[str, Any], key: str) -> dict[str, Any] | None:
    """The raw clause with id `key` among a spec's card rules and general rules."""
    return _located_clause(data, key)[0]


def _located_clause(data: Mapping[str, Any], key: str) -> tuple[dict[str, Any] | None, str]:
    """The raw clause with id `key`, and the schema's name for its kind of clause (a card's rule
    or a general one)."""
    for definition, clauses in (
            ("cardClause", [rule for card in data.get("cards", []) for rule in card.get("rules", [])]),
            ("generalClause", data.get("rules", []))):
        found = next((c for c in clauses if isinstance(c, dict) and c.get("id") == key), None)
        if found is not None:
            return found, definition
    return None, ""


@cache
def _raw(path: Path) -> tuple[Any, Any]:
    """A spec's data (any `extends` base merged in) and positions."""
    _, data, positions = load_document(path)
    return data, positions


def _edition_path(edition: Edition) -> Path:
    return edition.path if edition.path is not None else find_spec(edition.id)


def alternatives(edition: Edition, clause_id: str) -> list[Alternative]:
    """Everything clause `clause_id` of `edition` could state instead: other bundled specs' rules
    first (editions, then readings), then the catalogue; each distinct rule once, and only those
    that make a valid spec."""
    clause = edition.clauses.get(clause_id)
    if clause is None or clause.silent or clause.kind == "card":
        return []
    rule = stated(edition, clause.key, clause.kind)
    if rule is None:
        return []
    seen = [rule]
    out: list[Alternative] = []
    for source, other in [*_stated(clause.key, clause.kind, edition), *(
            (CATALOGUE, r) for r in catalogue(clause.kind, rule, edition.names))]:
        if any(same_rule(edition, other, known) for known in seen):
            continue
        seen.append(other)
        alternative = Alternative.of(clause.key, clause.kind, other, source)
        if variant(edition, (alternative,)) is not None:
            out.append(alternative)
    return out


def stated(edition: Edition, key: str, kind: str) -> Any:
    """What the edition's file states for clause `key` (a `kind` rule), as written; None if nothing."""
    raw = raw_clause(_raw(_edition_path(edition))[0], key)
    return copy.deepcopy(raw[kind]) if raw is not None and kind in raw else None


def same_rule(edition: Edition, a: Any, b: Any) -> bool:
    """True when two parameters of a rule say the same for the edition: equal, or player-count
    tables that give every player count it supports the same value (none counting as 0)."""
    if a == b:
        return True
    if not (_is_table(a) and _is_table(b)):
        return False
    return all((table_lookup(a, n) or 0) == (table_lookup(b, n) or 0)
               for n in range(edition.min_players, edition.max_players + 1))


def _is_table(rule: Any) -> bool:
    return isinstance(rule, dict) and bool(rule) and all(
        isinstance(k, str) and k.replace("-", "").isdigit() and isinstance(v, int) for k, v in rule.items())


def _stated(key: str, kind: str, edition: Edition) -> Iterable[tuple[str, Any]]:
    for spec_id, path in known_specs().items():
        if spec_id == edition.id:
            continue
        raw = raw_clause(_raw(path)[0], key)
        if raw is not None and kind in raw:
            yield spec_id, raw[kind]


def variant(edition: Edition, changes: Iterable[Alternative]) -> Edition | None:
    """The edition with each change's clause stating its rule instead; None when the result is
    not a valid spec (or a clause is missing)."""
    return _variant(_edition_path(edition), tuple(changes))


@cache
def _variant(path: Path, changes: tuple[Alternative, ...]) -> Edition | None:
    try:
        return _compiled(path, changes, quick=True)
    except SpecError:
        return None


def _compiled(path: Path, changes: tuple[Alternative, ...], quick: bool = False) -> Edition | None:
    """The spec at `path` (a valid one) with `changes` made; None when a clause is missing;
    SpecError when the result is not valid. `quick` checks against the schema only the clauses
    changed, each against its kind's definition (the rest is as valid as it was), and answers
    None for one that does not fit: for callers that only ask whether a variant exists."""
    data, positions = _raw(path)
    data = copy.deepcopy(data)
    for change in changes:
        clause, definition = _located_clause(data, change.key)
        if clause is None or change.kind not in clause:
            return None
        clause[change.kind] = copy.deepcopy(change.rule)
        if quick and not fits(clause, definition, schema_path()):
            return None
    problems = [] if quick else schema_problems(data, positions, str(path), schema_path())
    problems = problems or semantic_problems(data, positions, str(path))
    if problems:
        raise SpecError(problems)
    return compile_spec(data, positions, path)


def rewritten(edition_id: str, changes: Sequence[tuple[str, str, Any]]) -> Edition | None:
    """A bundled edition with each clause `key` (a `kind` rule) stating `rule`, for each
    (key, kind, rule) of `changes`; None when the edition lacks one of those clauses; SpecError
    when the result is not a valid spec."""
    return _compiled(find_spec(edition_id), tuple(Alternative.of(*change, CATALOGUE) for change in changes))


OBSERVED = "observed"
"""The source document of a clause an engine's reading states as the engine was seen to play it."""


def reading_of(edition: Edition, changes: Sequence[Alternative], reading_id: str, title: str,
               evidence: Mapping[str, str]) -> dict[str, Any]:
    """A reading (spec data) of `edition` as an engine plays it: the edition's own clauses, but
    each change's clause stating its rule instead, sourced to what was observed
    (`evidence[key]`, a paraphrase: the diagnosis and its replay)."""
    data = copy.deepcopy(_raw(_edition_path(edition))[0])
    data.pop("extends", None)
    data.update(kind="reading", id=reading_id, prefix=reading_id, title=title, describes=edition.id,
                rulebook=OBSERVED)
    data["sources"] = {**data.get("sources", {}),
                       OBSERVED: {"title": f"What llcheck observed an engine play ({title})"}}
    for change in changes:
        clause = raw_clause(data, change.key)
        if clause is None or change.kind not in clause:
            continue
        clause[change.kind] = change.rule
        clause["source"] = {"doc": OBSERVED, "paraphrase": True,
                            "quote": evidence.get(change.key) or f"the engine plays {change.key} so"}
        for told in ("choice", "note"):
            clause.pop(told, None)
    return data


# -- the catalogue, read off the schema --------------------------------------------------------


@cache
def _schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(schema_path().read_text(encoding="utf-8"))
    return loaded


def _kind_schema(kind: str) -> dict[str, Any] | None:
    defs = _schema()["$defs"]
    for vocabulary in ("cardRule", "generalRule"):
        found = defs[vocabulary]["properties"].get(kind)
        if found is not None:
            return _resolve(found)
    return None


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return {**_schema()["$defs"][ref.rsplit("/", 1)[1]], **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def catalogue(kind: str, rule: Any, names: Sequence[str] = ()) -> list[Any]:
    """The standard variants of a `kind` rule stating `rule` (the rule itself left out); `names`
    are the edition's cards, which a list of cards may gain one of."""
    node = _kind_schema(kind)
    if node is None:
        return []
    return [r for r in _vary(node, rule, tuple(names)) if r != rule]


def _vary(node: dict[str, Any], value: Any, names: tuple[str, ...]) -> list[Any]:
    node = _resolve(node)
    if "oneOf" in node:
        return [r for option in node["oneOf"] for r in _vary(option, value, names)]
    if "enum" in node:
        return [v for v in node["enum"] if v != value] if value in node["enum"] else []
    kind = node.get("type")
    if kind == "integer" and isinstance(value, int) and not isinstance(value, bool):
        return [n for n in (value + 1, value - 1, 0) if _fits(node, n)]
    if kind == "array" and isinstance(value, list):
        return _vary_list(node, value, names)
    if kind == "object" and isinstance(value, dict):
        return _vary_object(node, value, names)
    return []


def _fits(node: dict[str, Any], n: int) -> bool:
    return node.get("minimum", n) <= n <= node.get("maximum", n)


def _vary_list(node: dict[str, Any], value: list[Any], names: tuple[str, ...]) -> list[Any]:
    ref = node.get("items", {}).get("$ref", "")
    items = _resolve(node.get("items", {}))
    shorter = [value[:i] + value[i + 1:] for i in range(len(value))] + ([[]] if value else [])
    if "enum" in items:  # orders of a few choices (tie rules, the things protection blocks)
        choices = items["enum"]
        shorter += [list(p) for n in (1, 2) for p in itertools.permutations(choices, n)]
    if ref.endswith("/cardName"):  # a list of cards: one more of the edition's
        shorter += [[*value, name] for name in names if name not in value]
    fits = [v for v in shorter if len(v) >= node.get("minItems", 0)]
    as_set = node.get("uniqueItems", False)  # a set: one order of each is enough
    kept: dict[str, list[Any]] = {}
    for v in fits:
        kept.setdefault(json.dumps(sorted(v) if as_set else v), v)
    return list(kept.values())


def _vary_object(node: dict[str, Any], value: dict[str, Any], names: tuple[str, ...]) -> list[Any]:
    properties = node.get("properties")
    out: list[Any] = []
    if properties is None:  # a player-count table: every count up, down, or none at once
        extra = _resolve(node.get("additionalProperties", {})) if isinstance(
            node.get("additionalProperties"), dict) else {}
        bounds = {"minimum": extra.get("minimum", 0), "maximum": extra.get("maximum", 1000)}
        for change in (1, -1):
            moved = {k: v + change for k, v in value.items() if isinstance(v, int)}
            if all(_fits(bounds, v) for v in moved.values()):
                out.append(moved)
        if _fits(bounds, 0):
            out.append({k: 0 for k in value})
        return out
    changes = [[(name, v) for v in _vary(child, value[name], names)]
               for name, child in properties.items() if name in value]
    out += [{**value, name: v} for one in changes for name, v in one]
    out += [{**value, a: x, b: y} for i, first in enumerate(changes) for second in changes[i + 1:]
            for a, x in first for b, y in second]  # two of its parts changed at once
    return out
