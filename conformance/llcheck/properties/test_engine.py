"""The properties as pytest tests, for the engine under test (one test per property and game size).

    pytest --pyargs llcheck.properties --llcheck-impl=COMMAND [--llcheck-edition E]
           [--hypothesis-profile thorough] [--hypothesis-seed N]

The engine comes from the `llcheck_engine_factory` fixture of the llcheck pytest plugin
(`--llcheck-impl`: `reference`, `python:MODULE:CLASS` or a protocol command); without it every
test is skipped. The properties of one edition and player count run together, once, and each
test reports its own verdict. Set LLCHECK_SAVE_CASES=DIR to save every failure as a case file.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from loveletter_ref.spec import known_specs, load_spec

from .. import hypothesis_profiles
from ..engines.base import Engine
from ..errors import UsageError
from ..harness.text import failure
from ..pytest_plugin import CaseFailed, known_failures, replay, settle
from .reported import property_result
from .runner import PropertyResult, property_names, run_properties

SAVE_ENV = "LLCHECK_SAVE_CASES"

EDITIONS = [load_spec(path) for path in known_specs().values() if path.parent.name == "editions"]
SPECS = {edition.id: edition for edition in EDITIONS}
GAMES = [(edition.id, n) for edition in EDITIONS for n in range(edition.min_players, edition.max_players + 1)]
CHECKS = [(prop, edition, n) for edition, n in GAMES for prop in property_names()]

_RESULTS: dict[tuple[str, int], dict[str, PropertyResult]] = {}


def _verdicts(factory: Callable[[], Engine], config: pytest.Config, edition: str,
              players: int) -> dict[str, PropertyResult]:
    """Every property's verdict for one edition and player count (run once, then remembered)."""
    key = (edition, players)
    if key not in _RESULTS:
        seed = config.getoption("hypothesis_seed", None)
        save = os.environ.get(SAVE_ENV)
        try:
            found = run_properties(factory, edition, players, _profile(config), _seed(seed),
                                   save_dir=Path(save) if save else None)
        except (UsageError, ValueError) as exc:
            pytest.fail(str(exc), pytrace=False)
        _RESULTS[key] = {result.name: result for result in found}
    return _RESULTS[key]


def _profile(config: pytest.Config) -> str:
    """The hypothesis profile the properties run under: --hypothesis-profile, $HYPOTHESIS_PROFILE, or ci."""
    return (config.getoption("hypothesis_profile", None) or os.environ.get(hypothesis_profiles.ENV)
            or hypothesis_profiles.CI)


def _seed(text: str | None) -> int | None:
    """The --hypothesis-seed option as an integer (a word is hashed, as hypothesis does)."""
    if not text:
        return None
    return int(text) if text.lstrip("-").isdigit() else zlib.crc32(text.encode())


@pytest.mark.parametrize(("prop", "edition", "players"), CHECKS,
                         ids=[f"{prop}-{edition}-{n}p" for prop, edition, n in CHECKS])
def test_property(llcheck_engine_factory: Callable[[], Engine], pytestconfig: pytest.Config,
                  prop: str, edition: str, players: int) -> None:
    """The engine keeps the property in every game hypothesis plays."""
    wanted = pytestconfig.getoption("llcheck_edition", None)
    if wanted and edition not in wanted:
        pytest.skip(f"--llcheck-edition selects {', '.join(wanted)}")
    verdict = _verdicts(llcheck_engine_factory, pytestconfig, edition, players)[prop]
    result = property_result(verdict, (SPECS[edition], players))
    try:
        settle(replace(result, replay_case=None),  # the message holds the game; LLCHECK_SAVE_CASES a case
               known_failures(pytestconfig),
               replay(pytestconfig, result, profile=_profile(pytestconfig), seed=verdict.seed))
    except CaseFailed as failed:
        shown = failure(failed.result)
    else:
        return
    saved = f"case file: {verdict.saved}" if verdict.saved else f"set {SAVE_ENV}=DIR to save it as a case"
    pytest.fail("\n".join([*shown, f"  {saved}"]), pytrace=False)
