"""The summary a judge reads first: one ruling table per edition, the question index, and every
note of every reading (which is not a rule).

A row per clause of the edition: the question it answers, the edition's rule, and for each
reading of that edition what its rulebook says (*agrees*, linked to its quote on the reading's
page, or a short gloss linked to the verdict on the pair's page) with the verdict against the
edition and a one-line summary of the witness. Rendered
from the stored verdicts (docs/disputes.json) and the spec files they were settled from.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from loveletter_ref.spec import Clause, Edition, load_document, load_spec

from .differences import clause_stance
from .questions import question
from .report import headline
from .sides import PLAYERS

GLOSS = 70
"""Characters of a gloss shown in a table cell (the whole quote is one link away)."""


def anchor(text: str) -> str:
    """An HTML anchor name for a heading."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def verdict_anchor(entry: str, key: str) -> str:
    """The anchor of one clause's verdict in a pair's details."""
    return anchor(f"{entry} {key}")


def clause_anchor(key: str) -> str:
    """The anchor of one clause, with its quotes, on its reading's page."""
    return anchor(f"clause {key}")


Link = Callable[[str, str], str]
"""The link to an entry's page (by entry name), at an anchor there."""


def summary(pairs: dict[str, Any], conventions: dict[str, Any], readings: list[str], link: Link,
            page: Callable[[str], str]) -> list[str]:
    """The ruling tables, then the question index, then the notes. `conventions` holds the
    comparisons of readings filled by table convention where they are silent on it; `link` makes
    the link to a verdict in its entry's page, `page` the link to a reading's page."""
    by_edition: dict[str, list[str]] = {}
    for name in readings:
        described = load_spec(name).describes
        if described:
            by_edition.setdefault(described, []).append(name)
    out = ["## Rulings at a glance\n",
           "One table per edition: a row per clause, the edition's rule, and what each rulebook says "
           "with the verdict against the edition: *agrees* (linked to the rulebook's words), or what "
           "it says, linked to the evidence, and **observable** (with what a table sees in the "
           "witness game), **vacuous** (no game can show it) or **undecided** (the obstacle is in the "
           "evidence). *On its own*: the two always part earlier, so the clause was settled alone "
           "(see the legend at the end). Where a rulebook is silent on what every table does alike "
           "(turn direction, who starts), the strict verdict is followed by the verdict *by "
           "convention*, with the edition's rule there.\n"]
    rows: list[tuple[str, str, str]] = []
    for edition_id, names in sorted(by_edition.items()):
        out += _table(load_spec(edition_id), names, pairs, conventions, rows, link, page)
    out += _index(rows)
    out += _notes(readings)
    return out


def _table(edition: Edition, names: list[str], pairs: dict[str, Any], conventions: dict[str, Any],
           rows: list[tuple[str, str, str]], link: Link, page: Callable[[str], str]) -> list[str]:
    entries = {name: _entries(name, edition.id, pairs) for name in names}
    conventional = {name: (_entries(name, edition.id, conventions), _filled(name, conventions))
                    for name in names}
    keys = [PLAYERS, *(c.key for c in edition.clauses.values())]
    keys += sorted({v["clause"] for found in entries.values() for v, _ in found.values()} - set(keys))
    title = f"{edition.id}, as {len(names)} rulebooks read it"
    out = [f'<a id="{anchor("rulings " + edition.id)}"></a>', f"### {title}\n",
           "| clause | " + " | ".join([edition.id, *names]) + " |", "|---|" + "---|" * (len(names) + 1)]
    for key in keys:
        clause = edition.clause_by_key(key) or next(
            (c for name in names if (c := load_spec(name).clause_by_key(key)) is not None), None)
        kind = PLAYERS if key == PLAYERS else clause.kind if clause is not None else key
        asked = question(kind, clause)
        rows.append((asked, key, anchor("rulings " + edition.id)))
        cells = []
        for name in names:
            reading = load_spec(name)
            where = Where(link, page(name))
            cells.append(_cell(reading, key, entries[name], where)
                         + _by_convention(reading, key, entries[name], *conventional[name], where))
        out.append(f"| `{key}`: {asked} | {_said(edition, key)} | " + " | ".join(cells) + " |")
    return out + [""]


def _entries(reading: str, edition: str, pairs: dict[str, Any]) -> dict[str, tuple[dict[str, Any], str]]:
    """The reading's verdicts against its edition by clause (contradicted clauses: each version,
    keyed `clause#N`), with the entry each comes from."""
    found: dict[str, tuple[dict[str, Any], str]] = {}
    for name, result in pairs.items():
        a, b = result["a"], result["b"]
        if a["spec"] != reading or b["spec"] != edition or b.get("versions"):
            continue
        version = next(iter((a.get("versions") or {}).values()), None)
        for v in result["verdicts"]:
            key = v["clause"] if version is None else f"{v['clause']}#{version}"
            found[key] = (v, name)
        for alike in result["alike"]:
            found.setdefault(alike["clause"], ({"clause": alike["clause"], "status": "alike"}, name))
    return found


def _filled(reading: str, conventions: dict[str, Any]) -> list[str]:
    """The clauses a reading is filled in by convention (none: it has no convention entry)."""
    return next((r["convention"] for r in conventions.values() if r["a"]["spec"] == reading), [])


@dataclass(frozen=True)
class Where:
    """Where a cell's links go: a verdict's entry page (`link`), the reading's own page."""

    link: Link
    reading: str


def _by_convention(reading: Edition, key: str, strict: dict[str, tuple[dict[str, Any], str]],
                   found: dict[str, tuple[dict[str, Any], str]], filled: list[str], where: Where) -> str:
    """The verdict by table convention, where it differs from the strict one."""
    if not filled:
        return ""
    if key in filled:
        return " · by convention: as the edition"
    before, after = strict.get(key), found.get(key)
    if (before and before[0]["status"]) == (after and after[0]["status"]):
        return ""
    return (f" · by convention ({' and '.join(filled)} as the edition): "
            f"{_ruling(reading, key, after, (), where)}")


def _said(spec: Edition, key: str) -> str:
    """What a spec states on a clause, in one line."""
    if key == PLAYERS:
        return f"{spec.min_players}-{spec.max_players} players"
    stance = clause_stance(spec, key)
    if stance.kind == "card" and stance.card is not None:
        return card_text(stance.card.value, stance.rule["count"])
    return f"`{_cut(stance.text())}`"


def card_text(value: int, counts: dict[str, int]) -> str:
    """A card's value and count in words: "value 5, 2 copies" (by player count where it varies)."""
    if len(set(counts.values())) == 1:
        many = next(iter(counts.values()))
        return f"value {value}, {many} {'copy' if many == 1 else 'copies'}"
    runs: list[tuple[int, int, int]] = []
    for players, many in sorted((int(k), v) for k, v in counts.items()):
        if runs and runs[-1][2] == many and runs[-1][1] == players - 1:
            runs[-1] = (runs[-1][0], players, many)
        else:
            runs.append((players, players, many))
    told = ", ".join(f"{lo}{'-' + str(hi) if hi != lo else ''} players: {many}" for lo, hi, many in runs)
    return f"value {value}, copies by player count ({told})"


def _cell(reading: Edition, key: str, found: dict[str, tuple[dict[str, Any], str]], where: Where) -> str:
    clause = reading.clause_by_key(key)
    versions_of = clause.versions if clause is not None else ()
    versions = len(versions_of)
    if versions > 1:
        parts = []
        for n in range(1, versions + 1):
            item = found.get(key) if n == 1 else found.get(f"{key}#{n}")
            parts.append(f"v{n}: {_ruling(reading, key, item, versions_of[n - 1].sources, where)}")
        return "contradicts itself: " + "; ".join(parts)
    return _ruling(reading, key, found.get(key), clause.sources if clause is not None else (), where)


def _ruling(reading: Edition, key: str, item: tuple[dict[str, Any], str] | None, sources: Any,
            where: Where) -> str:
    gloss = _gloss(sources)
    if key == PLAYERS:
        gloss = f"{reading.min_players}-{reading.max_players} players"
    clause = reading.clause_by_key(key)
    quoted = f"{where.reading}#{clause_anchor(key)}"
    if item is None:
        if clause is None and key != PLAYERS:
            return "—"
        return "agrees" if key == PLAYERS else f"[agrees]({quoted})"
    verdict, entry = item
    if verdict["status"] == "alike":
        return f"[agrees (other words)]({quoted})"
    said = "silent" if clause is not None and clause.silent else gloss or _cut(verdict["a"]["rule"])
    if clause is None and key != PLAYERS:
        said = "no such rule"
    link = f"[{said}]({where.link(entry, verdict_anchor(entry, key))})"
    text = f"{link}: **{headline(verdict)}**"
    witness = verdict.get("witness") or (verdict.get("alone") or {}).get("witness")
    if witness is not None:
        text += f": {_seen(witness['story'])}"
    if "depends on the partner" in verdict.get("reason", ""):
        text += " (depends on the partner)"
    return text


def _gloss(sources: Any) -> str:
    glosses = [s.gloss or s.quote for s in sources]
    return _cut(glosses[0]) if glosses else ""


def _seen(story: str) -> str:
    """What a table sees at the end of a witness: its story's last sentence."""
    last = story.rsplit(". So ", 1)[-1] if ". So " in story else story.rsplit(". ", 1)[-1]
    return _cut(last.rstrip("."))


def _cut(text: str) -> str:
    text = " ".join(text.split()).replace("|", "\\|")
    return text if len(text) <= GLOSS else text[:GLOSS - 1].rstrip() + "…"


def _index(rows: list[tuple[str, str, str]]) -> list[str]:
    """Every question once, in plain words, with the clause and table that rule on it."""
    seen: dict[str, list[str]] = {}
    for asked, key, where in rows:
        seen.setdefault(asked, [])
        link = f"[`{key}`](#{where})"
        if link not in seen[asked]:
            seen[asked].append(link)
    out = ["## Question index\n"]
    out += [f"- {asked} {', '.join(links)}" for asked, links in sorted(seen.items())]
    return out + [""]


def _notes(readings: list[str]) -> list[str]:
    """Every note of every reading: what its reader says about the rulebook, which is not a rule."""
    out = ["## Notes of the readings (not rules)\n",
           "What each reader noted beside the rules: none of it is a rule the engine plays. A note on "
           "a clause comes with that clause's quote.\n"]
    for name in readings:
        spec = load_spec(name)
        whole = load_document(name)[1].get("note")
        notes: list[tuple[Clause | None, str]] = [(None, whole)] if whole else []
        notes += [(c, c.note) for c in spec.clauses.values() if c.note]
        notes += [(v, v.note) for c in spec.clauses.values() for v in c.versions
                  if v.note and v.note != c.note]
        if not notes:
            continue
        out.append(f"**{name}**\n")
        for clause, note in notes:
            where = "the whole rulebook" if clause is None else f"`{clause.key}`"
            quote = "" if clause is None or not clause.sources else \
                f" Quote: «{_flat(clause.sources[0].quote)}»"
            out.append(f"- not a rule, on {where}: {_flat(note)}{quote}")
        out.append("")
    return out


def _flat(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")
