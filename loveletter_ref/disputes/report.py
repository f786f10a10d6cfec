"""Verdicts as data (JSON-ready dicts) and as text for the terminal.

The JSON form is what `llcheck disputes --json` prints and what `docs/disputes.json` keeps;
the text and the Markdown of `docs/disputes.md` are both rendered from it.
"""

from __future__ import annotations

import json
from typing import Any

from loveletter_ref.plural import counted
from loveletter_ref.spec import Clause, Source

from .differences import Difference, Stance, alike_reason, clause_stance
from .settle import Comparison, Ruling
from .sides import Side, open_side, side_of
from .story import gap_story, story
from .witness import Witness, replay_looks


def source_json(source: Source) -> dict[str, Any]:
    """One cited source."""
    out: dict[str, Any] = {"doc": source.doc, "quote": source.quote}
    if source.file:
        out["file"] = source.file
    if source.line:
        out["line"] = source.line
    if source.gloss:
        out["gloss"] = source.gloss
    if source.paraphrase:
        out["paraphrase"] = True
    return out


def stance_json(stance: Stance, side: Side) -> dict[str, Any]:
    """What one spec says on a disputed clause, with its sources."""
    out: dict[str, Any] = {"spec": side.label, "rule": stance.text(), "status": stance.status}
    clause = stance.clause
    if stance.status == "fallback" and clause is not None:
        out["general"] = clause.key
    if clause is not None:
        out.update(_clause_json(clause))
    return out


def _clause_json(clause: Clause) -> dict[str, Any]:
    out: dict[str, Any] = {"sources": [source_json(s) for s in clause.sources]}
    if clause.silent and clause.silence:
        out["silence"] = clause.silence
    if clause.novel:
        out["novel"] = True
    if clause.note:
        out["note"] = clause.note
    if clause.choice:
        out["choice"] = clause.choice
    if clause.versions:
        out["version"] = (clause.version or 0) + 1
        out["versions"] = len(clause.versions)
        if clause.silence:
            out["contradiction"] = clause.silence
    return out


def verdict_json(verdict: Ruling) -> dict[str, Any]:
    """One verdict with both sides' stances, its witness or proof, and its reason."""
    a, b = verdict.a_side, verdict.b_side
    out: dict[str, Any] = {"clause": verdict.key, "status": verdict.status, "kind": verdict.kind,
                           "a": stance_json(verdict.a, a), "b": stance_json(verdict.b, b)}
    if verdict.witness is not None:
        w = verdict.witness
        out["witness"] = {
            **w.to_json(a.edition),
            "story": gap_story(w, a.label) if verdict.kind == "silence" else story(w, a.label, b.label),
            "replays": {side.label: {**side.replay_header(), **w.replay(side.edition, name=side.name)}
                        for side in ((a,) if verdict.kind == "silence" else (a, b))},
        }
    if verdict.proof:
        out["proof"] = verdict.proof
    if verdict.reason:
        out["reason"] = verdict.reason
    if verdict.together:
        out["together"] = list(verdict.together)
    if verdict.on_its_own:
        out["on_its_own"] = True
    if verdict.alone is not None:
        out["alone"] = verdict_json(verdict.alone)
        if verdict.alone_note:
            out["alone_note"] = verdict.alone_note
    return out


def side_json(side: Side) -> dict[str, Any]:
    """Which spec a side is."""
    out: dict[str, Any] = {"spec": side.id, "label": side.label, "kind": side.edition.kind,
                           "title": side.edition.title,
                           "players": [side.edition.min_players, side.edition.max_players]}
    if side.edition.describes:
        out["describes"] = side.edition.describes
    out.update({k: v for k, v in side.replay_header().items() if k != "edition"})
    played = {c.key: [side.versions.get(c.key, 0) + 1, len(c.versions)]
              for c in side.edition.clauses.values() if c.versions}
    if played:
        out["contradicted"] = played
    return out


def comparison_json(comparison: Comparison) -> dict[str, Any]:
    """Every verdict between two sides, each with what the edition(s) the readings describe say."""
    verdicts = []
    for verdict in comparison.verdicts:
        out = verdict_json(verdict)
        said = publisher(comparison, verdict.key)
        if said:
            out["editions"] = said
        verdicts.append(out)
    return {
        "a": side_json(comparison.a), "b": side_json(comparison.b),
        "summary": {**{s: comparison.count(s) for s in ("observable", "vacuous", "undecided")},
                    "observable_alone": len(observable_alone(verdicts))},
        "masked": comparison.masked or None,
        "alike": [_alike_json(d, comparison) for d in comparison.alike],
        "verdicts": verdicts,
    }


def publisher(comparison: Comparison, key: str) -> list[dict[str, Any]]:
    """What the editions described by the two sides say on a clause (those not compared already)."""
    compared = {comparison.a.id, comparison.b.id}
    out = []
    for name in dict.fromkeys(s.edition.describes for s in (comparison.a, comparison.b)):
        if not name or name in compared:
            continue
        edition = open_side(name)
        stance = clause_stance(edition.edition, key)
        out.append(stance_json(stance, edition))
    return out


def _alike_json(d: Difference, comparison: Comparison) -> dict[str, Any]:
    return {"clause": d.key, "a": stance_json(d.a, comparison.a), "b": stance_json(d.b, comparison.b),
            "reason": alike_reason(d)}


def audit_json(side: Side, verdicts: list[Ruling]) -> dict[str, Any]:
    """A reading's contradictions and silences."""
    return {"spec": side_json(side), "verdicts": [verdict_json(v) for v in verdicts]}


# -- text ------------------------------------------------------------------------------------


def _cite(source: dict[str, Any]) -> str:
    where = source.get("file", source["doc"]) + (f":{source['line']}" if "line" in source else "")
    text = f"{where} «{source['quote']}»"
    if source.get("paraphrase"):
        text += " (paraphrase)"
    if "gloss" in source:
        text += f" ({source['gloss']})"
    return text


def _stance_lines(stance: dict[str, Any], indent: str) -> list[str]:
    lines = [f"{indent}{stance['spec']}: {stance['rule']}"]
    if "silence" in stance:
        lines.append(f"{indent}  open: {stance['silence']}")
    lines += [f"{indent}  {_cite(s)}" for s in stance.get("sources", [])]
    return lines


def observable_alone(verdicts: list[dict[str, Any]]) -> list[str]:
    """The clauses not observable between the two sides that are observable on their own."""
    return [v["clause"] for v in verdicts if _shows_alone(v)]


def _shows_alone(verdict: dict[str, Any]) -> bool:
    """True for a verdict not observable between the two sides but observable on its own."""
    if verdict.get("on_its_own"):
        return verdict["status"] == "observable"
    return verdict["status"] != "observable" and (verdict.get("alone") or {}).get("status") == "observable"


def headline(verdict: dict[str, Any], shout: bool = False) -> str:
    """A verdict's status (in capitals when `shout`), saying so when it is the verdict on its own
    (the two sides always part earlier), and its verdict on its own when that one is observable
    and it is not."""
    status, alone = verdict["status"], "observable"
    if shout:
        status, alone = status.upper(), alone.upper()
    if verdict.get("on_its_own"):
        return f"{status} on its own"
    if _shows_alone(verdict):
        return f"{status} between these two, {alone} on its own"
    return status


def verdict_text(verdict: dict[str, Any], indent: str = "") -> list[str]:
    """A verdict as lines of text."""
    head = {"difference": "", "contradiction": "contradiction ", "silence": "silence "}[verdict["kind"]]
    lines = [f"{indent}{head}{verdict['clause']}: {headline(verdict, shout=True)}"]
    if verdict.get("together"):
        lines.append(f"{indent}  {_together(verdict['together'])}")
    if verdict["kind"] == "silence":
        lines += _stance_lines(verdict["a"], indent + "  ")
    else:
        lines += _stance_lines(verdict["a"], indent + "  ") + _stance_lines(verdict["b"], indent + "  ")
    witness = verdict.get("witness")
    if witness is not None:
        lines.append(f"{indent}  witness: {witness['story']}")
        for label, replay in witness["replays"].items():
            lines.append(f"{indent}  replay under {label}: {json.dumps(replay, ensure_ascii=False)}")
    for proof in verdict.get("proof", []):
        lines.append(f"{indent}  proof: {proof['query']} on {proof['spec']}, {proof['players']} players: "
                     f"{proof['status']}")
    if verdict.get("reason"):
        between = "between these two: " if verdict.get("on_its_own") else ""
        lines.append(f"{indent}  {between}{verdict['reason']}")
    alone = verdict.get("alone")
    if alone is not None:
        lines.append(f"{indent}  on its own ({alone['a']['spec']} against {alone['b']['spec']}): "
                     f"{alone['status'].upper()}")
        if verdict.get("alone_note"):
            lines.append(f"{indent}    ({verdict['alone_note']})")
        if alone.get("witness"):
            lines.append(f"{indent}    witness: {alone['witness']['story']}")
        elif alone.get("reason"):
            lines.append(f"{indent}    {alone['reason']}")
        if alone.get("together"):
            lines.append(f"{indent}    {_together(alone['together'])}")
    return lines


def _together(keys: list[str]) -> str:
    """Why a card's value was settled with others'."""
    return (f"settled together with {', '.join(keys[1:])} (their values move together: no two cards may "
            "share a value)")


def comparison_text(data: dict[str, Any]) -> str:
    """A comparison as text."""
    a, b = data["a"], data["b"]
    s = data["summary"]
    lines = [f"{_describe(a)} vs {_describe(b)}",
             f"{counted(len(data['verdicts']), 'clause differs', 'clauses differ')}: {s['observable']} "
             f"observable, {s['vacuous']} vacuous, {s['undecided']} undecided{alone_note(data['verdicts'])}"]
    for side in (a, b):
        for key, (version, count) in side.get("contradicted", {}).items():
            lines.append(f"{side['spec']} contradicts itself on {key}: played here in version {version} of "
                         f"{count} (--version-of {key}=N for another)")
    if data["alike"]:
        alike = ", ".join(x["clause"] for x in data["alike"])
        lines.append(f"worded differently to the same effect: {alike}")
    if data.get("masked"):
        lines.append(data["masked"])
    for verdict in data["verdicts"]:
        lines.append("")
        lines += verdict_text(verdict)
    return "\n".join(lines)


def alone_note(verdicts: list[dict[str, Any]]) -> str:
    """For a summary: which clauses were settled on their own (the two always part earlier), and
    which of the others, not observable between the two, are observable on their own."""
    own = [v["clause"] for v in verdicts if v.get("on_its_own")]
    found = [v["clause"] for v in verdicts if not v.get("on_its_own") and _shows_alone(v)]
    text = ""
    if own:
        text += (f"; {len(own)} of them settled on {'its' if len(own) == 1 else 'their'} own, the two "
                 f"always parting earlier: {', '.join(own)}")
    if found:
        text += (f" ({len(found)} of the others observable on {'its' if len(found) == 1 else 'their'} own: "
                 f"{', '.join(found)})")
    return text


def audit_text(data: dict[str, Any]) -> str:
    """An audit as text."""
    verdicts = data["verdicts"]
    contradictions = [v for v in verdicts if v["kind"] == "contradiction"]
    silences = [v for v in verdicts if v["kind"] == "silence"]
    lines = [f"{_describe(data['spec'])}: {len(contradictions)} contradiction(s), {len(silences)} silence(s) "
             "(open points)"]
    for verdict in verdicts:
        lines.append("")
        lines += verdict_text(verdict)
    return "\n".join(lines)


def _describe(side: dict[str, Any]) -> str:
    what = f"reading of {side['describes']}" if side.get("describes") else side["kind"]
    lo, hi = side["players"]
    return f"{side['label']} ({what}, {lo}-{hi} players)"


def retell(verdict: dict[str, Any]) -> None:
    """Tell a stored verdict's witness (and that of its clause on its own) again, in place: the
    story follows the engine's events as they are now."""
    for item in (verdict, verdict.get("alone")):
        witness = item.get("witness") if item else None
        if item is None or witness is None:
            continue
        headers = list(witness["replays"].values())
        sides = [side_of(h) for h in headers]
        if any(side is None for side in sides):
            continue
        built = [s for s in sides if s is not None]
        a, b = built[0], built[-1]
        w = Witness.from_json(witness, a.edition)
        looks = [replay_looks(s.edition, w.players, w.first_player, w.tokens, w.steps) for s in (a, b)]
        w.looks = list(zip(*looks, strict=False))
        witness["story"] = gap_story(w, a.label) if item["kind"] == "silence" else story(w, a.label, b.label)
