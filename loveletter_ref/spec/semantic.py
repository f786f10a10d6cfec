"""Checks a schema cannot express: counts that add up, names that exist, complete rule sets."""

from __future__ import annotations

import re
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

from ..errors import Problem, SpecError, with_article
from .model import (
    GENERAL_KINDS,
    MODIFIER_OF,
    OPTIONAL_GENERAL_KINDS,
    PROPERTY_KINDS,
    REQUIRED_MODIFIERS,
    STEP_KINDS,
    Edition,
    table_lookup,
)
from .yamlsafe import Missing, Pointer, Positions, Refused, confined, decode, locate, read_regular

MAX_RULEBOOK_BYTES = 1_000_000
"""Largest rulebook file a quote is checked against (the shared ones are under 10 kB)."""

CARD_KINDS = STEP_KINDS + tuple(MODIFIER_OF) + PROPERTY_KINDS
ALL_GENERAL_KINDS = GENERAL_KINDS + OPTIONAL_GENERAL_KINDS

Found = tuple[Pointer, str]
KindOf = Callable[[str], str | None]


def rule_kinds(raw: dict[str, Any], vocabulary: tuple[str, ...]) -> list[str]:
    """The vocabulary words used as fields of a clause or version."""
    return [key for key in raw if key in vocabulary]


def semantic_problems(data: dict[str, Any], positions: Positions, file: str,
                      rulebooks: tuple[Path, ...] = (),
                      kind_of: KindOf | None = None,
                      described: Edition | None = None) -> list[Problem]:
    """Every semantic problem of a schema-valid spec, located.

    `kind_of` maps a clause key to its rule kind in the edition a reading describes; it is how
    a silent clause says what it is silent about. `described` is that edition: a reading must
    address each of its clauses and mark the clauses it adds `novel`.
    """
    checks = _Checks(data, positions, rulebooks, kind_of or (lambda key: None), described)
    found = []
    for pointer, message in checks.run():
        line, col = locate(positions, pointer)
        found.append(Problem(file, line, col, message))
    return sorted(set(found), key=lambda p: (p.line, p.col, p.message))


class _Checks:
    """One pass over a spec; `run` yields (pointer, message) for each problem."""

    def __init__(self, data: dict[str, Any], positions: Positions, rulebooks: tuple[Path, ...],
                 kind_of: KindOf, described: Edition | None):
        self.data = data
        self.positions = positions
        self.reading = data["kind"] == "reading"
        self.rulebooks = rulebooks
        self.kind_of = kind_of
        self.described = described if self.reading else None
        self.names = {card["name"] for card in data["cards"]}
        self.lo, self.hi = data["players"]["min"], data["players"]["max"]
        self._lines: dict[str, list[str] | str] = {}

    def line(self, pointer: Pointer) -> int:
        """The line a pointer's value starts on."""
        return locate(self.positions, pointer)[0]

    def run(self) -> Iterator[Found]:
        yield from self._header()
        yield from self._cards()
        yield from self._general()
        yield from self._ids()
        yield from self._against_edition()
        yield from self._counts()
        yield from self._sources()

    # -- header ------------------------------------------------------------------------------

    def _header(self) -> Iterator[Found]:
        if self.lo > self.hi:
            yield ("players",), f"players: min {self.lo} is greater than max {self.hi}"
        if self.reading:
            for key in ("describes", "rulebook"):
                if key not in self.data:
                    yield (), f"a reading must say which {key.replace('describes', 'edition it describes')}" \
                              f" ({key!r})"
            if self.data.get("rulebook") and self.data["rulebook"] not in self.data["sources"]:
                yield ("rulebook",), f"rulebook {self.data['rulebook']!r} is not declared in sources"
        else:
            for key in ("describes", "rulebook"):
                if key in self.data:
                    yield (key,), f"{key!r} belongs to readings, not editions"

    # -- cards -------------------------------------------------------------------------------

    def _cards(self) -> Iterator[Found]:
        seen_names: dict[str, Pointer] = {}
        seen_values: dict[int, str] = {}
        for i, card in enumerate(self.data["cards"]):
            at = ("cards", i)
            name = card["name"]
            if "novel" in card and not self.reading:
                yield at + ("novel",), "'novel' is for readings; an edition states every card"
            if name in seen_names:
                yield at + ("name",), f"duplicate card {name!r} (also line {self.line(seen_names[name])})"
            seen_names.setdefault(name, at)
            value = card["value"]
            if value in seen_values and not self.data.get("shared_values"):
                yield at + ("value",), (f"{name} has value {value}, like {seen_values[value]}; "
                                        "set shared_values: true if the edition means it")
            seen_values.setdefault(value, name)
            yield from self._card_rules(card, at)
            if isinstance(card["count"], dict):
                yield from self._table(card["count"], at + ("count",), f"{name} count")

    def _card_rules(self, card: dict[str, Any], at: Pointer) -> Iterator[Found]:
        last_steps: list[str] = []
        properties: set[str] = set()
        for j, clause in enumerate(card.get("rules", [])):
            where = at + ("rules", j)
            if not clause["id"].startswith(card["id"] + "."):
                yield where + ("id",), (f"clause id {clause['id']!r} must start with the card's id "
                                        f"{card['id'] + '.'!r}")
            kind = yield from self._one_rule(clause, where, CARD_KINDS)
            if kind is None:
                continue
            for version in self._rule_bodies(clause):
                yield from self._card_names(version, where)
                limit = version.get("out_if_hand_total")
                if isinstance(limit, int) and limit <= card["value"]:
                    yield where + ("out_if_hand_total",), (
                        f"out_if_hand_total {limit} must be above {card['name']}'s own value "
                        f"{card['value']} (held alone, it would knock its holder out)")
            if kind in STEP_KINDS:
                last_steps.append(kind)
                need = REQUIRED_MODIFIERS.get(kind, ())
                yield from self._modifiers_present(card, j, need, where)
            elif kind in MODIFIER_OF:
                if not any(step in MODIFIER_OF[kind] for step in last_steps):
                    targets = " or ".join(MODIFIER_OF[kind])
                    yield where, f"{kind} must follow {with_article(targets)} rule of the same card"
            elif kind in properties:
                yield where, f"{card['name']} has {kind} twice"
            properties.add(kind)

    def _modifiers_present(self, card: dict[str, Any], index: int, need: tuple[str, ...],
                           where: Pointer) -> Iterator[Found]:
        later = [self._kind(rule) for rule in card.get("rules", [])[index + 1:]]
        for modifier in need:
            if modifier not in later:
                verb = "state it or mark it silent" if self.reading else "state it"
                yield where, (f"{card['name']}: {self._kind_word(where)} needs {with_article(modifier)} rule "
                              f"({verb})")

    def _kind_word(self, where: Pointer) -> str:
        card = self.data["cards"][where[1]]
        return self._kind(card["rules"][where[3]]) or "rule"

    def _card_names(self, body: dict[str, Any], where: Pointer) -> Iterator[Found]:
        named: list[tuple[Pointer, str]] = []
        if "forced_with" in body:
            named += [(("forced_with", k), n) for k, n in enumerate(body["forced_with"])]
        if "guess" in body:
            named += [(("guess", "exclude", k), n) for k, n in enumerate(body["guess"].get("exclude", []))]
        if "counter" in body:
            named += [(("counter", "against", k), n) for k, n in enumerate(body["counter"]["against"])]
        if "loses_at_showdown_to" in body:
            named += [(("loses_at_showdown_to", k), n) for k, n in enumerate(body["loses_at_showdown_to"])]
        for rel, name in named:
            if name not in self.names:
                yield where + rel, f"no card named {name!r} in this spec"

    # -- general rules -----------------------------------------------------------------------

    def _general(self) -> Iterator[Found]:
        seen: dict[str, int] = {}
        rules = self.data["rules"]
        for i, clause in enumerate(rules):
            where = ("rules", i)
            kind = yield from self._one_rule(clause, where, ALL_GENERAL_KINDS)
            if kind is None:
                continue
            if kind in seen:
                first = seen[kind]
                yield where, (f"{kind} is stated twice (also by clause {rules[first]['id']!r}, "
                              f"line {self.line(('rules', first))})")
            seen.setdefault(kind, i)
            for body in self._rule_bodies(clause):
                if kind in body:
                    yield from self._general_values(kind, body, where)
        for kind in GENERAL_KINDS:
            if kind not in seen:
                yield ("rules",), f"no {kind} rule ({self._state_it(kind)})"

    def _state_it(self, kind: str) -> str:
        """What to do about a missing rule of this kind."""
        if not self.reading:
            return "state it"
        edition = self.described
        if edition is None or kind not in edition.general:
            return "state it or mark it silent"
        return f"state {edition.id}'s clause {edition.general[kind].key!r} or mark it silent"

    def _general_values(self, kind: str, body: dict[str, Any], where: Pointer) -> Iterator[Found]:
        value = body[kind]
        if isinstance(value, dict) and kind in ("face_up", "tokens_to_win", "deck_size", "set_aside"):
            yield from self._table(value, where + (kind,), kind)
        if isinstance(value, dict) and kind in ("tokens_to_win", "set_aside"):
            missing = [n for n in range(self.lo, self.hi + 1) if table_lookup(value, n) is None]
            if missing:
                word = "target" if kind == "tokens_to_win" else "value"
                yield where + (kind,), f"{kind} has no {word} for {_player_counts(missing)} players"
        if kind == "next_first" and not self.reading:
            for case, what in (("several", "several players"), ("none", "nobody")):
                if case not in value:
                    yield where + (kind,), (f"next_first: say who starts after a round won by {what} "
                                            f"({case!r})")
        if kind == "tie":
            terminal = [i for i, step in enumerate(value) if step in ("all_win", "nobody")]
            if terminal and terminal[0] != len(value) - 1:
                yield where + (kind,), f"tie: {value[terminal[0]]!r} ends the chain; nothing may follow it"
            if not terminal and not self.reading:
                yield where + (kind,), "tie: the chain must end with all_win or nobody"

    def _table(self, table: dict[str, int], where: Pointer, what: str) -> Iterator[Found]:
        covered: dict[int, str] = {}
        for key in table:
            lo, _, hi = key.partition("-")
            first, last = int(lo), int(hi or lo)
            if first > last:
                yield where + (key,), f"{what}: player range {key!r} is empty"
            for n in range(first, last + 1):
                if n < self.lo or n > self.hi:
                    yield where + (key,), (f"{what}: {n} players is outside this spec's "
                                           f"{self.lo}-{self.hi}")
                    break
                if n in covered:
                    yield where + (key,), f"{what}: {n} players is covered by {covered[n]!r} and {key!r}"
                    break
                covered[n] = key

    # -- clauses -----------------------------------------------------------------------------

    def _one_rule(self, clause: dict[str, Any], where: Pointer,
                  vocabulary: tuple[str, ...]) -> Generator[Found, None, str | None]:
        """Check that a clause holds exactly one rule (or is silent); return its kind."""
        kinds = rule_kinds(clause, vocabulary)
        yield from self._reading_keys(clause, where)
        if "silent" in clause:
            if kinds or "versions" in clause:
                yield where, f"clause {clause['id']!r} is silent but also states a rule"
                return None
            kind = self.kind_of(clause["id"])
            if kind is None and self.reading:
                yield where + ("id",), (f"silent clause {clause['id']!r}: the described edition has no "
                                        "clause with this id, so what is left open is unclear")
            return kind
        if "versions" in clause:
            if kinds:
                yield where, f"clause {clause['id']!r} has versions and also a rule of its own"
                return None
            return (yield from self._versions_kind(clause, where, vocabulary))
        if len(kinds) != 1:
            yield where, _count_message(clause["id"], kinds, vocabulary)
            return None
        if "source" not in clause:
            yield where, f"clause {clause['id']!r} cites no source"
        return kinds[0]

    def _reading_keys(self, clause: dict[str, Any], where: Pointer) -> Iterator[Found]:
        """The reading-only keys of a clause: none in an edition, each with its partner in a reading."""
        if not self.reading:
            for key in ("silent", "versions", "novel", "contradiction"):
                if key in clause:
                    yield where + (key,), f"{key!r} is for readings; an edition states every rule"
        elif "versions" in clause and not clause.get("contradiction", "").strip():
            yield where + ("versions",), (f"clause {clause['id']!r} has versions but no contradiction: "
                                          "say what in the rulebook contradicts what")
        elif "contradiction" in clause and "versions" not in clause:
            yield where + ("contradiction",), (f"clause {clause['id']!r} states a contradiction but no "
                                               "versions (one per reading of the rulebook)")

    def _versions_kind(self, clause: dict[str, Any], where: Pointer,
                       vocabulary: tuple[str, ...]) -> Generator[Found, None, str | None]:
        """Check that each version of a contradicted clause holds one rule, all of one kind; return it."""
        found = set()
        for k, version in enumerate(clause["versions"]):
            vkinds = rule_kinds(version, vocabulary)
            if len(vkinds) > 1 or (not vkinds and "silent" not in version):
                yield where + ("versions", k), _count_message(clause["id"], vkinds, vocabulary)
            found.update(vkinds)
        if len(found) != 1:
            yield where + ("versions",), f"the versions of {clause['id']!r} must use the same rule"
            return None
        return found.pop()

    def _rule_bodies(self, clause: dict[str, Any]) -> list[dict[str, Any]]:
        return list(clause["versions"]) if "versions" in clause else [clause]

    def _kind(self, clause: dict[str, Any], vocabulary: tuple[str, ...] = CARD_KINDS) -> str | None:
        for body in self._rule_bodies(clause):
            kinds = rule_kinds(body, vocabulary)
            if kinds:
                return kinds[0]
        return self.kind_of(clause["id"]) if "silent" in clause else None

    def _ids(self) -> Iterator[Found]:
        seen: dict[str, Pointer] = {}
        entries: list[tuple[Pointer, str]] = []
        for i, card in enumerate(self.data["cards"]):
            entries.append((("cards", i, "id"), card["id"]))
            rules = card.get("rules", [])
            entries += [(("cards", i, "rules", j, "id"), c["id"]) for j, c in enumerate(rules)]
        entries += [(("rules", i, "id"), c["id"]) for i, c in enumerate(self.data["rules"])]
        for pointer, key in entries:
            if key in seen:
                yield pointer, f"duplicate clause id {key!r} (also line {self.line(seen[key])})"
            seen.setdefault(key, pointer)

    # -- readings against the edition they describe ------------------------------------------

    def _against_edition(self) -> Iterator[Found]:
        """A reading addresses every clause of its edition and marks the clauses it adds novel."""
        edition = self.described
        if edition is None:
            return
        theirs = {clause.key for clause in edition.clauses.values()}
        new_cards = set()
        for i, card in enumerate(self.data["cards"]):
            if card["id"] in theirs:
                continue
            if card.get("novel"):
                new_cards.add(i)
            else:
                yield ("cards", i, "id"), (f"card {card['name']!r} ({card['id']!r}) is not in {edition.id}; "
                                           "mark it `novel: true` if the rulebook adds it")
        default = edition.general.get("no_valid_target")
        for pointer, clause in self._rule_clauses():
            key = clause["id"]
            if key in theirs or "silent" in clause or _novel(clause) or (pointer[0] == "cards"
                                                                         and pointer[1] in new_cards):
                continue
            if default is not None and clause.get("no_target") == default.rule:
                continue  # spells out, for one card, the edition's general default
            yield pointer + ("id",), (f"clause {key!r} is not in {edition.id}; mark it `novel: true` "
                                      "if the rulebook adds it")
        yield from self._missing_card_clauses(edition)
        stated = {self._kind(clause, ALL_GENERAL_KINDS) for clause in self.data["rules"]}
        mine = {clause["id"] for clause in self.data["rules"]}
        for general in edition.general.values():
            if general.key not in mine and (general.kind in stated or general.kind not in GENERAL_KINDS):
                yield ("rules",), (f"no clause {general.key!r} ({edition.id}'s {general.kind} rule); "
                                   "state it or mark it silent")

    def _missing_card_clauses(self, edition: Edition) -> Iterator[Found]:
        mine = {card["id"]: i for i, card in enumerate(self.data["cards"])}
        for card in edition.cards:
            if card.clause.key not in mine:
                continue
            i = mine[card.clause.key]
            raw = self.data["cards"][i]
            rules = raw.get("rules", [])
            ids = {rule["id"] for rule in rules}
            kinds = {self._kind(rule) for rule in rules}
            for clause in edition.clauses.values():
                if clause.card != card.name or clause.kind == "card" or clause.key in ids:
                    continue
                if clause.kind not in kinds and any(clause.kind in REQUIRED_MODIFIERS.get(step or "", ())
                                                    for step in kinds):
                    continue  # reported as a modifier its step needs
                at = ("cards", i, "rules") if "rules" in raw else ("cards", i)
                yield at, (f"{raw['name']} has no clause {clause.key!r} ({edition.id}'s {clause.kind} "
                           "rule); state it or mark it silent")

    def _rule_clauses(self) -> Iterator[tuple[Pointer, dict[str, Any]]]:
        for i, card in enumerate(self.data["cards"]):
            for j, clause in enumerate(card.get("rules", [])):
                yield ("cards", i, "rules", j), clause
        for i, clause in enumerate(self.data["rules"]):
            yield ("rules", i), clause

    # -- counts ------------------------------------------------------------------------------

    def _counts(self) -> Iterator[Found]:
        """Card counts against deck_size, one line per fault with the player counts it holds for."""
        rules = {kind: c for c in self.data["rules"] for kind in rule_kinds(c, ALL_GENERAL_KINDS)}
        size_rule = rules.get("deck_size")
        if not size_rule or "deck_size" not in size_rule:
            return
        where = ("rules", self.data["rules"].index(size_rule), "deck_size")
        faults: dict[tuple[Any, ...], list[int]] = {}
        for n in range(self.lo, self.hi + 1):
            fault = self._count_fault(rules, size_rule["deck_size"], n)
            if fault is not None:
                faults.setdefault(fault, []).append(n)
        for fault, players in faults.items():
            yield where, _count_fault_message(fault, players)

    def _count_fault(self, rules: dict[str, Any], size: int | dict[str, int],
                     n: int) -> tuple[Any, ...] | None:
        """What is wrong with the deck for `n` players, as the facts the message states, without `n`."""
        expected = size if isinstance(size, int) else table_lookup(size, n)
        if expected is None:
            return ("unsized",)
        total = sum(_card_count(card, n) for card in self.data["cards"])
        if total != expected:
            detail = ", ".join(f"{c['name']} {_card_count(c, n)}" for c in self.data["cards"])
            return ("sum", total, expected, detail)
        kept = _plain(rules.get("set_aside"), "set_aside", n) + _plain(rules.get("face_up"), "face_up", n)
        return ("short", total, kept) if n + 1 + kept > total else None

    # -- sources -----------------------------------------------------------------------------

    def _sources(self) -> Iterator[Found]:
        declared = self.data["sources"]
        unreadable: set[str] = set()
        for pointer, source in self._all_sources():
            doc = source["doc"]
            if doc not in declared:
                yield pointer + ("doc",), f"source document {doc!r} is not declared in sources"
                continue
            file = declared[doc].get("file")
            if not file or source.get("paraphrase") or not self.rulebooks:
                continue
            lines = self._rulebook(self.rulebooks, file)
            if isinstance(lines, str):
                if lines not in unreadable:  # once per file, or once for a missing folder
                    unreadable.add(lines)
                    yield ("sources", doc, "file"), lines
                continue
            line = source.get("line")
            if line is not None and not 1 <= line <= len(lines):
                yield pointer + ("line",), f"{file} has {len(lines)} lines, not {line}"
                continue
            haystack = _squash(lines[line - 1] if line else "\n".join(lines))
            if _squash(source["quote"]) not in haystack:
                where = f"{file}:{line}" if line else file
                yield pointer + ("quote",), f"quote not found in {where}: {source['quote'][:60]!r}"

    def _all_sources(self) -> Iterator[tuple[Pointer, dict[str, Any]]]:
        def expand(source: Any, at: Pointer) -> Iterator[tuple[Pointer, dict[str, Any]]]:
            if isinstance(source, list):
                for k, item in enumerate(source):
                    yield at + (k,), item
            elif source is not None:
                yield at, source

        def clause_sources(clause: dict[str, Any], at: Pointer) -> Iterator[tuple[Pointer, dict[str, Any]]]:
            yield from expand(clause.get("source"), at + ("source",))
            for k, version in enumerate(clause.get("versions", [])):
                yield from expand(version.get("source"), at + ("versions", k, "source"))

        for i, card in enumerate(self.data["cards"]):
            yield from clause_sources(card, ("cards", i))
            for j, clause in enumerate(card.get("rules", [])):
                yield from clause_sources(clause, ("cards", i, "rules", j))
        for i, clause in enumerate(self.data["rules"]):
            yield from clause_sources(clause, ("rules", i))

    def _rulebook(self, folders: tuple[Path, ...], file: str) -> list[str] | str:
        """The lines of a rulebook file, or why it cannot be read."""
        if file not in self._lines:
            self._lines[file] = _read_rulebook(folders, file)
        return self._lines[file]


def _read_rulebook(folders: tuple[Path, ...], file: str) -> list[str] | str:
    """The lines of `file` in the first of `folders` that holds it, or why they cannot be read (the
    same words for every file of a missing folder). Only a regular file inside the folders, symlinks
    followed, is ever opened, and the words never tell anything of another file."""
    missing = [folder for folder in folders if not folder.is_dir()]
    if missing:
        return (f"rulebooks folder {missing[0]} does not exist (LLCHECK_RULEBOOKS must name the folders "
                "that hold the rulebook files)")
    for folder in folders:
        try:
            path = confined(folder, file, folders, MAX_RULEBOOK_BYTES, "rulebook file",
                            f"the rulebook folders ({', '.join(map(str, folders))})")
            return decode(read_regular(path, MAX_RULEBOOK_BYTES), str(path)).split("\n")
        except Missing:
            continue
        except Refused as exc:
            return str(exc)
        except SpecError as exc:
            return f"rulebook file {file!r} cannot be read: {exc.problems[0].message}"
        except OSError as exc:
            return f"rulebook file {file!r} cannot be read: {exc.strerror or exc}"
    return (f"rulebook file {file!r} is not in {' or '.join(map(str, folders))} (add the folder that "
            "holds it to LLCHECK_RULEBOOKS, or mark the quotes as paraphrases)")


def _novel(clause: dict[str, Any]) -> bool:
    """Marked `novel`, as a whole or in every version."""
    versions = clause.get("versions", [])
    return bool(clause.get("novel")) or (bool(versions) and all(v.get("novel") for v in versions))


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _card_count(card: dict[str, Any], players: int) -> int:
    count = card["count"]
    return count if isinstance(count, int) else (table_lookup(count, players) or 0)


def _plain(clause: dict[str, Any] | None, kind: str, players: int) -> int:
    if not clause or kind not in clause:
        return 0
    value = clause[kind]
    return value if isinstance(value, int) else (table_lookup(value, players) or 0)


def _count_fault_message(fault: tuple[Any, ...], players: list[int]) -> str:
    """The one line for a deck fault that holds for these player counts."""
    counts = _player_counts(players)
    if fault[0] == "unsized":
        return f"deck_size gives no size for {counts} players"
    if fault[0] == "sum":
        _, total, expected, detail = fault
        return f"card counts add up to {total} for {counts} players, not the deck_size {expected} ({detail})"
    _, total, kept = fault
    needs = "/".join(str(n + 1 + kept) for n in players)
    return (f"{counts} players need at least {needs} cards (set aside, face up, one each and one to draw) "
            f"but the deck has {total}")


def _player_counts(numbers: list[int]) -> str:
    """Player counts, runs of consecutive ones as ranges: 2-4, 6."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]) for run in runs)


def _count_message(clause_id: str, kinds: list[str], vocabulary: tuple[str, ...]) -> str:
    if kinds:
        listed = ", ".join(kinds)
        return f"clause {clause_id!r} states {len(kinds)} rules ({listed}); give each its own clause"
    return f"clause {clause_id!r} states no rule (expected one of: {', '.join(vocabulary)})"
