"""Hypothesis profiles shared by every property-based test and by `run_properties`.

`ci` is fast and derandomized: the same examples on every run, nothing written to an example
database, no deadline (CI machines stall). `thorough` is for long local campaigns. The test
suite loads `ci` unless the environment variable `HYPOTHESIS_PROFILE` names another profile.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, Phase, settings
from hypothesis.errors import InvalidArgument

CI = "ci"
THOROUGH = "thorough"
ENV = "HYPOTHESIS_PROFILE"

_SLOW_IS_FINE = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
                 HealthCheck.large_base_example]
"""Health checks that whole games trip by design: a game is long even at its smallest (with
`thorough`'s 200 steps, hypothesis finds the smallest input "very large" and stops the run)."""

PROFILES = {
    CI: settings(max_examples=12, stateful_step_count=60, derandomize=True, database=None,
                 deadline=None, print_blob=False, suppress_health_check=_SLOW_IS_FINE,
                 phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink]),
    THOROUGH: settings(max_examples=500, stateful_step_count=200, deadline=None,
                       suppress_health_check=_SLOW_IS_FINE),
}
"""Profile name -> settings. Games need many steps, hence the stateful step counts."""


def register(missing_only: bool = False) -> None:
    """Register every profile with hypothesis (idempotent); with `missing_only`, those it does not
    know yet (one of its own of the same name is left as it is)."""
    for name, profile in PROFILES.items():
        if missing_only and _known(name):
            continue
        settings.register_profile(name, profile)


def _known(name: str) -> bool:
    """True when hypothesis has a profile of this name."""
    try:
        settings.get_profile(name)
    except InvalidArgument:
        return False
    return True


def load(default: str = CI) -> str:
    """Load the profile named by $HYPOTHESIS_PROFILE, else `default`; returns its name."""
    register()
    name = os.environ.get(ENV) or default
    settings.load_profile(name)
    return name


def get(name: str) -> settings:
    """The settings of a registered profile (ValueError naming the known ones otherwise)."""
    register()
    try:
        return settings.get_profile(name)
    except InvalidArgument as exc:
        raise ValueError(f"no hypothesis profile {name!r} (known: {', '.join(PROFILES)})") from exc
