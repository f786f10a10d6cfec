"""Properties and differential fuzzing, run for every selected edition and player count and
reported like cases (`property/<name>/<edition>/<n>p`, `fuzz/<edition>/<n>p`), with the clauses
and tags their cases name: a property's clauses, tagged `property` and its name; a difference
found by fuzzing, its suspected clauses and its saved case's tags.

The properties (`llcheck.properties.run_properties`) and the fuzzer (`llcheck.fuzz.run_fuzz`)
live in their own packages, loaded (with hypothesis) only when a campaign is asked for; when one
is missing, asking for it is a usage error. A campaign that raises is an errored result, except
for a UsageError (a bad profile, say), which is passed on.

With `jobs` above one, the editions and player counts are shared among that many worker
processes, each with engines of its own (`make_engine` is sent to them, so it must pickle, as
the command line's does). Each one is checked exactly as it would be alone, and the results
are returned in the same order, so a run finds what it finds whatever the number of jobs (they
reach `on_result` as each edition and player count is done, so that a stopped run keeps them).
With `cluster`, each edition and player count is a task on that Dask cluster instead
(`llcheck.cluster`), checked and returned the same way.

Hypothesis keeps files (the constants it reads from local modules, the `thorough` profile's
example database) under `.hypothesis/` in the working directory; while a campaign runs, they go
to llcheck's cache folder instead (`_hypothesis_home`), so that checking an engine leaves nothing
in the user's project.

Hypothesis also draws some values from the constants of the local modules loaded (those outside
site-packages: an editable install's), so a campaign could explore other games in a process that
happened to load other modules (a cluster's worker, a `--jobs` worker after another seat loaded
more). Every process running a seat first loads every module of llcheck and loveletter_ref
(`_every_module`), so that the same seed plays the same games wherever it runs.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import os
import pkgutil
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from loveletter_ref.spec import Edition

from .engines.base import Engine, Hello
from .engines.guard import adapters_own, described
from .engines.process import kill_leftovers
from .errors import UsageError
from .harness.applicable import one_step_reason, seat_reason
from .harness.results import ERRORED, NOT_APPLICABLE, Result, campaign_status
from .logs.dealt import dealt_id
from .logs.dealt import run_dealt as play_dealt
from .workers import as_done, ended

MakeEngine = Callable[[], Engine]

Seat = tuple[Edition, int]
"""A compiled spec and a player count: what one campaign checks. (The spec itself, not its id:
it may come from a file that is not bundled.)"""


def _unavailable(option: str, name: str, exc: ImportError) -> UsageError:
    return UsageError(f"{option} is not available: {name} cannot be loaded ({exc})")


def _run_fuzz() -> Callable[..., Any]:
    """`llcheck.fuzz.run_fuzz`, loaded when asked for (it brings hypothesis); UsageError without it."""
    try:
        from .fuzz import run_fuzz
    except ImportError as exc:
        raise _unavailable("--fuzz", "llcheck.fuzz.run_fuzz", exc) from None
    return run_fuzz


def _run_properties() -> Callable[..., Any]:
    """`llcheck.properties.run_properties`, loaded when asked for; UsageError without it."""
    try:
        from .properties import run_properties
    except ImportError as exc:
        raise _unavailable("--properties", "llcheck.properties.run_properties", exc) from None
    return run_properties


def _property_names() -> list[str]:
    """The properties' names (`llcheck.properties.property_names`); UsageError without them."""
    try:
        from .properties import property_names
    except ImportError as exc:
        raise _unavailable("--properties", "llcheck.properties.property_names", exc) from None
    return property_names()


def require(properties: bool, fuzz: bool) -> None:
    """UsageError before anything runs when a requested campaign is not available."""
    if properties:
        _run_properties()
        _property_names()
    if fuzz:
        _run_fuzz()


def profile_names() -> list[str]:
    """The hypothesis profiles --properties takes ([] when they cannot be loaded)."""
    try:
        from .hypothesis_profiles import PROFILES  # it brings hypothesis
    except ImportError:
        return []
    return list(PROFILES)


CAMPAIGN_NEEDS = ("deck", "tokens", "stray_fields")
"""What a property or fuzzing campaign needs of an engine: it deals given decks, compares favour
tokens with the reference's, and probes plays with stray fields."""

Wanted = Callable[[str], bool]
"""Whether a result id is wanted (`--run`, `--skip`): a seat none of whose ids is wanted is not run."""


def _seats(editions: list[Edition]) -> list[Seat]:
    return [(edition, players) for edition in editions
            for players in range(edition.min_players, edition.max_players + 1)]


def fuzz_ids(editions: list[Edition]) -> list[str]:
    """The result id of each edition and player count a fuzzing campaign checks."""
    return [_fuzz_id(seat) for seat in _seats(editions)]


def property_ids(editions: list[Edition]) -> list[str]:
    """The result ids a property campaign may report, for every edition and player count."""
    return [i for seat in _seats(editions) for i in _property_ids(seat)]


def expected_property_ids(editions: list[Edition]) -> list[str]:
    """The result ids a property campaign reports when every seat runs to its end: one per property,
    without the `all` id that stands in for a seat whose run broke as a whole (for progress)."""
    return [_property_id(name, seat) for seat in _seats(editions) for name in _property_names()]


def _fuzz_id(seat: Seat) -> str:
    return f"fuzz/{seat[0].id}/{seat[1]}p"


def _property_id(name: str, seat: Seat) -> str:
    from .properties.reported import property_id  # loaded with the properties

    return property_id(name, seat[0].id, seat[1])


def _property_ids(seat: Seat) -> list[str]:
    return [_property_id(name, seat) for name in [*_property_names(), "all"]]


def _campaign(work: Callable[[Seat], list[Result]], editions: list[Edition], jobs: int,
              on_result: Callable[[Result], None], wanted: Callable[[Seat], bool],
              died: Callable[[Seat, int | None], list[Result]],
              not_applicable: Callable[[Seat], list[Result]] = lambda seat: [],
              cluster: str | None = None) -> list[Result]:
    """`work(seat)` for every wanted edition and player count, each seat's results passed to
    `on_result` as soon as it is done (in seat order with one job; with more, in the order they
    finish) and returned in seat order; in `jobs` processes, the longest first (`_size`), each
    killing the engine programs it started when it is ended (a seat whose process dies gets the
    results `died` gives), or as tasks on `cluster`; hypothesis's files in `_hypothesis_home()` (a
    cluster's worker: its own, on its machine)."""
    seats = [seat for seat in _seats(editions) if wanted(seat)]
    batches: dict[int, list[Result]] = {}
    played = []
    for index, seat in enumerate(seats):
        outside = not_applicable(seat)
        if outside:
            batches[index] = outside
            for result in outside:
                on_result(result)
        else:
            played.append(index)
    with contextlib.ExitStack() as stack:
        run = functools.partial(_at_own_home, work) if cluster else \
            functools.partial(_at_home, stack.enter_context(_hypothesis_home()), work)
        for index, batch in as_done(run, [seats[i] for i in played], jobs, first=_size,
                                    cleanup=kill_leftovers, died=died, cluster=cluster):
            for result in batch:
                on_result(result)
            batches[played[index]] = batch
    return [result for index in sorted(batches) for result in batches[index]]


def wants_logged_games(hello: Hello) -> bool:
    """True for an engine whose campaigns are logged games (`run_dealt`), which the fuzzer and
    the properties cannot drive: one that deals itself, keeps no tokens, cannot refuse stray
    fields, or takes a one-step Chancellor."""
    return any(not hello.can(need) for need in CAMPAIGN_NEEDS) or hello.can("one_step_chancellor")


def _outside(hello: Hello | None, kind: str, ids: Callable[[Seat], list[str]], seat: Seat) -> list[Result]:
    """The not-applicable results of a seat the engine does not play ([] when it does, or when
    its hello is not known)."""
    if hello is None:
        return []
    reason = seat_reason(hello, seat[0].id, seat[1], CAMPAIGN_NEEDS) or one_step_reason(hello, seat[0])
    if reason is None:
        return []
    return [Result(result_id, NOT_APPLICABLE, kind=kind, group=kind, edition=seat[0].id, players=seat[1],
                   message=reason) for result_id in ids(seat)]


def _size(seat: Seat) -> int:
    """Minus a seat's players times its cards: a round's turns grow with the deck, and each turn's
    state with the players, so the largest games, started first, keep the processes evenly busy."""
    edition, players = seat
    return -players * len(edition.deck(players))


def _at_home(home: Path, work: Callable[[Seat], list[Result]], seat: Seat) -> list[Result]:
    """`work(seat)` with hypothesis's files in `home` (in whichever process runs it), then where
    hypothesis would put them."""
    from hypothesis.configuration import set_hypothesis_home_dir  # only campaigns need hypothesis

    _every_module()
    set_hypothesis_home_dir(home)
    try:
        return work(seat)
    finally:
        set_hypothesis_home_dir(None)


def _at_own_home(work: Callable[[Seat], list[Result]], seat: Seat) -> list[Result]:
    """`work(seat)` with hypothesis's files where `_hypothesis_home()` puts them in this process
    (a worker of a cluster, maybe on another machine, as another user)."""
    with _hypothesis_home() as home:
        return _at_home(home, work, seat)


@functools.cache
def _every_module() -> None:
    """Import every module of llcheck and loveletter_ref (but `__main__`, which runs the command):
    the constants hypothesis draws from are then the same in every process (those whose optional
    dependencies are missing, such as `llcheck.cluster_cleanup` without Dask, hold none it uses)."""
    import llcheck
    import loveletter_ref

    for package in (loveletter_ref, llcheck):
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if not module.name.endswith(".__main__"):
                with contextlib.suppress(ImportError):
                    importlib.import_module(module.name)


@contextlib.contextmanager
def _hypothesis_home() -> Iterator[Path]:
    """Where a campaign keeps hypothesis's files: `$HYPOTHESIS_STORAGE_DIRECTORY` when set, else
    `_cache_folder()`, else a temporary folder removed when the block ends."""
    chosen = os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY")
    folder = Path(chosen) if chosen else _cache_folder()
    if folder is not None:
        yield folder
        return
    with tempfile.TemporaryDirectory(prefix="llcheck-hypothesis-") as scratch:
        yield Path(scratch)


def _cache_folder() -> Path | None:
    """`$XDG_CACHE_HOME/llcheck/hypothesis` (`~/.cache/llcheck/hypothesis` when the variable is
    unset or not absolute), created if need be; None when it cannot be created or written."""
    try:
        base = Path(os.environ.get("XDG_CACHE_HOME", ""))
        folder = (base if base.is_absolute() else Path.home() / ".cache") / "llcheck" / "hypothesis"
        folder.mkdir(parents=True, exist_ok=True)
    except (OSError, RuntimeError):  # RuntimeError: no home directory
        return None
    return folder if os.access(folder, os.W_OK) else None


def run_properties(make_engine: MakeEngine, editions: list[Edition], profile: str, seed: int | None,
                   on_result: Callable[[Result], None], jobs: int = 1,
                   wanted: Wanted = lambda result_id: True, hello: Hello | None = None,
                   cluster: str | None = None) -> list[Result]:
    """Every property for every edition and player count, as results (in `jobs` processes, or on
    `cluster`); with the engine's `hello`, those it does not play are not applicable."""
    check = _run_properties()
    def ids(seat: Seat) -> list[str]:
        return [i for i in (_property_id(name, seat) for name in _property_names()) if wanted(i)]

    return _campaign(functools.partial(_property_results, check, make_engine, profile, seed), editions, jobs,
                     on_result, lambda seat: any(map(wanted, _property_ids(seat))),
                     lambda seat, exitcode: [_died(_property_id("all", seat), "property", seat, exitcode)],
                     functools.partial(_outside, hello, "property", ids), cluster)


def _property_results(check: Callable[..., Any], make_engine: MakeEngine, profile: str, seed: int | None,
                      seat: Seat) -> list[Result]:
    spec, players = seat
    edition = spec.id
    began = time.perf_counter()
    try:
        found = check(make_engine, spec, [players], profile, seed)
    except UsageError:
        raise
    except BaseException as exc:  # a campaign that breaks (sys.exit() too) is reported, the run goes on
        if not adapters_own(exc):
            raise
        return [Result(_property_id("all", seat), ERRORED, kind="property", group="property",
                       edition=edition, players=players, seconds=time.perf_counter() - began,
                       message=f"the properties raised {described(exc)}")]
    from .properties.reported import property_result  # loaded with the properties

    seconds = (time.perf_counter() - began) / max(1, len(found))
    return [property_result(item, seat, seconds) for item in found]


def _died(result_id: str, kind: str, seat: Seat, exitcode: int | None) -> Result:
    """The result of a seat whose worker process died (an adapter calling os._exit, say)."""
    return Result(result_id, ERRORED, kind=kind, group=kind, edition=seat[0].id, players=seat[1],
                  message=f"the worker process running it died ({ended(exitcode)})")


def run_fuzz(make_engine: MakeEngine, editions: list[Edition], n: int, seed: int, out_dir: Path,
             on_result: Callable[[Result], None], jobs: int = 1,
             wanted: Wanted = lambda result_id: True, hello: Hello | None = None,
             ignore_clauses: tuple[str, ...] = (), cluster: str | None = None) -> list[Result]:
    """A differential fuzzing campaign of `n` games per edition and player count, as results (in
    `jobs` processes, or on `cluster`); with the engine's `hello`, those it does not play are not
    applicable; differences suspecting `ignore_clauses` are looked past."""
    fuzz = _run_fuzz()
    work = functools.partial(_fuzz_results, fuzz, make_engine, n, seed, out_dir, ignore_clauses)
    return _campaign(work, editions, jobs,
                     on_result, lambda seat: wanted(_fuzz_id(seat)),
                     lambda seat, exitcode: [_died(_fuzz_id(seat), "fuzz", seat, exitcode)],
                     functools.partial(_outside, hello, "fuzz", lambda seat: [_fuzz_id(seat)]), cluster)


DEALT_GAMES = 300
"""Engine-dealt games per edition and player count when --fuzz does not say how many."""


def dealt_ids(editions: list[Edition]) -> list[str]:
    """The result id of each edition and player count an engine-dealt campaign checks."""
    return [dealt_id(seat[0].id, seat[1]) for seat in _seats(editions)]


def run_dealt(make_engine: MakeEngine, editions: list[Edition], n: int, seed: int,
              on_result: Callable[[Result], None], hello: Hello, jobs: int = 1,
              wanted: Wanted = lambda result_id: True) -> list[Result]:
    """For an engine that `wants_logged_games`: `n` games per edition and player count it plays,
    dealt by the engine when it deals itself, its setup and play checked against the reference
    (logs/dealt.py), as results (in `jobs` processes); the others are not applicable."""
    def outside(seat: Seat) -> list[Result]:
        reason = seat_reason(hello, seat[0].id, seat[1])
        return [] if reason is None else [Result(dealt_id(seat[0].id, seat[1]), NOT_APPLICABLE, kind="dealt",
                                                 group="dealt", edition=seat[0].id, players=seat[1],
                                                 message=reason)]

    return _campaign(functools.partial(_dealt_results, make_engine, n, seed), editions, jobs, on_result,
                     lambda seat: wanted(dealt_id(seat[0].id, seat[1])),
                     lambda seat, exitcode: [_died(dealt_id(seat[0].id, seat[1]), "dealt", seat, exitcode)],
                     outside)


def _dealt_results(make_engine: MakeEngine, n: int, seed: int, seat: Seat) -> list[Result]:
    try:
        return [play_dealt(make_engine, seat[0], seat[1], n, seed)]
    except BaseException as exc:  # a campaign that breaks is reported, the run goes on
        if not adapters_own(exc):
            raise
        return [Result(dealt_id(seat[0].id, seat[1]), ERRORED, kind="dealt", group="dealt",
                       edition=seat[0].id, players=seat[1],
                       message=f"the engine-dealt games raised {described(exc)}")]


def _fuzz_results(fuzz: Callable[..., Any], make_engine: MakeEngine, n: int, seed: int, out_dir: Path,
                  ignore_clauses: tuple[str, ...], seat: Seat) -> list[Result]:
    spec, players = seat
    edition = spec.id
    began = time.perf_counter()
    case_id = _fuzz_id(seat)
    try:
        found = fuzz(make_engine, spec, players, n, seed, out_dir,
                     ignore_clauses=[c for c in ignore_clauses if c in spec.clauses])
        saved = getattr(found, "saved", None)
        lines = [line for line in str(found.message).splitlines()
                 if not line.startswith("replay: ")]  # the replay is the result's replay_case
        message = "; ".join(" ".join(line.split()) for line in lines)
        if saved and str(saved) not in message:
            message += f" (saved to {saved})"
        result = Result(case_id, campaign_status(found.status), kind="fuzz", group="fuzz", edition=edition,
                        players=players, clauses=tuple(getattr(found, "clauses", ())),
                        tags=tuple((getattr(found, "case", None) or {}).get("tags", ())),
                        description=f"differential fuzzing, {n} games, seed {seed}",
                        message=message, replay_case=found.replay,
                        divergence=getattr(found, "divergence", None),
                        reading=tuple(getattr(found, "reading", ())),
                        not_run=getattr(found, "kind", None) == "not_started")
    except UsageError:
        raise
    except BaseException as exc:  # a campaign that breaks (sys.exit() too) is reported, the run goes on
        if not adapters_own(exc):
            raise
        result = Result(case_id, ERRORED, kind="fuzz", group="fuzz", edition=edition, players=players,
                        message=f"the fuzzer raised {described(exc)}")
    result.seconds = time.perf_counter() - began
    return [result]
