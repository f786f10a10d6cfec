"""Turn validated spec data into the immutable tables of `model`."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .model import MODIFIER_OF, PROPERTY_KINDS, STEP_KINDS, Card, Clause, ClauseStatus, Edition, Source, Step
from .semantic import ALL_GENERAL_KINDS, CARD_KINDS, KindOf, rule_kinds
from .yamlsafe import Pointer, Positions, locate


class _Compiler:
    """Builds clauses, cards and the edition from one spec document."""

    def __init__(self, data: dict[str, Any], positions: Positions, path: Path | None,
                 choices: Mapping[str, int], kind_of: KindOf):
        self.data = data
        self.positions = positions
        self.file = str(path) if path else "<memory>"
        self.path = path
        self.choices = choices
        self.kind_of = kind_of
        self.prefix = data["prefix"]

    def sources(self, raw: Any) -> tuple[Source, ...]:
        items = raw if isinstance(raw, list) else [raw] if raw else []
        docs = self.data["sources"]
        return tuple(
            Source(doc=s["doc"], quote=s["quote"], line=s.get("line"), gloss=s.get("gloss"),
                   paraphrase=s.get("paraphrase", False), file=docs.get(s["doc"], {}).get("file"))
            for s in items)

    def clause(self, raw: dict[str, Any], at: Pointer, vocabulary: tuple[str, ...],
               card: str | None = None) -> Clause:
        key = raw["id"]
        line, col = locate(self.positions, at)
        common = dict(id=f"{self.prefix}.{key}", key=key, card=card, note=raw.get("note"),
                      where=(self.file, line, col), novel=raw.get("novel", False))
        if "versions" in raw:
            versions = tuple(self._body(v, vocabulary, {**common, "novel": v.get("novel", common["novel"])},
                                        ClauseStatus.CONTRADICTED, index=k)
                             for k, v in enumerate(raw["versions"]))
            chosen = versions[self.choices.get(key, 0)]
            return Clause(**{**chosen.__dict__, "versions": versions,
                             "silence": raw.get("contradiction") or chosen.silence})
        status = ClauseStatus.CHOICE if raw.get("choice") else ClauseStatus.STATED
        clause = self._body(raw, vocabulary, common, status)
        return Clause(**{**clause.__dict__, "choice": raw.get("choice")})

    def _body(self, raw: dict[str, Any], vocabulary: tuple[str, ...], common: dict[str, Any],
              status: ClauseStatus, index: int | None = None) -> Clause:
        kinds = rule_kinds(raw, vocabulary)
        if "silent" in raw or not kinds:
            kind = self.kind_of(common["key"]) or "unknown"
            return Clause(**common, kind=kind, rule=None, sources=self.sources(raw.get("source")),
                          status=ClauseStatus.SILENT, silence=raw.get("silent"), version=index)
        kind = kinds[0]
        return Clause(**common, kind=kind, rule=raw[kind], sources=self.sources(raw.get("source")),
                      status=status, version=index)

    def card(self, index: int, raw: dict[str, Any]) -> tuple[Card, list[Clause]]:
        at: Pointer = ("cards", index)
        name = raw["name"]
        line, col = locate(self.positions, at)
        card_clause = Clause(id=f"{self.prefix}.{raw['id']}", key=raw["id"], kind="card",
                             rule={"value": raw["value"], "count": raw["count"]},
                             sources=self.sources(raw.get("source")), status=ClauseStatus.STATED,
                             where=(self.file, line, col), card=name, note=raw.get("note"),
                             novel=raw.get("novel", False))
        novel = raw.get("novel", False)  # a novel card's rules are novel too
        clauses = [self.clause({"novel": True, **r} if novel else r, at + ("rules", j), CARD_KINDS, card=name)
                   for j, r in enumerate(raw.get("rules", []))]
        steps: list[tuple[str, Clause, dict[str, Clause]]] = []
        props: dict[str, Clause] = {}
        for clause in clauses:
            if clause.kind in STEP_KINDS:
                steps.append((clause.kind, clause, {}))
            elif clause.kind in MODIFIER_OF:
                for kind, _, modifiers in reversed(steps):
                    if kind in MODIFIER_OF[clause.kind]:
                        modifiers[clause.kind] = clause
                        break
            elif clause.kind in PROPERTY_KINDS:
                props[clause.kind] = clause
        card = Card(
            index=index, name=name, value=raw["value"], clause=card_clause,
            counts=_counts(raw["count"], self.data["players"]),
            steps=tuple(Step(kind, clause, modifiers) for kind, clause, modifiers in steps),
            forced=props.get("forced_with"), discard_out=props.get("out_if_discarded"),
            bonus=props.get("bonus_token"), counter=props.get("counter"),
            showdown_bonus=props.get("showdown_bonus"),
            eliminated_token=props.get("token_if_eliminated"),
            loses_clause=props.get("loses_at_showdown_to"), hand_limit=props.get("out_if_hand_total"),
            local_name=raw.get("local_name"),
        )
        return card, [card_clause] + clauses

    def edition(self) -> Edition:
        names = [card["name"] for card in self.data["cards"]]
        cards: list[Card] = []
        clauses: dict[str, Clause] = {}
        for i, raw in enumerate(self.data["cards"]):
            card, owned = self.card(i, raw)
            cards.append(_with_card_sets(card, names))
            clauses.update((c.id, c) for c in owned)
        general = {}
        for i, raw in enumerate(self.data["rules"]):
            clause = self.clause(raw, ("rules", i), ALL_GENERAL_KINDS)
            clauses[clause.id] = clause
            general[clause.kind] = clause
        players = self.data["players"]
        return Edition(
            kind=self.data["kind"], id=self.data["id"], prefix=self.prefix, title=self.data["title"],
            path=self.path, min_players=players["min"], max_players=players["max"],
            cards=tuple(cards), clauses=clauses, general=general,
            describes=self.data.get("describes"), sources=self.data["sources"],
        )


def _with_card_sets(card: Card, names: list[str]) -> Card:
    """Resolve the card names a card's properties refer to into card ids."""
    def ids(clause: Clause | None, field: str | None = None) -> frozenset[int]:
        if clause is None or clause.silent:
            return frozenset()
        listed = clause.rule[field] if field else clause.rule
        return frozenset(names.index(name) for name in listed)

    return Card(**{**card.__dict__, "forced_with": ids(card.forced),
                   "counters": ids(card.counter, "against"), "loses_to": ids(card.loses_clause)})


def _counts(raw: int | dict[str, int], players: dict[str, int]) -> tuple[tuple[int, int, int], ...]:
    if isinstance(raw, int):
        return ((players["min"], players["max"], raw),)
    out = []
    for key, count in raw.items():
        lo, _, hi = key.partition("-")
        out.append((int(lo), int(hi or lo), count))
    return tuple(out)


def compile_spec(data: dict[str, Any], positions: Positions, path: Path | None,
                 choices: Mapping[str, int] | None = None, kind_of: KindOf | None = None) -> Edition:
    """Compile validated spec data; `choices` selects a version (by index) of contradicted clauses."""
    return _Compiler(data, positions, path, choices or {}, kind_of or (lambda key: None)).edition()
