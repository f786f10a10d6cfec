"""Every bundled reading settled against the editions and against each other: docs/disputes.md,
with a page per reading and per pair in docs/disputes/.

The verdicts are kept in docs/disputes.json, one entry per comparison or audit, each under a
*fingerprint* of everything its answer depends on (the spec files involved, the versions played,
the search budget, the format). Writing the report searches again only the entries whose
fingerprint changed, so an unchanged set of readings regenerates in seconds; `check` searches
nothing: it compares fingerprints, replays every stored witness to tell its story again (a change
in the engine's events shows there), and renders the report from the stored verdicts, which is
how CI tells that the checked-in files are up to date within a few seconds. The report's pages
are written together: the summary (docs/disputes.md) and its folder of detail pages
(docs/disputes/, named after it), from which pages no longer produced are removed.
"""

from __future__ import annotations

import copy
import hashlib
import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from loveletter_ref.disputes.markdown import render
from loveletter_ref.disputes.report import audit_json, comparison_json, retell
from loveletter_ref.disputes.search import Budget
from loveletter_ref.disputes.settle import CONVENTIONS, audit, by_convention, compare
from loveletter_ref.disputes.sides import open_side
from loveletter_ref.spec import known_specs, load_spec

from .atomic import write_atomic
from .interrupts import unfinished
from .workers import in_workers

FORMAT = 3
"""Bumped whenever the stored form of a verdict changes."""

DEFAULT_OUTPUT = Path("docs/disputes.md")
DEFAULT_DATA = Path("docs/disputes.json")

GENERATED = "by llcheck disputes --all from spec/readings/ and spec/editions/; do not edit"
"""What the stored verdicts say wrote them (docs/disputes.md says it in its first lines)."""

DEFAULT_BUDGET = Budget()
"""The search budget of the report (counts of games)."""
DEFAULT_Z3 = 30_000_000
"""z3's resource limit per solver call for the report (`rlimit` units: solver steps, the same on
every machine at any load)."""


@dataclass(frozen=True)
class Entry:
    """One comparison (two specs, versions chosen, maybe one clause) or one audit."""

    kind: str
    specs: tuple[str, ...]
    versions: tuple[tuple[tuple[str, int], ...], ...] = ((), ())
    keys: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        """A stable name for the entry."""
        names = []
        for spec, chosen in zip(self.specs, self.versions, strict=False):
            names.append(spec + "".join(f"[{k}={i + 1}]" for k, i in chosen))
        text = f"{self.kind} {' vs '.join(names)}"
        return text + (f" ({', '.join(self.keys)})" if self.keys else "")


def readings() -> list[str]:
    """The bundled readings, by id."""
    return [name for name, path in known_specs().items() if path.parent.name == "readings"]


def entries() -> list[Entry]:
    """Every audit and comparison the report holds, in report order."""
    names = readings()
    editions = sorted({d for name in names if (d := load_spec(name).describes)})
    out = [Entry("audit", (name,), ((),)) for name in names]
    out += [Entry("convention", (name, described), ((), ())) for name in names
            if (described := load_spec(name).describes) and _conventional(name)]
    pairs = [(r, e) for r in names for e in editions]
    pairs += [(r, s) for i, r in enumerate(names) for s in names[i + 1:]]
    for a, b in pairs:
        out.append(Entry("compare", (a, b)))
        out += _version_entries(a, b)
    return out


def _conventional(name: str) -> bool:
    """True when a reading is silent on what every table does alike (see `CONVENTIONS`)."""
    return any(c.silent and c.kind in CONVENTIONS for c in load_spec(name).clauses.values())


def _version_entries(a: str, b: str) -> list[Entry]:
    """Comparisons of the other versions of each contradicted clause, that clause only."""
    out = []
    for side, name in enumerate((a, b)):
        for clause in load_spec(name).clauses.values():
            for index in range(1, len(clause.versions)):
                versions: list[tuple[tuple[str, int], ...]] = [(), ()]
                versions[side] = ((clause.key, index),)
                out.append(Entry("compare", (a, b), (versions[0], versions[1]), (clause.key,)))
    return out


class Catalogue:
    """Builds, stores and checks the report."""

    def __init__(self, output: Path, data: Path, budget: Budget, rlimit: int, progress: bool = False):
        self.output = output
        self.data = data
        self.budget = budget
        self.rlimit = rlimit
        self.progress = progress

    def fingerprint(self, entry: Entry) -> str:
        """A hash of everything the entry's verdicts depend on."""
        digest = hashlib.sha256()
        files = sorted({str(load_spec(name).path) for name in entry.specs}
                       | {str(load_spec(d).path) for name in entry.specs if (d := load_spec(name).describes)})
        head = {"format": FORMAT, "budget": asdict(self.budget), "z3": self.rlimit, "entry": entry.id}
        digest.update(json.dumps(head, sort_keys=True).encode())
        for file in files:
            digest.update(Path(file).read_bytes())
        return digest.hexdigest()[:16]

    def stored(self) -> dict[str, Any]:
        """The stored verdicts ({} when there are none)."""
        if not self.data.exists():
            return {}
        try:
            found = json.loads(self.data.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            return {}
        return found if isinstance(found, dict) and found.get("format") == FORMAT else {}

    def write(self, refresh: bool = False, jobs: int = 1, cluster: str | None = None) -> str:
        """Settle what changed (in `jobs` processes, or as tasks on `cluster`), then write the data
        and the report; a summary of the work."""
        old = {} if refresh else self.stored().get("entries", {})
        todo = entries()
        marks = {entry.id: self.fingerprint(entry) for entry in todo}
        stale = [e for e in todo if old.get(e.id, {}).get("fingerprint") != marks[e.id]]
        done: dict[str, Any] = {}
        work = [(entry, self.budget, self.rlimit) for entry in stale]
        left = f"{self.output} and {self.data} are left as they were"
        with unfinished(lambda: f"{len(stale) - len(done)} of {len(stale)} entries to settle ({left})"):
            settled = in_workers(_settle, work, jobs, cluster=cluster)
            for n, (entry, result) in enumerate(zip(stale, settled, strict=True), 1):
                self._progress(n, len(stale), entry)
                done[entry.id] = result
        new = {e.id: {"fingerprint": marks[e.id], "result": done[e.id]} if e.id in done else old[e.id]
               for e in todo}
        _retell(new)
        data = {"format": FORMAT, "generated": GENERATED, "budget": asdict(self.budget),
                "z3_rlimit": self.rlimit, "entries": new}
        self.data.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(self.data, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
        pages = self.pages(data)
        self.folder.mkdir(parents=True, exist_ok=True)
        for path in self.stray(pages):
            path.unlink()
        for path, text in pages.items():
            write_atomic(path, text)
        return f"{len(stale)} of {len(todo)} entries searched, the rest unchanged"

    @property
    def folder(self) -> Path:
        """The folder of the report's detail pages: beside it, named after it (docs/disputes/)."""
        return self.output.parent / self.output.stem

    def pages(self, data: dict[str, Any]) -> dict[Path, str]:
        """Every page of the report, rendered from the stored verdicts, by path."""
        return {self.output.parent / name: text for name, text in render(data, self.output.stem).items()}

    def stray(self, pages: dict[Path, Any]) -> list[Path]:
        """Pages in the report's folder that the report no longer has (a reading or pair gone)."""
        if not self.folder.is_dir():
            return []
        return sorted(p for p in self.folder.glob("*.md") if p not in pages)

    def _progress(self, n: int, total: int, entry: Entry) -> None:
        if self.progress:
            print(f"llcheck disputes: [{n}/{total}] {entry.id}", file=sys.stderr, flush=True)

    def check(self) -> list[str]:
        """What is out of date (empty when the data and the report match the specs)."""
        data = self.stored()
        if not data:
            return [f"{self.data} is missing or unreadable: run llcheck disputes --all"]
        if data.get("budget") != asdict(self.budget) or data.get("z3_rlimit") != self.rlimit:
            return [f"{self.data} was made with another budget: run llcheck disputes --all"]
        stored = data["entries"]
        problems = []
        wanted = entries()
        for entry in wanted:
            if entry.id not in stored:
                problems.append(f"{entry.id}: not in {self.data}")
            elif stored[entry.id].get("fingerprint") != self.fingerprint(entry):
                problems.append(f"{entry.id}: a spec changed since {self.data} was written")
        extra = set(stored) - {e.id for e in wanted}
        problems += [f"{name}: in {self.data} but no longer wanted" for name in sorted(extra)]
        if not problems:
            told = copy.deepcopy(stored)
            _retell(told)
            if told != stored:
                problems.append(f"{self.data}: the witnesses no longer play as their stories tell")
            pages = self.pages(data)
            for path, text in pages.items():
                try:
                    current = path.read_text(encoding="utf-8")
                except OSError:
                    current = None
                if current != text:
                    problems.append(f"{path} does not match {self.data}")
            problems += [f"{path}: not a page of the report (left from an older one)"
                         for path in self.stray(pages)]
        if problems:
            problems.append("run llcheck disputes --all to bring them up to date")
        return problems


def _settle(work: tuple[Entry, Budget, int]) -> dict[str, Any]:
    """Compute one entry's verdicts (a function of its own, so that worker processes can run it)."""
    entry, budget, rlimit = work
    sides = [open_side(name, dict(chosen)) for name, chosen in zip(entry.specs, entry.versions, strict=False)]
    if entry.kind == "audit":
        return audit_json(sides[0], audit(sides[0], budget, rlimit))
    if entry.kind == "convention":
        filled = by_convention(sides[0], sides[1])
        assert filled is not None, f"{entry.id}: no spec filled by convention passes validation"
        return {**comparison_json(compare(filled[0], sides[1], budget, rlimit)), "convention": filled[1]}
    found = compare(sides[0], sides[1], budget, rlimit, keys=list(entry.keys) or None)
    return comparison_json(found)


def _retell(entries: dict[str, Any]) -> None:
    """Tell every stored witness again (see `report.retell`)."""
    for entry in entries.values():
        for verdict in entry["result"]["verdicts"]:
            retell(verdict)
