"""Shared fixtures: editions, explicit deals, and the `clause` marker naming rule clauses."""

from __future__ import annotations

import importlib
import os
import pkgutil
import signal
from collections.abc import Sequence
from pathlib import Path

import pytest

import llcheck
import loveletter_ref
from llcheck import hypothesis_profiles
from llcheck.commands.check import FUZZ_DIR
from loveletter_ref import Action, Game, load_spec
from loveletter_ref.engine import build_deck
from loveletter_ref.spec import Edition

EDITIONS = ("classic", "z-man-2019")

os.environ.setdefault("LLCHECK_PROGRESS_EVERY", "0")  # no progress lines amid the stderr tests compare

hypothesis_profiles.load()  # profile `ci` (fast, derandomized) unless $HYPOTHESIS_PROFILE names another


def _import_every_module() -> None:
    """Import every module of both packages before any test runs. Hypothesis draws a few choices
    from constants it finds in the local modules imported so far: without this, the games a
    derandomized property run or fuzzing campaign explores would depend on which tests ran first."""
    for package in (llcheck, loveletter_ref):
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if not module.name.endswith(".__main__"):
                importlib.import_module(module.name)


_import_every_module()


@pytest.fixture(autouse=True, scope="session")
def _cache_home(tmp_path_factory: pytest.TempPathFactory):
    """Fuzzing and property campaigns keep hypothesis's files in llcheck's cache folder: during
    the tests, a temporary one rather than the user's ~/.cache."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        yield


def _saved_cases() -> set[Path]:
    """The fuzz cases in `llcheck check`'s default --fuzz-dir, below where pytest runs and below
    the checkout."""
    folders = {Path.cwd(), Path(__file__).resolve().parents[1]}
    return {path for folder in folders for path in (folder / FUZZ_DIR).rglob("*")}


@pytest.fixture(autouse=True, scope="session")
def _checkout_left_alone():
    """The tests leave no fuzz case in the user's folders: a test that makes `check --fuzz` find a
    difference gives it a --fuzz-dir of its own (one that did not once committed its case)."""
    before = _saved_cases()
    yield
    left = sorted(map(str, _saved_cases() - before))
    assert not left, f"the tests wrote into the default --fuzz-dir: {', '.join(left)}"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "clause(*ids): the rule clauses (full ids) a test checks")


CORPUS_COVERAGE = pytest.StashKey[str]()
"""The clause coverage table of the case corpus, with its clause pair and player-count totals, set
by tests/test_corpus.py."""


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    """Print the corpus coverage (clause -> required cases, then the clause pairs and player-count
    clauses covered) after the test results, as CI shows it."""
    table = config.stash.get(CORPUS_COVERAGE, "")
    if table:
        terminalreporter.section("conformance corpus: clauses covered by required cases")
        terminalreporter.write_line(table)


@pytest.fixture
def sigint_delivered():
    """Ctrl-C reaches this process and the programs it starts, even when pytest itself was started
    with SIGINT ignored (a background job of a non-interactive shell, nohup)."""
    before = signal.getsignal(signal.SIGINT)
    if before == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


@pytest.fixture(scope="session")
def classic() -> Edition:
    return load_spec("classic")


@pytest.fixture(scope="session")
def z19() -> Edition:
    return load_spec("z-man-2019")


def deal(edition: str | Edition, players: int, hands: Sequence[str], draws: Sequence[str] = (), *,
         first: int = 0, tokens: Sequence[int] | None = None, **deck: Sequence[str]) -> Game:
    """A game whose first round is dealt so that seats hold `hands` and draws come in order."""
    spec = load_spec(edition) if isinstance(edition, str) else edition
    game = Game(spec, players, first_player=first, tokens=tokens)
    game.start_round(build_deck(spec, players, hands, draws, **deck))
    return game


def play(card: str, target: int | None = None, guess: str | int | None = None) -> Action:
    """A play action."""
    return Action("play", card, target, guess)


def keep(card: str, *returned: str) -> Action:
    """A keep action (draw-and-return)."""
    return Action("keep", card, returned=tuple(returned))


def types(events: list[dict]) -> list[str]:
    """Event types, in order."""
    return [e["type"] for e in events]


def run_llcheck(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of `llcheck ARGS` (argparse's own errors included)."""
    from llcheck.cli import main
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err
