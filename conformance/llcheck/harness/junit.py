"""JUnit XML, the report format CI systems read (Jenkins, GitLab, GitHub test reporters).

One `<testsuite>` per corpus folder and edition (`required/classic`, `property/z-man-2019`, ...),
the golden traces' suites (`golden/classic`) after all the others; one `<testcase>` per case
named by its id, with the case's main clause as its classname (for a broad case, the first clause
its failure is charged to, `charge.py`); a failure or error carries the divergence and the replay
command; skipped cases and known failures are `<skipped>`; an unexpected pass is a failure.
A testcase's `file=` is relative to the repository holding the working directory (the nearest
folder up with `.git`) when the file is inside it, so that CI annotations link into it.
"""

from __future__ import annotations

import os
import re
import socket
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from pathlib import Path

from loveletter_ref.lockstep import compact

from .charge import is_broad
from .clauses import clause_quote
from .report import Report, apart
from .results import ERRORED, FAILED, KNOWN_FAILURE, NOT_APPLICABLE, SKIPPED, UNEXPECTED_PASS, Result, Tally

_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""Characters XML 1.0 cannot hold (an engine's output may contain them)."""


def clean(text: str) -> str:
    """`text` with the characters XML cannot hold replaced."""
    return _NOT_XML.sub("\ufffd", text)


def repository_path(path: str, start: Path | None = None) -> str:
    """`path` relative to the repository holding `start` (the working directory) when it is inside
    that repository, else as given (a file of an installed package, say)."""
    here = (start or Path.cwd()).resolve()
    root = next((folder for folder in (here, *here.parents) if (folder / ".git").exists()), None)
    if root is None:
        return path
    try:
        return Path(os.path.abspath(path)).resolve().relative_to(root).as_posix()
    except (ValueError, OSError):
        return path


def classname(result: Result) -> str:
    """The first clause a broad case's failure is charged to, or its folder and edition (a broad
    case that did not fail judges no clause in particular); else the clause a case id starts
    with, else the first it names, else its kind and edition."""
    if result.charged:
        return result.charged[0]
    if result.kind == "case" and is_broad(result.group, result.clauses):
        return f"{result.group}.{result.edition or 'all'}"
    main = result.id.partition("/")[0]
    if main in result.clauses:
        return main
    return result.clauses[0] if result.clauses else f"{result.kind}.{result.edition or 'all'}"


def _details(result: Result) -> str:
    lines = [result.description] if result.description else []
    charged = result.charged if result.charged is not None else result.clauses
    lines += [f"clause {c}: {clause_quote(c)}" for c in charged]
    if len(charged) < len(result.clauses):
        lines.append(f"not judged by this case (not suspected at its first divergence): "
                     f"{', '.join(c for c in result.clauses if c not in charged)}")
    if result.divergence is not None:
        d = result.divergence
        if result.kind != "case":
            lines.append(result.message)
        lines += [f"{d.where()}: {d.what}", f"expected: {compact(d.expected)}",
                  f"actual:   {compact(d.actual)}"]
        if d.detail and result.kind == "case":
            lines.append(d.detail)
    elif result.message:
        lines.append(result.message)
    if result.replay_case is not None:
        lines.append(f"replay case: {compact(result.replay_case)}")
    if result.replay:
        lines.append(f"replay: {result.replay}")
    return clean("\n".join(lines))


def _testcase(suite: ET.Element, result: Result) -> None:
    case = ET.SubElement(suite, "testcase", classname=clean(classname(result)), name=clean(result.id),
                         time=f"{result.seconds:.6f}")
    if result.file:
        case.set("file", clean(repository_path(result.file.rpartition(":")[0] or result.file)))
    message = clean(result.message)
    if result.status in (FAILED, UNEXPECTED_PASS):
        ET.SubElement(case, "failure", message=message, type=result.status).text = _details(result)
    elif result.status == ERRORED:
        ET.SubElement(case, "error", message=message, type="errored").text = _details(result)
    elif result.status == SKIPPED:
        ET.SubElement(case, "skipped", message=message)
    elif result.status == NOT_APPLICABLE:
        ET.SubElement(case, "skipped", message=clean(f"not applicable: {result.message}"))
    elif result.status == KNOWN_FAILURE:
        text = f"known failure: {result.known_failure}: {message}"
        ET.SubElement(case, "skipped", message=clean(text))


def _counts(element: ET.Element, tally: Tally, seconds: float) -> None:
    element.set("tests", str(tally.total))
    element.set("failures", str(tally[FAILED] + tally[UNEXPECTED_PASS]))
    element.set("errors", str(tally[ERRORED]))
    element.set("skipped", str(tally[SKIPPED] + tally[KNOWN_FAILURE] + tally[NOT_APPLICABLE]))
    element.set("time", f"{seconds:.3f}")


def _add_suites(root: ET.Element, suites: Iterable[ET.Element]) -> None:
    """Append suites made elsewhere (the baseline's), adding their counts to the root's."""
    for suite in suites:
        root.append(suite)
        for key in ("tests", "failures", "errors", "skipped"):
            root.set(key, str(int(root.get(key, "0")) + int(suite.get(key, "0"))))


def junit_xml(report: Report, more: Iterable[ET.Element] = ()) -> bytes:
    """The report as a JUnit XML document, followed by `more` suites made elsewhere (the
    baseline's, `baseline.report.junit_suites`)."""
    root = ET.Element("testsuites", name="llcheck check")
    _counts(root, report.tally, report.seconds)
    suites: dict[str, list[Result]] = {}
    others, golden = apart(report.results)
    for result in others + golden:
        suites.setdefault(f"{result.group}/{result.edition or 'all'}", []).append(result)
    host = socket.gethostname()
    for name, results in suites.items():
        suite = ET.SubElement(root, "testsuite", name=name, timestamp=report.info.started[:19], hostname=host)
        _counts(suite, Tally.of(results), sum(r.seconds for r in results))
        properties = ET.SubElement(suite, "properties")
        engine = report.info.hello
        for key, value in (("impl", report.info.impl), ("engine", f"{engine.name} {engine.version}".strip()),
                           ("capabilities", ",".join(sorted(engine.capabilities)))):
            if value:  # an engine that never said hello has no name, version or capabilities
                ET.SubElement(properties, "property", name=key, value=clean(value))
        for result in results:
            _testcase(suite, result)
    _add_suites(root, more)
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)
