"""A property's verdict as the harness reports it: a `Result` named `property/<name>/<edition>/<n>p`."""

from __future__ import annotations

from typing import Any

from loveletter_ref.spec import Edition

from ..harness.results import Result, campaign_status


def property_id(name: str, edition: str, players: int) -> str:
    """'property/<name>/<edition>/<players>p', as reports name a property's verdict."""
    return f"property/{name}/{edition}/{players}p"


def property_result(item: Any, seat: tuple[Edition, int], seconds: float = 0.0) -> Result:
    """A property's verdict (a PropertyResult, or the like from another checker) as a result."""
    spec, players = seat
    return Result(property_id(item.name, spec.id, players), campaign_status(item.status), kind="property",
                  group="property", edition=spec.id, players=players,
                  clauses=tuple(getattr(item, "clauses", ())), tags=("property", item.name),
                  description=getattr(item, "description", None) or f"property {item.name}",
                  message=" ".join(str(item.message).split()), seconds=seconds, replay_case=item.replay)
