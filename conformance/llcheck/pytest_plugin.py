"""pytest plugin: run the conformance corpus inside any test suite, one test per case.

    pytest --llcheck-impl='node my-engine.js' [--llcheck-edition E] [--llcheck-known-failures F]

Each case becomes a test named by its id (under the node `llcheck-corpus`: `pytest
'llcheck-corpus::ID'` runs it again), so -k (which also matches the clause ids and tags a case
names), -x, --junitxml and the rest of pytest work as usual; the editions are those the engine's
hello lists unless --llcheck-edition chooses; a failing case shows the clauses it checks, where
the engine diverged, expected and actual. One engine serves every case and is replaced when it
breaks. The fixture `llcheck_engine_factory` gives tests a callable returning a fresh engine.

Without --llcheck-impl the plugin adds no test to a run (the fixture then skips its test); it only
makes the properties' hypothesis profiles known to --hypothesis-profile. A failure ends with the
`llcheck check` command that runs it again. Every option is described in docs/ci.md ("The corpus
inside your own pytest run").
"""

from __future__ import annotations

import contextlib
import shlex
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .arguments import seconds

if TYPE_CHECKING:  # the harness is imported only when --llcheck-impl is given
    from .engines.base import Engine
    from .harness.cases import Case
    from .harness.known import KnownFailures
    from .harness.results import Result

FOLDERS = ("required", "optional", "disputed", "golden")
"""Corpus folders (llcheck.harness.cases.STATUSES), named here to keep pytest's start-up light."""

DEFAULT_FOLDERS = ("required", "optional", "golden")
"""The folders run by default (llcheck.harness.select.DEFAULT_GROUPS)."""

TIMEOUT = 10.0
"""Seconds a protocol engine may take per request, unless --llcheck-timeout says otherwise."""

KNOWN = pytest.StashKey["KnownFailures | None"]()
"""Where the run keeps the --llcheck-known-failures list, once loaded."""

NODE = "llcheck-corpus"
"""The node holding the cases: a case's node id is `llcheck-corpus::CASE_ID`."""

CHOSEN = pytest.StashKey["list[str]"]()
"""The case node ids given on the command line (`llcheck-corpus::ID`), taken out of the paths."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("llcheck", "Love Letter conformance corpus (llcheck)")
    group.addoption("--llcheck-impl", metavar="IMPL",
                    help="engine under test: reference, python:MODULE:CLASS, or a protocol command")
    group.addoption("--llcheck-edition", action="append", metavar="E", help="only cases of this edition")
    group.addoption("--llcheck-status", action="append", choices=FOLDERS, metavar="FOLDER",
                    help=f"corpus folders to run (default: {', '.join(DEFAULT_FOLDERS)})")
    group.addoption("--llcheck-known-failures", metavar="FILE", help="cases expected to fail (xfail, strict)")
    group.addoption("--llcheck-timeout", type=seconds, default=TIMEOUT, metavar="S",
                    help=f"seconds a protocol engine may take per request (default {TIMEOUT:g})")
    group.addoption("--llcheck-validate-protocol", action="store_true",
                    help="check every engine message against the protocol schema")
    group.addoption("--llcheck-corpus", metavar="DIR", help="a case folder instead of the bundled corpus")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Make the properties' hypothesis profiles known before hypothesis loads the one that
    --hypothesis-profile names (`thorough`; a profile hypothesis has already, `ci`, is left as it is)."""
    if config.getoption("hypothesis_profile", None):
        from .hypothesis_profiles import register
        register(missing_only=True)
    _take_case_ids(config)


def _take_case_ids(config: pytest.Config) -> None:
    """Node ids of cases given as arguments (`llcheck-corpus::ID`, as the summary prints them, or
    `llcheck-corpus` for all) are no paths: pytest would look for a file of that name. They are
    taken out of the arguments and choose the cases; given alone, nothing else is collected."""
    chosen = [arg for arg in config.args if arg == NODE or arg.startswith(f"{NODE}::")]
    config.stash[CHOSEN] = chosen
    config.args[:] = [arg for arg in config.args if arg not in chosen]


def _factory(config: pytest.Config) -> Callable[[], Engine] | None:
    impl = config.getoption("llcheck_impl")
    if not impl:
        return None
    from .engines.loader import engine_factory
    return engine_factory(impl, timeout=config.getoption("llcheck_timeout"),
                          validate=config.getoption("llcheck_validate_protocol"))


@pytest.fixture(scope="session")
def llcheck_engine_factory(pytestconfig: pytest.Config) -> Callable[[], Engine]:
    """A callable returning a fresh engine for --llcheck-impl (the test is skipped without it)."""
    factory = _factory(pytestconfig)
    if factory is None:
        pytest.skip("no engine under test: run pytest with --llcheck-impl=IMPL")
    return factory


class _SharedEngine:
    """The one engine that serves every case, started on first use and replaced when it breaks."""

    def __init__(self, factory: Callable[[], Engine]):
        self.factory = factory
        self.engine: Engine | None = None
        self.broken_start: str | None = None

    def get(self) -> Engine:
        """The engine (pytest.fail if it cannot be started)."""
        if self.broken_start is not None:
            pytest.fail(self.broken_start, pytrace=False)
        if self.engine is None:
            try:
                self.engine = self.factory()
            except Exception as exc:  # every later case reports the same reason without retrying
                self.broken_start = f"cannot talk to the engine: {' '.join(str(exc).split())}"
                pytest.fail(self.broken_start, pytrace=False)
        return self.engine

    def discard(self) -> None:
        """Stop the engine; the next case starts a new one."""
        engine, self.engine = self.engine, None
        if engine is not None:
            with contextlib.suppress(Exception):  # a broken engine must not fail the next test
                engine.close()


class CaseFailed(Exception):
    """A case failed or errored; carries the result for the failure report."""

    def __init__(self, result: Result):
        super().__init__(result.message)
        self.result = result


class CaseItem(pytest.Item):
    """One conformance case as a test."""

    def __init__(self, *, case: Case, shared: _SharedEngine, known: KnownFailures | None, **kwargs: Any):
        super().__init__(**kwargs)
        self.case = case
        self.shared = shared
        self.known = known
        self.extra_keyword_matches.update(case.clauses + case.tags)

    def runtest(self) -> None:
        from .harness.runner import run_case
        result = run_case(self.shared.get(), self.case)
        if result.engine_broken:
            self.shared.discard()
        settle(result, self.known, replay(self.config, result))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, CaseFailed):
            from .harness.text import failure
            return "\n".join(failure(excinfo.value.result))
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        return Path(self.case.path), self.case.line - 1, f"llcheck case {self.case.id}"


def settle(result: Result, known: KnownFailures | None, command: str) -> None:
    """Pass, skip, xfail (a listed known failure) or fail the running test as `result` says; a
    failure carries `command`, the llcheck command that runs it again."""
    from .harness.results import ERRORED, FAILED, NOT_APPLICABLE, PASSED, SKIPPED
    reason = known.entries.get(result.id) if known is not None else None
    if result.status in (SKIPPED, NOT_APPLICABLE):
        pytest.skip(result.message)
    if reason is not None and result.status in (FAILED, ERRORED):
        pytest.xfail(f"known failure ({reason[1]}): {result.message}")
    if reason is not None and result.status == PASSED:
        pytest.fail(f"passed, but it is listed as a known failure ({reason[1]}); remove it from "
                    f"{known.path if known else 'the list'}", pytrace=False)
    if result.status in (FAILED, ERRORED):
        raise CaseFailed(replace(result, replay=command))


def replay(config: pytest.Config, result: Result, **options: Any) -> str:
    """The `llcheck check` command that runs `result` again with this run's options (and, for a
    property, `options`' `profile` and `seed`)."""
    command = f"llcheck check --impl {shlex.quote(config.getoption('llcheck_impl'))}"
    corpus = config.getoption("llcheck_corpus")
    if corpus:
        command += f" --corpus {shlex.quote(corpus)}"
    if config.getoption("llcheck_validate_protocol"):
        command += " --validate-protocol"
    if config.getoption("llcheck_timeout") != TIMEOUT:
        command += f" --timeout {config.getoption('llcheck_timeout'):g}"
    if result.kind == "property":
        command += f" --properties --profile {shlex.quote(options['profile'])} --seed {options['seed']} " \
                   f"--edition {shlex.quote(result.edition)}"
    elif result.group not in DEFAULT_FOLDERS:
        command += f" --status {result.group}"
    known = known_failures(config)
    if known is not None and result.id in known.entries:
        command += f" --known-failures {shlex.quote(str(known.path))}"
    return f"{command} --run {shlex.quote(result.id)}"


class Corpus(pytest.Collector):
    """The selected cases of the corpus."""

    def __init__(self, *, cases: list[Case], shared: _SharedEngine, known: KnownFailures | None,
                 **kwargs: Any):
        super().__init__(**kwargs)
        self.cases, self.shared, self.known = cases, shared, known

    def collect(self) -> Iterator[CaseItem]:
        for case in self.cases:
            yield CaseItem.from_parent(self, name=case.id, case=case, shared=self.shared, known=self.known)

    def teardown(self) -> None:
        self.shared.discard()


def _corpus(config: pytest.Config, plays: tuple[str, ...]) -> tuple[list[Case], KnownFailures | None]:
    """The cases selected: of --llcheck-edition, else of every edition the engine's hello lists;
    of the node ids given, when some were."""
    from .errors import UsageError
    from .harness.cases import CaseError, load_corpus
    from .harness.known import KnownFailures
    from .harness.select import Selection
    folder = config.getoption("llcheck_corpus")
    try:
        cases = load_corpus(Path(folder) if folder else None)
        known_path = config.getoption("llcheck_known_failures")
        known = KnownFailures.load(known_path) if known_path else None
        if known is not None:
            known.check_ids(case.id for case in cases)
    except CaseError as exc:
        raise pytest.UsageError("llcheck corpus: " + "; ".join(str(p) for p in exc.problems[:5])) from None
    except UsageError as exc:
        raise pytest.UsageError(f"llcheck: {exc}") from None
    config.stash[KNOWN] = known
    selection = Selection(config.getoption("llcheck_edition") or plays,
                          config.getoption("llcheck_status") or DEFAULT_FOLDERS)
    chosen = _chosen_ids(config, cases)
    return [case for case in selection.choose(cases) if chosen is None or case.id in chosen], known


def _chosen_ids(config: pytest.Config, cases: list[Case]) -> set[str] | None:
    """The case ids named by node id on the command line (None: no node id chose any)."""
    chosen = config.stash.get(CHOSEN, [])
    if not chosen or NODE in chosen:
        return None
    ids = {arg.removeprefix(f"{NODE}::") for arg in chosen}
    unknown = sorted(ids - {case.id for case in cases})
    if unknown:
        raise pytest.UsageError(f"llcheck: no case {unknown[0]} in the corpus ({NODE}::ID names a case by "
                                "its id)")
    return ids


def _check_engine(config: pytest.Config, factory: Callable[[], Engine]) -> tuple[str, ...]:
    """Start the engine once: one that cannot be started, or does not play an --llcheck-edition, is
    one usage error rather than a failure per test. The editions its hello lists."""
    from .engines.pipes import printable
    try:
        engine = factory()
    except Exception as exc:  # EngineFailure, or an adapter that cannot be imported or built
        raise pytest.UsageError(f"llcheck: cannot start the engine: {' '.join(str(exc).split())}") from None
    plays = engine.hello.editions
    with contextlib.suppress(Exception):
        engine.close()
    for edition in config.getoption("llcheck_edition") or ():
        if edition not in plays:
            raise pytest.UsageError(f"llcheck: --llcheck-edition: the engine does not play "
                                    f"{printable(edition, 100)} (it plays: {', '.join(plays) or 'nothing'})")
    return plays


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                   items: list[pytest.Item]) -> None:
    """Add one test per selected case (before -k and deselection see the items)."""
    factory = _factory(config)
    if factory is None:
        return
    cases, known = _corpus(config, _check_engine(config, factory))
    corpus = Corpus.from_parent(session, name=NODE, nodeid=NODE, cases=cases,
                                shared=_SharedEngine(factory), known=known)
    added = list(corpus.collect())
    items.extend(added)
    # reported as collected, so that pytest's "collected N items / M selected" counts the cases
    config.hook.pytest_collectreport(report=pytest.CollectReport(corpus.nodeid, "passed", None, [*added]))


def known_failures(config: pytest.Config) -> KnownFailures | None:
    """The --llcheck-known-failures list (None without one)."""
    return config.stash.get(KNOWN, None)
