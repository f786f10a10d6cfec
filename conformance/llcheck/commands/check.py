"""Run the conformance corpus against an engine and give a verdict per rule clause.

The engine is --impl: `reference` (in process), `python:MODULE:CLASS` (an in-process adapter),
or a command speaking the protocol of docs/protocol.md; by default the bundled reference engine
over the protocol (`python -m llcheck serve`). Each failure names the case, its clauses with
their rulebook quotes, the first point where the engine diverged, and a command replaying just
that case. Exit codes: 0 all passed, 1 failures, 2 bad usage or input, 3 the engine could not be
started (every report says why) or talked to (also: restarted, so that cases were not run, unless
a case failed), 4 (--baseline, docs/ci.md) conformant but behaving differently from the baseline,
130 interrupted (results so far are written)."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import stat
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from loveletter_ref.plural import counted
from loveletter_ref.spec import Edition, known_specs, load_spec

from .. import campaigns, cluster, exitcodes, progress, shard
from ..arguments import JOBS, SEED, is_file, seconds, whole
from ..atomic import write_atomic
from ..baseline import checking as baseline
from ..baseline import report as baseline_report
from ..baseline.record import recovery
from ..baseline.store import BaselineError
from ..engines import Engine, EngineFailure, Hello
from ..engines import options as engine_options
from ..engines.loader import Impl, engine_factory, serve_command, start_failure
from ..engines.pipes import printable
from ..errors import UsageError
from ..harness import lastfailed
from ..harness import reading as engine_reading
from ..harness.cases import STATUSES, Case, load_corpus, readings
from ..harness.clauses import use_specs
from ..harness.junit import junit_xml
from ..harness.known import KnownFailures
from ..harness.report import Report, ResultsStream, RunInfo, json_text, open_output
from ..harness.results import BAD, ERRORED, FAILED, UNEXPECTED_PASS, Result, Tally
from ..harness.runner import run_cases
from ..harness.select import DEFAULT_GROUPS, Selection
from ..harness.text import text_report
from ..interrupts import StopSignals
from ..progress import Progress
from ..specs import GAP, as_described, blamed_on_spec
from ..view.results import report_page

DEFAULT_IMPL = "python -m llcheck serve"
"""How reports name the default engine: the bundled reference engine over the protocol."""

MAX_FUZZ = 1_000_000
"""Most games --fuzz plays."""

MAX_RESULTS = 1_000_000
"""Most failures --max-fail waits for."""

FUZZ_DIR = "llcheck-results/fuzz"
"""Where --fuzz saves the cases it finds, unless --fuzz-dir says otherwise."""


EXAMPLES = """examples:
  llcheck check --impl 'node my-engine.js' --junit report.xml
  llcheck check --impl reference --fuzz 300 --properties --jobs 2
  llcheck check --impl 'node my-engine.js' --results last.jsonl -x     # stop at the first failure
  llcheck check --impl 'node my-engine.js' --results last.jsonl --lf   # then run only what failed
"""
"""Shown at the end of --help."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    engine = parser.add_argument_group("engine")
    engine.add_argument("--impl", metavar="reference|COMMAND|python:MODULE:CLASS",
                        help=f"the engine under test (default: {DEFAULT_IMPL}, the reference engine "
                             "over the protocol)")
    engine.add_argument("--timeout", type=seconds, default=10.0, metavar="S",
                        help="seconds a protocol engine may take to answer one request (default 10)")
    engine.add_argument("--jobs", type=JOBS, default=1, metavar="N",
                        help="engines run in parallel, one case at a time each; --properties and --fuzz "
                             "share the editions and player counts among N processes (default 1)")
    cluster.add_argument(engine, "--properties and --fuzz (one task per edition and player count)")
    engine.add_argument("--validate-protocol", action="store_true",
                        help="check every message the engine sends against the protocol schema")
    engine.add_argument("--case-timeout", type=seconds, default=60.0, metavar="S",
                        help="seconds a protocol engine may take for one whole case (default 60)")
    engine_options.add_arguments(engine)
    cases = parser.add_argument_group("cases")
    cases.add_argument("--edition", action="append", metavar="E",
                       help="editions to check, by id or spec file (default: every edition of the corpus "
                            "the engine plays); an edition of your own, from its file, gets --properties "
                            "and --fuzz against the reference engine playing that file")
    cases.add_argument("--status", action="append", choices=STATUSES, metavar="FOLDER",
                       help=f"corpus folders to run (default: {', '.join(DEFAULT_GROUPS)}, where the bundled "
                            "corpus has no optional cases yet; "
                            f"choices: {', '.join(STATUSES)}); the disputed cases of different rulebook "
                            "readings contradict each other, so no engine passes them all: pick one "
                            "reading with --assume, or read the results per reading")
    cases.add_argument("--assume", metavar="READING",
                       help="run the disputed cases that follow this rulebook reading")
    cases.add_argument("--run", action="append", default=[], dest="only", metavar="GLOB",
                       help="only the case ids matching (repeatable)")
    cases.add_argument("--skip", action="append", default=[], metavar="GLOB",
                       help="leave out the case ids matching (repeatable)")
    cases.add_argument("--lf", "--last-failed", action="store_true", dest="last_failed",
                       help="run again only what failed, errored or passed unexpectedly in the previous run, "
                            "as its --results FILE recorded it (give the same --results; everything when "
                            "nothing did); --run and --skip narrow it further")
    cases.add_argument("--shard", type=shard.parse, metavar="K/N",
                       help="run part K of N of the cases and campaigns selected (a CI job matrix; join "
                            "the parts' JSON reports with llcheck report --merge)")
    cases.add_argument("--known-failures", metavar="FILE",
                       help="case ids (one per line, with the reason) that must keep failing")
    cases.add_argument("--corpus", metavar="DIR",
                       help="a case folder instead of the bundled corpus (its golden traces in DIR/golden/)")
    more = parser.add_argument_group("properties and fuzzing")
    more.add_argument("--properties", action="store_true",
                      help="also check the invariants of docs/properties.md, per edition and player count")
    more.add_argument("--profile", default="ci", help="hypothesis profile of --properties (default ci)")
    more.add_argument("--fuzz", type=whole(1, MAX_FUZZ, "games"), metavar="N",
                      help="also fuzz N games per edition and player count against the reference engine")
    more.add_argument("--seed", type=SEED, default=0, help="seed of --properties and --fuzz (default 0)")
    more.add_argument("--fuzz-dir", default=FUZZ_DIR, metavar="DIR",
                      help=f"where --fuzz saves the cases it finds (default {FUZZ_DIR})")
    more.add_argument("--write-reading", metavar="FILE",
                      help="write the clauses --fuzz found the engine playing as a variant as a reading "
                           "(one file per edition: FILE, or FILE-EDITION.yaml when several)")
    more.add_argument("--fuzz-ignore", action="append", default=[], metavar="CLAUSE",
                      help="--fuzz looks past differences suspecting this clause (states, events and "
                           "legal actions alike; repeatable)")
    out = parser.add_argument_group("reports")
    out.add_argument("--json", nargs="?", const=True, metavar="FILE",
                     help="the JSON report (conformance/schema/report.schema.json): alone, on stdout in "
                          "place of the text report, as --json prints JSON in every command; with FILE, "
                          "written to FILE beside the text report")
    out.add_argument("--junit", metavar="FILE", help="write a JUnit XML report for CI")
    out.add_argument("--results", metavar="FILE", help="stream one JSON line per result as the run goes")
    out.add_argument("--html", metavar="FILE",
                     help="write the report as a page for a browser, each failing case linked to its game "
                          "on a table, where the engine parts from the rules (docs/viewer.md)")
    out.add_argument("-x", "--exitfirst", action="store_const", const=1, dest="max_fail",
                     help="stop at the first failure: --max-fail 1")
    out.add_argument("--max-fail", type=whole(1, MAX_RESULTS, "failures"), metavar="N",
                     help="stop after N failed, errored or unexpectedly passing results; the cases, "
                          "properties and fuzzing not reached are not run (exit code 1)")
    out.add_argument("-q", "--quiet", action="store_true", help="leave out the per-clause and per-tag tables")
    out.add_argument("--progress-every", type=seconds, metavar="S",
                     help=f"off a terminal, print a progress line every S seconds (default ${progress.ENV}, "
                          f"else {progress.EVERY:g}; on a terminal a bar shows the progress)")
    baseline.add_arguments(parser)


def _fuzz_ignored(clauses: list[str], specs: list[Edition]) -> tuple[str, ...]:
    """The --fuzz-ignore clauses; UsageError for one that no spec checked has."""
    for clause in clauses:
        if not any(clause in spec.clauses for spec in specs):
            raise UsageError(f"--fuzz-ignore {clause}: no such clause in {', '.join(s.id for s in specs)}")
    return tuple(clauses)


def _check_numbers(args: argparse.Namespace) -> None:
    if args.shard is not None and args.baseline:
        raise UsageError("--shard does not go with --baseline: check the baseline in a job of its own")
    cpus = os.cpu_count() or 1
    if args.jobs > max(2, cpus):
        print(f"llcheck check: warning: --jobs {args.jobs} on {cpus} CPUs: the engines will share them "
              "(timeouts may be reached that a smaller --jobs would not reach)", file=sys.stderr)


def _check_names(args: argparse.Namespace) -> None:
    """UsageError, before anything runs, for a reading or a hypothesis profile that does not exist."""
    if args.assume is not None and args.assume not in readings():
        raise UsageError(f"--assume {printable(args.assume, 100)}: no such rulebook reading (readings: "
                         f"{', '.join(sorted(readings()))})")
    known = campaigns.profile_names()  # checked whether or not --properties is given
    if known and args.profile not in known:
        raise UsageError(f"--profile {printable(args.profile, 100)}: no such hypothesis profile "
                         f"(profiles: {', '.join(known)})")


OUTPUTS = ("results", "json", "junit", "html")
"""The report options, each naming a file written by the run."""


PATHS = (*OUTPUTS, "known_failures", "corpus", "fuzz_dir", "write_reading")
"""The options naming a file or folder, besides --baseline and --edition."""


def _check_paths(args: argparse.Namespace) -> None:
    """UsageError before anything runs when a path is empty, or a report would overwrite another
    report or an input (a baseline, the known failures, an edition file), or is `-` (stdout holds
    the text report)."""
    given = [(f"--{option.replace('_', '-')}", getattr(args, option)) for option in PATHS]
    for option, path in given + [("--baseline", path) for path in args.baseline]:
        if path == "":
            raise UsageError(f"{option} '': the path is empty")
    outputs = [(f"--{option}", getattr(args, option)) for option in OUTPUTS if getattr(args, option)]
    inputs = [("--baseline", path) for path in args.baseline or ()]
    inputs += [("--known-failures", args.known_failures)] if args.known_failures else []
    inputs += [("--edition", value) for value in args.edition or () if is_file(value)]
    for option, path in outputs:
        if path == "-":
            raise UsageError(f"{option} takes a file name, not '-' (stdout holds the text report)")
    for n, (option, path) in enumerate(outputs):
        for other, taken in outputs[:n] + inputs:
            if _same_file(path, taken):
                what = "overwrite the input" if (other, taken) in inputs else "be the same file as"
                raise UsageError(f"{option} {printable(path)} would {what} {other} {printable(taken)}: "
                                 "give each report a file of its own")


def _last_failed(args: argparse.Namespace) -> None:
    """--lf: --run becomes the ids that went wrong in the --results file of the previous run (the
    given --run globs keep those they match); a note on stderr says what is run again."""
    if not args.last_failed:
        return
    if not args.results:
        raise UsageError("--lf reads the previous run's results from --results FILE: give the --results "
                         "of the run to repeat")
    failed = lastfailed.failed_ids(args.results)
    if not failed:
        print(f"llcheck check: --lf: nothing went wrong in {printable(args.results)}: running everything",
              file=sys.stderr)
        return
    globs = lastfailed.rerun(failed, args.only)
    if not globs:
        raise UsageError(f"--lf: no result that went wrong in {printable(args.results)} matches --run "
                         f"({len(failed)} went wrong)")
    print(f"llcheck check: --lf: running again {counted(len(globs), 'result')} that "
          f"went wrong in {printable(args.results)}", file=sys.stderr)
    args.only = globs


def _same_file(one: str, two: str) -> bool:
    """True when two paths name the same regular file (or would: neither exists yet). Devices
    such as /dev/null may be named twice."""
    try:
        if os.path.exists(one) and os.path.exists(two):
            return os.path.samefile(one, two) and stat.S_ISREG(os.stat(one).st_mode)
        return os.path.realpath(one) == os.path.realpath(two)
    except (OSError, ValueError):
        return False


class _Outputs:
    """The report files: checked before the run so that a bad path fails early, and opened (emptied)
    only when the run begins, so that a usage error found before it leaves them as they were. The
    results stream is written line by line; the JSON and JUnit reports at the end, each at once
    (`write_atomic`): a run stopped, even by SIGKILL, leaves them empty, never half written.

    A report that cannot be written (a full disk, say) is named in `problems` and on stderr; the
    run goes on and ends with exit code 2.
    """

    def __init__(self, args: argparse.Namespace):
        self.problems: list[str] = []
        self.paths = {option: getattr(args, option) for option in OUTPUTS if getattr(args, option)}
        for option, path in self.paths.items():
            _check_writable(option, path)
        self.files: dict[str, IO[str]] = {}
        self.stream: ResultsStream | None = None

    def begin(self, info: RunInfo) -> None:
        """Open every report and start the results stream."""
        for option, path in self.paths.items():
            try:
                self.files[option] = open_output(path)
                if option != "results":
                    self.files[option].close()  # emptied now; written whole at the end
            except OSError as exc:
                self._problem(option, exc)
        if "results" in self.files:
            stream = self.stream = ResultsStream(self.files["results"])
            if not self._write("results", lambda: stream.begin(info)):
                self.stream = None

    def result(self, result: Result) -> None:
        """Stream one result."""
        stream = self.stream
        if stream is not None and not self._write("results", lambda: stream.result(result)):
            self.stream = None

    def finish(self, report: Report, html: Callable[[], str]) -> None:
        """Write the reports that are written at the end (`html` makes the --html page)."""
        stream = self.stream
        if stream is not None:
            self._write("results", lambda: stream.end(report))
        if "json" in self.files:
            self._write("json", lambda: write_atomic(self.paths["json"], json_text(report)))
        if "junit" in self.files:
            self._write("junit", lambda: write_atomic(self.paths["junit"], _junit_text(report)))
        if "html" in self.files:
            self._write("html", lambda: write_atomic(self.paths["html"], html()))

    def _write(self, option: str, write: Callable[[], object]) -> bool:
        """Run `write`; on an OSError note the problem, close the file and return False."""
        try:
            write()
        except OSError as exc:
            self._problem(option, exc)
            with contextlib.suppress(OSError):
                self.files.pop(option).close()
            return False
        return True

    def _problem(self, option: str, exc: OSError) -> None:
        """Note, and say on stderr, that a report cannot be written."""
        path = printable(self.paths[option])
        self.problems.append(f"cannot write --{option} {path}: {exc.strerror or exc}")
        print(f"llcheck check: {self.problems[-1]}", file=sys.stderr)


def _check_writable(option: str, path: str) -> None:
    """UsageError when a report file cannot be opened for writing; the file is left as it was (one
    that did not exist is removed again)."""
    existed = os.path.lexists(path)
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise UsageError(f"--{option} {printable(path)}: {exc.strerror or exc}") from None
    if not existed:
        with contextlib.suppress(OSError):
            os.unlink(path)


def _junit_text(report: Report) -> bytes:
    return junit_xml(report, baseline_report.junit_suites(report.baseline or []))


class _Replay:
    """Builds the one-line command that runs one result again."""

    def __init__(self, args: argparse.Namespace, files: dict[str, str]):
        self.files = files
        """The spec file each edition given as a file came from, by id."""
        self.base = "llcheck check"
        if args.impl is not None:
            self.base += f" --impl {shlex.quote(args.impl)}"
        if args.corpus:
            self.base += f" --corpus {shlex.quote(args.corpus)}"
        if args.validate_protocol:
            self.base += " --validate-protocol"
        for option, default in (("timeout", 10.0), ("case_timeout", 60.0)):
            if getattr(args, option) != default:
                self.base += f" --{option.replace('_', '-')} {getattr(args, option):g}"
        self.base += "".join(f" {shlex.quote(part)}" for part in engine_options.given(args))
        self.args = args

    def __call__(self, result: Result) -> str:
        extra = ""
        if result.kind == "property":
            extra = f" --properties --profile {shlex.quote(self.args.profile)} --seed {self.args.seed}"
        elif result.kind == "fuzz":
            extra = f" --fuzz {self.args.fuzz} --seed {self.args.seed}"
            if self.args.fuzz_dir != FUZZ_DIR:
                extra += f" --fuzz-dir {shlex.quote(self.args.fuzz_dir)}"
            extra += "".join(f" --fuzz-ignore {shlex.quote(c)}" for c in self.args.fuzz_ignore)
        elif result.group not in DEFAULT_GROUPS:
            extra = f" --status {result.group}"
        if result.kind != "case":
            extra += f" --edition {shlex.quote(self.files.get(result.edition, result.edition or ''))}"
        if result.status == UNEXPECTED_PASS:  # without the list, it would just pass
            extra += f" --known-failures {shlex.quote(self.args.known_failures)}"
        return f"{self.base}{extra} --run {shlex.quote(result.id)}"


def _spec_files(values: list[str] | None) -> dict[str, Edition]:
    """The --edition values that name spec files rather than bundled ids, loaded (SpecError when one
    is not a valid spec). A reading is taken as the edition it describes, played by its rules: the
    engine is asked for that edition, the reference plays the reading (`as_described`)."""
    known = known_specs()
    files = {value: as_described(load_spec(Path(value))) for value in values or ()
             if value not in known and (value.endswith((".yaml", ".yml")) or is_file(value))}
    described = [spec.id for spec in files.values() if spec.kind == "reading"]
    for value in values or ():
        if value in described:
            raise UsageError(f"--edition {value} is also given as a reading of it: give one or the other")
    return files


def _check_readings(args: argparse.Namespace, files: dict[str, Edition]) -> None:
    """UsageError for --properties with a reading: the properties are built from an edition's rules,
    which a reading may leave silent (fuzzing plays the reading, and stops a game at a silence)."""
    reading = next((value for value, spec in files.items() if spec.kind == "reading"), None)
    if reading is not None and args.properties:
        raise UsageError(f"--properties checks an edition's rules; {reading} is a reading, which may leave "
                         "them silent: check an engine against it with --fuzz")


def _corpus(args: argparse.Namespace, files: dict[str, Edition]) -> list[Case]:
    """The bundled corpus, or the --corpus folder with every case checked against its edition (as
    `llcheck cases --validate` does: a bad case is bad input, not the engine's failure)."""
    if not args.corpus:
        return load_corpus()
    corpus = load_corpus(Path(args.corpus), checked=True, more_editions=files.values())
    if not corpus:
        raise UsageError(f"--corpus {printable(args.corpus)} holds no case files (STATUS/EDITION/NAME.json, "
                         "docs/cases.md)")
    return corpus


def _reference_specs(args: argparse.Namespace, files: dict[str, Edition]) -> tuple[str, ...]:
    """What the reference engine under test plays when --edition names spec files: every --edition
    (files by absolute path, as a served engine may run elsewhere); nothing special otherwise."""
    if not files:
        return ()
    return tuple(str(Path(value).resolve()) if value in files else value for value in args.edition)


def _editions(args: argparse.Namespace, corpus: list[Case], plays: tuple[str, ...]) -> list[str]:
    """The editions to check: --edition (each one the engine plays), else every corpus edition it plays."""
    offered = ", ".join(plays) or "nothing"
    if args.edition:
        for edition in args.edition:
            if edition not in plays:
                raise UsageError(f"the engine does not play {printable(edition, 100)} (it plays: {offered})")
        return list(dict.fromkeys(args.edition))
    known = list(dict.fromkeys(case.edition for case in corpus))
    editions = [e for e in known if e in plays]
    if not editions:
        raise _PlaysNone(f"the engine plays none of the corpus editions (it plays: {offered}; the corpus "
                         f"has: {', '.join(known)})")
    return editions


class _PlaysNone(EngineFailure):
    """The engine's hello lists no edition of the corpus: nothing can be checked (exit 3, reported)."""


def _select(args: argparse.Namespace, corpus: list[Case], engine: Engine, files: dict[str, Edition],
            baselines: baseline.BaselineCheck | None) -> tuple[list[str], Selection, list[Case]]:
    """The editions, the selection and the cases it takes (UsageError when a baseline is of an edition
    the engine does not play, or nothing would run: no case, and no property or fuzzing result and
    no case or game of a baseline that --run and --skip let through)."""
    editions = _editions(args, corpus, engine.hello.editions)
    if baselines is not None:
        baselines.require_played(engine.hello.editions)
    selection = Selection(editions, _groups(args), args.assume, args.only, args.skip)
    readings = {spec.id for spec in files.values() if spec.kind == "reading"}
    cases = [case for case in selection.choose(corpus) if case.edition not in readings]
    if not cases and not (baselines is not None and baselines.selects(selection.wants_id)) and \
            not any(map(selection.wants_id, _campaign_ids(args, _specs(editions, files), engine.hello))):
        own = [spec for spec in files.values() if spec.kind == "reading"
               or not any(case.edition == spec.id for case in corpus)]
        if own and not (args.properties or args.fuzz):
            if own[0].kind == "reading":
                raise UsageError(f"--edition {own[0].path}: the corpus's {own[0].id} cases state the "
                                 "edition's rules, not the reading's: check an engine against a reading "
                                 "with --fuzz, against the reference engine playing it")
            raise UsageError(f"the corpus has no case for {own[0].id}, an edition of your own: check "
                             "it with --properties and --fuzz, against the reference engine playing "
                             "its file")
        hint = "; --run and --skip select fuzzing and property results too, by id: --run 'fuzz/*' " \
            "runs fuzzing alone, --run 'property/*' the properties" if args.properties or args.fuzz else ""
        raise UsageError(f"no case is selected (check --edition, --status, --assume, --run and --skip){hint}")
    return editions, selection, cases


def _groups(args: argparse.Namespace) -> tuple[str, ...]:
    """The corpus folders to run: --status, else those of --assume's reading, else the defaults."""
    return tuple(args.status or (("disputed",) if args.assume else DEFAULT_GROUPS))


def _specs(editions: list[str], files: dict[str, Edition]) -> list[Edition]:
    """The compiled specs of the editions checked: those given as files, the rest bundled."""
    by_id = {spec.id: spec for spec in files.values()}
    return [by_id.get(e) or load_spec(e) for e in editions]


def _campaign_ids(args: argparse.Namespace, specs: list[Edition], hello: Hello,
                  expected: bool = False) -> list[str]:
    """The result ids --properties and --fuzz may report for these specs, in the reports' order
    (the engine-dealt campaigns only for an engine that `wants_logged_games`); `expected`: those
    they report when every seat runs to its end."""
    dealt = (args.properties or args.fuzz) and campaigns.wants_logged_games(hello)
    properties = campaigns.expected_property_ids if expected else campaigns.property_ids
    return ((properties(specs) if args.properties else [])
            + (campaigns.fuzz_ids(specs) if args.fuzz else [])
            + (campaigns.dealt_ids(specs) if dealt else []))


def _verdict_code(results: list[Result]) -> int:
    """1 when a rules difference was found (a failure, an unexpected pass); else 3 when the engine
    could not be (re)started, so that something was not run; else 1 for any other bad result
    (errored); else 0. (docs/ci.md: 2, 130, 1, 3, 4 in that order.)"""
    if any(r.status in (FAILED, UNEXPECTED_PASS) for r in results):
        return exitcodes.FAILED
    if any(r.not_run for r in results):
        return exitcodes.ENGINE
    return exitcodes.OK if Tally.of(results).ok else exitcodes.FAILED


def run(args: argparse.Namespace) -> int:
    try:
        with StopSignals() as signals:
            code = _run(args, signals)
    finally:
        use_specs(())  # the reports of a later run in this process quote only its own files
    if signals.received and code == exitcodes.INTERRUPTED:
        print(f"llcheck check: stopped by {signals.received}; the results reached so far are kept"
              f"{'; not run: ' + signals.left if signals.left else ''}", file=sys.stderr)
    return code


def _run(args: argparse.Namespace, signals: StopSignals) -> int:
    began = time.perf_counter()
    _check_numbers(args)
    _check_names(args)
    args.json_stdout = args.json is True
    args.json = None if args.json is True else args.json
    _check_paths(args)
    _last_failed(args)
    files = _spec_files(args.edition)
    use_specs(files.values())
    _check_readings(args, files)
    reference = _reference_specs(args, files)
    args.edition = [files[e].id if e in files else e for e in args.edition or ()] or None
    impl: Impl = args.impl if args.impl is not None else serve_command(reference)
    corpus = _corpus(args, files)
    known = KnownFailures.load(args.known_failures) if args.known_failures else None
    if known is not None:
        known.check_ids(case.id for case in corpus)
    campaigns.require(args.properties, args.fuzz is not None)
    cluster.require(args.cluster)
    baselines = _baselines(args, files)
    make_engine = engine_factory(impl, timeout=args.timeout, validate=args.validate_protocol,
                                 launch=engine_options.launch(args), specs=reference)
    outputs = _Outputs(args)
    try:
        engine = make_engine()
    except EngineFailure as exc:
        return _cannot_start(args, outputs, start_failure(impl, exc), time.perf_counter() - began)
    try:
        editions, selection, cases = _select(args, corpus, engine, files, baselines)
    except _PlaysNone as exc:
        engine.close()
        return _cannot_start(args, outputs, str(exc), time.perf_counter() - began)
    except BaseException:
        engine.close()
        raise
    if known is not None:
        _note_never_run(known, corpus, engine.hello.editions)
    info = RunInfo(_named(args), engine.hello, _options(args, editions, selection.groups))
    session = _Session(args, info, known, outputs, cases, baselines, files, editions)
    with signals.polled() as stop:
        session.stop = stop
        outcome = run_cases(session.cases, make_engine, jobs=args.jobs, engine=engine,
                            on_result=session.record, case_timeout=args.case_timeout, stop=stop)
    interrupted = (outcome.interrupted and not session.halted) or signals.received is not None \
        or session.campaigns(make_engine, editions)
    checked = time.perf_counter() - began  # the baseline replay is timed on its own line
    if baselines is not None and not interrupted and not session.halted:
        interrupted = baselines.run(make_engine, session.selection, corpus, args.corpus)
    elif baselines is not None:  # stopped before the replay: its cases and games are not run
        baselines.stopped(session.selection)
    if interrupted:
        signals.left = session.left()
    with signals.held():
        return session.finish(checked, interrupted)


def _named(args: argparse.Namespace) -> str:
    """The engine as reports name it."""
    return args.impl if args.impl is not None else DEFAULT_IMPL


def _options(args: argparse.Namespace, editions: list[str], groups: Sequence[str]) -> dict[str, Any]:
    """The options of the run, as reports record them."""
    return {"editions": editions, "groups": list(groups), "assume": args.assume, "run": args.only,
            "skip": args.skip, "known_failures": args.known_failures, "jobs": args.jobs,
            "timeout": args.timeout, "validate_protocol": args.validate_protocol, "corpus": args.corpus,
            "properties": args.properties, "profile": args.profile if args.properties else None,
            "fuzz": args.fuzz, "seed": args.seed, "baseline": args.baseline,
            "case_timeout": args.case_timeout, **engine_options.described(args)}


def _edition_files(files: dict[str, Edition]) -> dict[str, str]:
    """The editions given as spec files: each file by the id of its edition."""
    return {spec.id: path for path, spec in files.items()}


def _baselines(args: argparse.Namespace, files: dict[str, Edition]) -> baseline.BaselineCheck | None:
    """The --baseline files, read before anything runs: UsageError for one that cannot be used (with
    the command recording it again, when its header can be read) or of an edition --edition leaves out."""
    if not args.baseline:
        return None
    try:
        baselines = baseline.BaselineCheck(args.baseline)
    except BaselineError as exc:
        advice = recovery(exc, _named(args), engine_options.given(args), _edition_files(files))
        raise UsageError(f"{exc}{advice}") from None
    baselines.require_editions(args.edition or ())
    return baselines


NO_HELLO = Hello(name="", version="", editions=(), capabilities=frozenset(), protocol="")
"""The engine in the reports of a run whose engine never said hello."""


def _cannot_start(args: argparse.Namespace, outputs: _Outputs, message: str, seconds: float) -> int:
    """Exit code 3 for an engine that cannot be started, said on stderr and in every report (one
    errored result, `engine/start`), so that CI publishing the reports shows why."""
    print(f"llcheck check: {message}", file=sys.stderr)
    info = RunInfo(_named(args), NO_HELLO, _options(args, args.edition or [], _groups(args)))
    result = Result("engine/start", ERRORED, group="engine", message=message, seconds=seconds,
                    replay=_Replay(args, {}).base, not_run=True)
    outputs.begin(info)
    outputs.result(result)
    report = Report(info, [result], seconds, exit_code=exitcodes.ENGINE)
    if args.shard is not None:  # every part says so: the merge keeps one
        report.shard = args.shard.described({result.id: 0})
    outputs.finish(report, lambda: _html_page(report, {}, {}))
    return exitcodes.BAD_INPUT if outputs.problems else exitcodes.ENGINE


def _html_page(report: Report, cases: dict[str, Case], files: dict[str, Edition]) -> str:
    """The --html page: the report's results, each failing case linked to its game (`cases` by id;
    the editions given as `files` played from them)."""
    def case_of(case_id: str) -> dict[str, Any] | None:
        case = cases.get(case_id)
        return case.to_json() if case is not None else None
    own = {spec.id: spec for spec in files.values()}
    return report_page(f"llcheck check: {report.info.impl}", report.to_json(), case_of,
                       lambda e: own.get(e) or load_spec(e))


def _note_never_run(known: KnownFailures, corpus: list[Case], plays: Sequence[str]) -> None:
    """A note on stderr naming the listed known failures the engine never runs: cases of an edition
    it does not play."""
    lines = known.unplayable({case.id: case.edition for case in corpus}, plays)
    if lines:
        print(f"llcheck check: note: {printable(known.path)} lists cases the engine never runs (it does not "
              f"play their edition): {', '.join(lines)}", file=sys.stderr)


class _Session:
    """Collects results as they come: known failures applied, replays added, streamed, counted."""

    def __init__(self, args: argparse.Namespace, info: RunInfo, known: KnownFailures | None,
                 outputs: _Outputs, cases: list[Case], baselines: baseline.BaselineCheck | None = None,
                 files: dict[str, Edition] | None = None, editions: list[str] | None = None):
        self.args, self.info, self.known, self.outputs = args, info, known, outputs
        self.baselines = baselines
        self.files = files or {}
        """The editions given as spec files, by the --edition value naming them."""
        self.paths = _edition_files(self.files)
        """The same files, by edition id (what replay and record commands name)."""
        self.replay = _Replay(args, self.paths)
        self.selection = Selection(run=args.only, skip=args.skip, shard=args.shard)
        self.cases = [case for case in cases if self.selection.wants_id(case.id)]
        """The cases run: those selected, in the --shard part."""
        self.results: list[Result] = []
        self.usage_error: UsageError | None = None
        self.rank = {case.id: n for n, case in enumerate(cases)}
        """Where each result id stands in the reports' order (in the whole run's, with --shard)."""
        self.by_id = {case.id: case for case in cases}
        """Every case by its id (for the --html page)."""
        self.expected = [case.id for case in self.cases] + \
            list(filter(self.selection.wants_id,
                        _campaign_ids(args, _specs(editions or [], self.files), info.hello, expected=True)))
        """The ids of the results the run reports when it runs to its end."""
        self.progress = Progress(len(self.expected), "cases and results", every=args.progress_every)
        self.stop = threading.Event()
        """Set to stop the cases run (--max-fail)."""
        self.spec_gaps: dict[str, int] = {}
        """`under your spec FILE, clause X (FILE:LINE)`: how many results stopped there."""
        self.bad = 0
        self.halted = False
        """True once --max-fail results went wrong: what is left is not run."""
        self.campaigns_begun = False
        outputs.begin(info)

    def record(self, result: Result) -> None:
        """Take one result (none once --max-fail is reached: those still running when it was are
        dropped)."""
        if self.halted or (result.kind != "case" and not self.selection.wants_id(result.id)):
            return
        if self.known is not None:
            result = self.known.apply(result)
        if result.status in BAD:
            result.replay = self.replay(result)
        blamed = blamed_on_spec(result.message) if result.status == ERRORED else None
        if blamed is not None:  # the reference engine playing your spec: the spec is to blame
            result.message = blamed
            self.spec_gaps.setdefault(blamed.partition(f" {GAP}")[0], 0)
            self.spec_gaps[blamed.partition(f" {GAP}")[0]] += 1
        self.results.append(result)
        self.outputs.result(result)
        self.progress.update(len(self.results), result.id)
        self.bad += result.status in BAD
        if self.args.max_fail is not None and self.bad >= self.args.max_fail and not self.halted:
            self.halted = True
            self.stop.set()

    def campaigns(self, make_engine: campaigns.MakeEngine, editions: list[str]) -> bool:
        """Run --properties and --fuzz; True when interrupted. A usage error stops them and is kept."""
        args = self.args
        self.campaigns_begun = True
        specs = _specs(editions, self.files)
        wanted = self.selection.wants_id
        for result_id in _campaign_ids(args, specs, self.info.hello):  # the reports' order, whatever
            self.rank.setdefault(result_id, len(self.rank))                # order they finish in
        try:
            if args.properties and not self.halted:
                campaigns.run_properties(make_engine, specs, args.profile, args.seed, self.record, args.jobs,
                                         wanted, self.info.hello, args.cluster)
            if args.fuzz and not self.halted:
                campaigns.run_fuzz(make_engine, specs, args.fuzz, args.seed, Path(args.fuzz_dir), self.record,
                                   args.jobs, wanted, self.info.hello,
                                   ignore_clauses=_fuzz_ignored(args.fuzz_ignore, specs),
                                   cluster=args.cluster)
            if (args.properties or args.fuzz) and campaigns.wants_logged_games(self.info.hello) \
                    and not self.halted:
                games = args.fuzz or campaigns.DEALT_GAMES
                campaigns.run_dealt(make_engine, specs, games, args.seed, self.record, self.info.hello,
                                    args.jobs, wanted)
        except KeyboardInterrupt:
            return True
        except UsageError as exc:
            self.usage_error = exc
        return False

    def left(self) -> str:
        """What a stopped run did not run: the cases and campaign results it expected and did not
        get, and the campaigns it never began."""
        done = {result.id for result in self.results}
        missing = sum(1 for result_id in self.expected if result_id not in done)
        parts = [f"{missing} of {len(self.expected)} cases and campaign results"] if missing else []
        if not self.campaigns_begun:
            parts += [option for option, asked in (("--properties", self.args.properties),
                                                   ("--fuzz", self.args.fuzz)) if asked]
        return ", ".join(parts) or "nothing"

    def finish(self, seconds: float, interrupted: bool) -> int:
        """Order the results, write every report, print the text report; the exit code."""
        self.progress.close()
        results = sorted(self.results, key=lambda r: (r.kind != "case", self.rank.get(r.id, len(self.rank))))
        if self.usage_error is not None or self.spec_gaps:
            code = exitcodes.BAD_INPUT
        elif interrupted:
            code = exitcodes.INTERRUPTED
        else:
            code = _verdict_code(results)
        report = Report(self.info, results, seconds, interrupted, code,
                        not_run=self.left() if interrupted else "")
        if self.args.shard is not None:
            report.shard = self.args.shard.described({r.id: self.rank.get(r.id, len(self.rank))
                                                      for r in results})
        record = baseline_report.record_command(self.info.impl, engine_options.given(self.args), self.paths)
        if self.baselines is not None:
            report.exit_code = code = self.baselines.exit_code(code)
            report.baseline = baseline_report.to_json(self.baselines.files, self.replay.base, record)
        self.outputs.finish(report, lambda: _html_page(report, self.by_id, self.files))
        if self.args.json_stdout:
            print(json.dumps(report.to_json(), indent=1, ensure_ascii=False, default=repr))
        else:
            print(text_report(report, quiet=self.args.quiet))
        played = engine_reading.played(results)
        if played:
            if not self.args.json_stdout:
                print("\n" + "\n".join(engine_reading.text_lines(played)))
            if self.args.write_reading:
                for line in engine_reading.write(played, self.args.write_reading, self.info.impl):
                    print(line, file=sys.stderr if self.args.json_stdout else sys.stdout)
        for where, count in self.spec_gaps.items():
            print(f"llcheck check: {where} {GAP} ({counted(count, 'result')} stopped there): the spec is "
                  "incomplete, not the engine", file=sys.stderr)
        if self.halted:
            print(f"llcheck check: stopped after {counted(self.bad, 'result')} went wrong "
                  f"(--max-fail {self.args.max_fail}): what was left is not run", file=sys.stderr)
        if self.baselines is not None and not self.args.json_stdout:
            print("\n".join(baseline_report.text_lines(self.baselines.files, self.replay.base, record,
                                                       self.baselines.interrupted,
                                                       failing=code == exitcodes.FAILED)))
        if self.usage_error is not None:
            raise self.usage_error
        return exitcodes.BAD_INPUT if self.outputs.problems and not interrupted else code
