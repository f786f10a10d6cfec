"""Replaying a baseline's cases and games on an engine, and the first step where one changed.

Every unit is replayed from the inputs its records hold (the baseline needs neither the corpus
nor the seeds it was drawn from): its records and the engine, through an `Observer` asking for
the capabilities the engine claimed both then and now, are two sides in lockstep
(`loveletter_ref.lockstep`). A record matches when the engine answers the same (a failure
matches a failure, whatever its message); at the first record that does not, the unit has
changed (its divergence: before is the expected value, after the actual one) and the replay of
that unit stops. A case that was skipped has changed once the engine can run it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from loveletter_ref.lockstep import Answers, Divergence, Lockstep, first_index

from ..engines.base import Hello
from .delta import apply_change, same
from .observe import APPLY, NEXT_ROUND, Json, Observer, canonical, is_deal, seen_from_hidden, view_after
from .record import EngineSlot
from .store import Unit

SAME, CHANGED, NOT_RUN = "same", "changed", "not_run"
"""How a unit compares: as recorded; changed (with the first change); not run (no engine)."""


def where(change: Divergence) -> str:
    """`round 1, step 3 (Guard on 1 naming Priest)`, `round 2, deal`, or `the case` (round None: a
    change of the whole unit, a skipped case now runnable)."""
    return "the case" if change.round is None else change.where()


def parts_of(change: Divergence) -> tuple[str, ...]:
    """Everything that differs at a change: `events`, `state.hands`, `view 1.log`, ..."""
    return (change.what, *change.also)


def change_json(change: Divergence, inputs: Json | None) -> Json:
    """The JSON report form of a change, with the input that made it (None for the whole unit)."""
    return {"round": change.round, "step": change.step, "input": inputs, "what": list(parts_of(change)),
            "detail": change.detail, "before": change.expected, "after": change.actual}


def summary(parts: tuple[str, ...] | list[str]) -> str:
    """Parts such as `state.hands` and `view 1.log` grouped by what they belong to."""
    keys: dict[str, list[str]] = {}
    for part in parts:
        head, _, key = part.partition(".")
        keys.setdefault(head, [])
        if key:
            keys[head].append(key)
    out = []
    seats: dict[tuple[str, ...], list[str]] = {}
    for head, names in keys.items():
        if head.startswith("view "):
            seats.setdefault(tuple(names), []).append(head.removeprefix("view "))
        else:
            out.append(f"{head} ({', '.join(names)})" if names else head)
    for held, which in seats.items():
        label = f"{'views' if len(which) > 1 else 'view'} {', '.join(which)}"
        out.append(f"{label} ({', '.join(held)})" if held else label)
    return ", ".join(out)


@dataclass
class Outcome:
    """How one unit compares with its baseline: for a changed one, the first change and the input
    that made it."""

    unit: Unit
    status: str
    change: Divergence | None = None
    message: str = ""
    seconds: float = 0.0
    inputs: Json | None = None


@dataclass
class Replayer:
    """Replays units recorded with `recorded` capabilities on an engine that says `hello`."""

    edition: str
    recorded: frozenset[str]
    hello: Hello
    dropped: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        self.dropped = frozenset(c for c in self.recorded if not self.hello.can(c))

    def replay(self, slot: EngineSlot, unit: Unit) -> Outcome:
        """Compare one unit (the slot's engine is replaced when it breaks)."""
        began = time.perf_counter()
        if unit.skipped is not None:
            outcome = self._skipped(unit, unit.skipped)
        else:
            observer = slot.observer(self.recorded - self.dropped)
            records = unit.records
            steps = Lockstep(Answers(map(self._without_dropped, records)), _Engine(observer))
            outcome = Outcome(unit, SAME)
            for index, record in enumerate(records):
                inputs = record["in"]
                want, now = steps.deal(inputs) if is_deal(inputs) else steps.act(inputs)
                if _key(want) != _key(now):
                    before = _whole(records[:index + 1], self.dropped)
                    after = {"state": observer.state, "views": observer.views}
                    outcome = Outcome(unit, CHANGED, first_change(record, want, now, before, after),
                                      inputs=inputs)
                    break
            slot.release(observer)
        outcome.seconds = time.perf_counter() - began
        return outcome

    def _skipped(self, unit: Unit, skipped: Json) -> Outcome:
        """Same while the engine still cannot run the case; changed once it can."""
        missing = [need for need in skipped["needs"] if not self.hello.can(need)]
        if self.edition not in self.hello.editions or missing:
            return Outcome(unit, SAME)
        reason = skipped["reason"]
        detail = (f"recorded as skipped ({reason}); the engine can run it now: record the baseline again "
                  "to pin it")
        return Outcome(unit, CHANGED, Divergence(None, None, "skipped", {"skipped": reason},
                                                 {"skipped": None}, detail))

    def _without_dropped(self, record: Json) -> Json:
        """The record without what a capability the engine no longer claims gave (views whose logs
        were written as the events they show are written out, when the events are gone)."""
        if not self.dropped or "out" not in record:
            return record
        out = dict(record["out"])
        if "events" in self.dropped and "views" in out:
            events = out.get("events")
            out["views"] = {seat: seen_from_hidden(delta, events) for seat, delta in out["views"].items()}
        return {**record, "out": {k: v for k, v in out.items() if k not in self.dropped}}


class _Engine:
    """The engine, through its observer, as the second side of a replay: every input is sent as
    it was recorded, and answered with a record."""

    def __init__(self, observer: Observer):
        self.observer = observer

    def deal(self, inputs: Json, /) -> Json:
        return self.observer.send(inputs)

    def act(self, inputs: Json, /) -> Json:
        return self.observer.send(inputs)


def show(value: Any, limit: int | None = None) -> str:
    """Compact JSON with sorted keys (as the baseline holds it), shortened to `limit` characters."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(", ", ": "), default=repr)
    return text if limit is None or len(text) <= limit else text[:limit - 3] + "..."


def _key(record: Json) -> str:
    """What must match: the answer, or the fact of a failure."""
    return canonical(record["out"]) if "out" in record else "error"


def _whole(records: list[Json], dropped: Collection[str]) -> Json:
    """The state and views the baseline's records add up to."""
    state: Any = None
    views: dict[str, Any] = {}
    for record in records:
        out = record.get("out") or {}
        if "start" in record["in"]:
            state, views = None, {}
        if "state" in out:
            state = apply_change(state, out["state"])
        if "views" in out and "views" not in dropped:
            for seat, delta in out["views"].items():
                views[seat] = view_after(views.get(seat), state, delta, out.get("events"))
    return {"state": state, "views": views}


def first_change(record: Json, want: Json, now: Json, before: Json, after: Json) -> Divergence:
    """How `now` differs from the recorded `want` (both for the same input), at the place the
    record names: the first part that differs, and the others."""
    found = _failure(want, now) or _accepted(want, now)
    parts = [found] if found else []
    old, new = want.get("out") or {}, now.get("out") or {}
    if not parts:
        parts = _events(old, new) + _keys("state", before["state"], after["state"]) + _legal(old, new)
        for seat in sorted(set(before["views"]) | set(after["views"]), key=int):
            parts += _keys(f"view {seat}", before["views"].get(seat), after["views"].get(seat))
    if not parts:
        parts = [("answer", "the answer is written differently", old, new)]
    at = record["at"]
    what, detail, old_value, new_value = parts[0]
    action = record["in"].get(APPLY) or None
    return Divergence(at["round"], at["step"], what, old_value, new_value, detail, action,
                      also=tuple(p[0] for p in parts[1:]))


Part = tuple[str, str, Any, Any]
"""(what, detail, before, after)."""


def _failure(want: Json, now: Json) -> Part | None:
    if "error" in now and "error" not in want:
        return "error", f"the engine fails now: {now['error']}", want["out"], {"error": now["error"]}
    if "error" in want and "error" not in now:
        return ("error", f"the engine failed here before ({want['error']}); now it answers",
                {"error": want["error"]}, now["out"])
    return None


def _accepted(want: Json, now: Json) -> Part | None:
    before, after = want["out"]["accepted"], now["out"]["accepted"]
    if before == after:
        return None
    inputs = now["in"]
    what = "the deal" if "start" in inputs or NEXT_ROUND in inputs else "the action"
    detail = f"{what} was accepted, the engine refuses it now" if before else \
        f"{what} was refused, the engine accepts it now"
    return "accepted", detail, before, after


def _events(old: Json, new: Json) -> list[Part]:
    before, after = old.get("events"), new.get("events")
    if same(before, after):
        return []
    if not (isinstance(before, list) and isinstance(after, list)):
        return [("events", f"before {show(before, 120)}, after {show(after, 120)}", before, after)]
    index = first_index(before, after, same)
    detail = f"event {index + 1}: before {_at(before, index)}, after {_at(after, index)}"
    return [("events", detail, before, after)]


def _at(items: list[Any], index: int) -> str:
    return show(items[index], 160) if index < len(items) else "nothing more"


def _keys(name: str, before: Any, after: Any) -> list[Part]:
    """One part per top-level key whose value differs."""
    if same(before, after):
        return []
    if not (isinstance(before, dict) and isinstance(after, dict)):
        return [(name, "", before, after)]
    keys = list(before) + [key for key in after if key not in before]
    parts = []
    for key in keys:
        old, new = before.get(key, _ABSENT), after.get(key, _ABSENT)
        if not same(old, new):
            parts.append((f"{name}.{key}", _item_detail(key, old, new), old, new))
    return parts


def _item_detail(key: str, before: Any, after: Any) -> str:
    """For two lists (a view's log, a state's hands), the first item that differs, as `_events`
    says it for events: long lists otherwise read the same up to where a line is cut."""
    if not (isinstance(before, list) and isinstance(after, list)):
        return ""
    index = first_index(before, after, same)
    return f"{key} item {index + 1}: before {_at(before, index)}, after {_at(after, index)}"


_ABSENT = "<absent>"
"""Stands for a key one side does not have."""


def _legal(old: Json, new: Json) -> list[Part]:
    before, after = old.get("legal_actions"), new.get("legal_actions")
    if same(before, after):
        return []
    if not (isinstance(before, list) and isinstance(after, list)):
        return [("legal_actions", f"before {show(before, 120)}, after {show(after, 120)}", before,
                 after)]
    was = {canonical(a) for a in before}
    now = {canonical(a) for a in after}
    gained = [a for a in after if canonical(a) not in was]
    lost = [a for a in before if canonical(a) not in now]
    bits = []
    if gained:
        bits.append(f"now also lists {len(gained)} (first: {show(gained[0])})")
    if lost:
        bits.append(f"no longer lists {len(lost)} (first: {show(lost[0])})")
    detail = "; ".join(bits) or "the same actions, listed more or fewer times"
    return [("legal_actions", detail, before, after)]
