"""The sides of a dispute: a spec as it is played (a version chosen for each contradiction),
and the specs the search builds from it, clause by clause.

A *blend* is one side's spec with a single clause taken from the other side: if the game played
under the blend shows, at the step where two sides part, exactly what the other side shows,
that clause alone accounts for the difference. A *silenced* spec has one clause marked silent,
so the engine raises a rule gap exactly when a game first needs that clause.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from loveletter_ref.spec import Edition, data_problems, known_specs, load_document, load_spec
from loveletter_ref.spec.compile import compile_spec
from loveletter_ref.spec.model import table_lookup
from loveletter_ref.spec.yamlsafe import Positions

PLAYERS = "players"
"""The pseudo-clause of the player counts a spec allows (its `players` header)."""


@dataclass(eq=False)
class Side:
    """A spec as played in a dispute."""

    edition: Edition
    data: dict[str, Any]
    positions: Positions
    path: Path
    choices: tuple[tuple[str, int], ...] = ()
    swap: tuple[tuple[str, ...], Side] | None = None
    """For a spec built by `derived`: the clause keys, and the side they were taken from."""
    origin: str = ""
    """Where the spec comes from, shown in its label when the other side has the same id."""
    base: Side | None = None
    """For a spec built by `derived`: the side it was built from (itself maybe derived)."""
    _built: dict[tuple[Any, ...], Edition | None] = field(default_factory=dict, repr=False)

    @property
    def id(self) -> str:
        """The spec's id."""
        return self.edition.id

    @property
    def label(self) -> str:
        """The spec's id, with the versions chosen when they are not the first (and the clause
        swapped in, for a derived spec)."""
        chosen = [f"{key} version {index + 1}" for key, index in self.choices]
        if self.origin:
            chosen.insert(0, self.origin)
        label = f"{self.id} ({', '.join(chosen)})" if chosen else self.id
        if self.base is not None and self.base.swap is not None:
            label = self.base.label
        if self.swap is not None:
            label += f" with {self.swap[1].label}'s {' and '.join(self.swap[0])}"
        return label

    @property
    def name(self) -> str:
        """How a replay names the spec's file: its id when bundled, else its path (so that a
        replay of a spec of one's own can be played again)."""
        bundled = known_specs().get(self.id)
        return self.id if bundled is not None and bundled.resolve() == self.path.resolve() else str(self.path)

    def replay_header(self) -> dict[str, Any]:
        """How a replay names this spec: its file (`name`), versions chosen, and any clause
        swapped in."""
        out: dict[str, Any] = {"edition": self.name}
        chosen = {key: index + 1 for key, index in self.choices}
        if chosen:
            out["versions"] = chosen
        if self.swap is not None:
            keys, donor = self.swap
            out["swap"] = {"clause": keys[0] if len(keys) == 1 else list(keys), "from": donor.replay_header()}
            if self.base is not None and self.base.swap is not None:
                out["swap"]["into"] = self.base.replay_header()
        return out

    def derived(self, donor: Side, *keys: str) -> Side | str:
        """This spec with the clauses `keys` as `donor` states them, as a side of its own,
        provided it passes the validation of any spec; otherwise why no such spec exists."""
        key = " and ".join(keys)
        data, choices = self._taken(donor, keys)
        if data is None:
            return f"{key} cannot be taken from {donor.label} into {self.label}"
        for doc, source in donor.data.get("sources", {}).items():
            data.setdefault("sources", {}).setdefault(doc, source)
        if data["kind"] != "reading" and donor.data["kind"] == "reading":
            # an edition with a reading's clause, which may be silent: a reading of that edition
            data.update(kind="reading", describes=self.id, rulebook=donor.data["rulebook"])
        problems = data_problems(data, self.positions, str(self.path))
        if problems:
            return (f"{self.label} with {key} as {donor.label} states it is not a valid spec "
                    f"({problems[0].message})")
        edition = self._compile(data, choices, donor)
        if edition is None:
            return f"{self.label} with {key} as {donor.label} states it cannot be compiled"
        return Side(edition, data, self.positions, self.path, tuple(sorted(choices.items())), (keys, donor),
                    self.origin, base=self)

    def value_group(self, donor: Side, key: str) -> tuple[str, ...]:
        """The card clauses that must be taken from `donor` together with card `key` so that no
        two cards share a value (which no valid spec allows): `key` alone when its value clashes
        with no other card's, () when a clash cannot be resolved by taking cards from `donor`
        (a card it lacks, or one it values alike)."""
        mine = {card["id"]: card["value"] for card in self.data["cards"]}
        theirs = {card["id"]: card["value"] for card in donor.data["cards"]}
        if key not in mine or key not in theirs:
            return (key,)
        group = [key]
        while True:
            values = {**mine, **{k: theirs[k] for k in group}}
            clash = sorted(c for c in values if c not in group and values[c] in {values[k] for k in group})
            if not clash:
                return tuple(group)
            if any(c not in theirs or theirs[c] == mine[c] for c in clash):
                return ()
            group += clash

    @property
    def versions(self) -> dict[str, int]:
        """Chosen versions by clause key (0-based), as given."""
        return dict(self.choices)

    def with_version(self, key: str, index: int) -> Side:
        """The same spec with another version of one contradicted clause."""
        return open_side(str(self.path), {**self.versions, key: index})

    def blend(self, donor: Side, *keys: str) -> Edition | None:
        """This spec with the clauses `keys` as `donor` states them (None when that cannot be
        built). Used to attribute a difference, never played as a side of its own."""
        cache = ("blend", id(donor), keys)
        if cache not in self._built:
            data, choices = self._taken(donor, keys)
            self._built[cache] = None if data is None else self._compile(data, choices, donor)
        return self._built[cache]

    def _taken(self, donor: Side, keys: tuple[str, ...]) -> tuple[dict[str, Any] | None, dict[str, int]]:
        """This spec's data with the clauses `keys` as `donor` states them (None when one cannot be
        taken), and the versions of contradicted clauses chosen then."""
        data: dict[str, Any] | None = self.data
        for key in keys:
            data = None if data is None else _swap(data, donor.data, key)
        choices = {k: i for k, i in self.choices if k not in keys}
        choices.update((k, donor.versions[k]) for k in keys if k in donor.versions)
        return data, choices

    def silenced(self, key: str) -> Edition | None:
        """This spec with clause `key` silent (None for clauses that cannot be silent)."""
        cache = ("silent", key)
        if cache not in self._built:
            data = _silence(self.data, key)
            self._built[cache] = None if data is None else self._compile(data, self.versions, self)
        return self._built[cache]

    def narrowed(self, key: str, rule: Any) -> Edition | None:
        """This spec with general clause `key` stating only `rule` (the part of its rule another
        spec shares; the engine stops with a rule gap naming `key` where `rule` says no more)."""
        cache = ("narrow", key, json.dumps(rule, sort_keys=True))
        if cache not in self._built:
            clause = self.edition.clause_by_key(key)
            data = None if clause is None else _restate(self.data, key, clause.kind, rule)
            choices = {k: i for k, i in self.choices if k != key}
            self._built[cache] = None if data is None else self._compile(data, choices, self)
        return self._built[cache]

    def opened(self, key: str, cases: Sequence[str]) -> Edition | None:
        """This spec with the parts `cases` left out of its general rule `key` (None when that
        rule is not stated as parts)."""
        cache = ("open", key, tuple(cases))
        if cache not in self._built:
            clause = self.edition.clause_by_key(key)
            data = None if clause is None else _without_parts(self.data, key, clause.kind, cases)
            self._built[cache] = None if data is None else self._compile(data, self.versions, self)
        return self._built[cache]

    def _compile(self, data: dict[str, Any], choices: Mapping[str, int], other: Side) -> Edition | None:
        def kind_of(key: str) -> str | None:
            for edition in (self.edition, other.edition):
                clause = edition.clause_by_key(key)
                if clause is not None and clause.kind != "unknown":
                    return clause.kind
            return None

        try:
            return compile_spec(data, self.positions, self.path, choices, kind_of)
        except (KeyError, ValueError, TypeError, IndexError):
            return None


def open_side(name: str, choices: Mapping[str, int] | None = None) -> Side:
    """A spec by bundled id or path, with versions chosen (SpecError when it is not valid)."""
    return _open(name, tuple(sorted((choices or {}).items())))


@lru_cache(maxsize=64)
def _open(name: str, choices: tuple[tuple[str, int], ...]) -> Side:
    edition = load_spec(name, dict(choices))
    path, data, positions = load_document(name)
    return Side(edition, data, positions, path, choices)


def told_apart(sides: Sequence[Side], names: Sequence[str]) -> list[Side]:
    """The sides, each labelled by where it comes from when two of them would read alike (a
    bundled reading and an edited copy of it, which keeps its id)."""
    if len({side.label for side in sides}) == len(sides) or len(set(names)) < len(names):
        return list(sides)
    return [replace(side, origin="bundled" if name == side.id else name)
            for side, name in zip(sides, names, strict=True)]


def side_of(header: Mapping[str, Any]) -> Side | None:
    """The side a replay header names (see `Side.replay_header`); None if it cannot be built."""
    versions = {key: int(n) - 1 for key, n in header.get("versions", {}).items()}
    swap = header.get("swap")
    if swap is None:
        return open_side(header["edition"], versions)
    side = side_of(swap["into"]) if "into" in swap else open_side(header["edition"], versions)
    donor = side_of(swap["from"])
    if side is None:
        return None
    keys = swap["clause"] if isinstance(swap["clause"], list) else [swap["clause"]]
    derived = None if donor is None else side.derived(donor, *keys)
    return derived if isinstance(derived, Side) else None


# -- building specs clause by clause ---------------------------------------------------------


def _where(data: dict[str, Any], key: str) -> tuple[str, int, int | None] | None:
    """Where clause `key` is: ("rules", i, None), ("cards", i, None) or ("cards", i, j)."""
    for i, clause in enumerate(data["rules"]):
        if clause["id"] == key:
            return ("rules", i, None)
    for i, card in enumerate(data["cards"]):
        if card["id"] == key:
            return ("cards", i, None)
        for j, clause in enumerate(card.get("rules", [])):
            if clause["id"] == key:
                return ("cards", i, j)
    return None


def _card_of(data: dict[str, Any], key: str) -> int | None:
    """The index of the card whose rules clause `key` belongs to (by the id's first part)."""
    head = key.split(".")[0]
    return next((i for i, card in enumerate(data["cards"]) if card["id"] == head), None)


def _swap(base: dict[str, Any], donor: dict[str, Any], key: str) -> dict[str, Any] | None:
    """`base` with clause `key` replaced by, added from, or removed as in `donor`."""
    out = copy.deepcopy(base)
    if key == PLAYERS:
        out["players"] = dict(donor["players"])
        return out
    mine, theirs = _where(out, key), _where(donor, key)
    if mine is None and theirs is None:
        return None
    if theirs is None:
        return _remove(out, mine)
    kind, i, j = theirs
    given = copy.deepcopy(donor[kind][i] if j is None else donor["cards"][i]["rules"][j])
    if theirs[0] == "rules":
        if mine is not None:
            _merge_table(given, out["rules"][mine[1]], donor["players"], out["players"])
        if mine is None:
            out["rules"].append(given)
        else:
            out["rules"][mine[1]] = given
        return out
    if theirs[2] is None:
        if mine is None:
            out["cards"].append(given)
        else:
            out["cards"][mine[1]].update(value=given["value"], count=given["count"])
        return out
    return _put_card_rule(out, donor, theirs, mine, given)


TABLES = ("deck_size", "set_aside", "face_up", "tokens_to_win", "first_turn_draw")
"""General rules given as a player-count table (or a plain number standing for one)."""


def _merge_table(given: dict[str, Any], mine: dict[str, Any], donor_players: dict[str, int],
                 my_players: dict[str, int]) -> None:
    """Make a table rule taken from a donor cover the player counts the base allows and the donor
    does not (they keep the base's own values): within the counts both allow, the merged rule is
    the donor's, which is all a comparison of the two compares."""
    kind = next((k for k in TABLES if k in given), None)
    if kind is None or kind not in mine:
        return
    lo, hi = my_players["min"], my_players["max"]
    outside = [n for n in range(lo, hi + 1) if not donor_players["min"] <= n <= donor_players["max"]]
    if not outside:
        return
    merged = {}
    for n in range(lo, hi + 1):
        source = mine[kind] if n in outside else given[kind]
        value = source if isinstance(source, int) else table_lookup(source, n)
        if value is not None:
            merged[str(n)] = value
    given[kind] = merged


def _remove(out: dict[str, Any], where: tuple[str, int, int | None] | None) -> dict[str, Any] | None:
    if where is None:
        return None
    if where[2] is None:
        del out[where[0]][where[1]]
    else:
        del out["cards"][where[1]]["rules"][where[2]]
    return out


def _put_card_rule(out: dict[str, Any], donor: dict[str, Any], theirs: tuple[str, int, int | None],
                   mine: tuple[str, int, int | None] | None, given: dict[str, Any]) -> dict[str, Any] | None:
    if mine is not None:
        assert mine[2] is not None
        out["cards"][mine[1]]["rules"][mine[2]] = given
        return out
    card = _card_of(out, given["id"])
    if card is None:
        return None
    rules = out["cards"][card].setdefault("rules", [])
    assert theirs[2] is not None
    before = [r["id"] for r in donor["cards"][theirs[1]]["rules"][:theirs[2]]]
    at = max((i + 1 for i, r in enumerate(rules) if r["id"] in before), default=0)
    rules.insert(at, given)
    return out


def _silence(base: dict[str, Any], key: str) -> dict[str, Any] | None:
    """`base` with clause `key` silent (card clauses, the value and count, cannot be)."""
    where = _where(base, key)
    if where is None or (where[0] == "cards" and where[2] is None):
        return None
    out = copy.deepcopy(base)
    out["kind"] = "reading"
    silent = {"id": key, "silent": "silenced by llcheck disputes to find where a game needs it"}
    if where[2] is None:
        out["rules"][where[1]] = silent
    else:
        out["cards"][where[1]]["rules"][where[2]] = silent
    return out


def _restate(base: dict[str, Any], key: str, kind: str, rule: Any) -> dict[str, Any] | None:
    """`base` with general clause `key` stating `rule` (of this kind), whatever it stated."""
    where = _where(base, key)
    if where is None or where[0] != "rules":
        return None
    out = copy.deepcopy(base)
    out["kind"] = "reading"
    out["rules"][where[1]] = {"id": key, kind: rule}
    return out


def _without_parts(base: dict[str, Any], key: str, kind: str, parts: Sequence[str]) -> dict[str, Any] | None:
    """`base` with the parts `parts` left out of the rule (of this kind) of general clause `key`."""
    where = _where(base, key)
    if where is None or where[0] != "rules" or not isinstance(base["rules"][where[1]].get(kind), dict):
        return None
    out = copy.deepcopy(base)
    out["kind"] = "reading"
    rule = out["rules"][where[1]][kind]
    for part in parts:
        rule.pop(part, None)
    return out
