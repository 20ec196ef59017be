"""Which engine events a seat may see, and their English lines.

An event's audience is "public" or a list of seats. Everything shown to a player (pages, emails,
history) passes through `visible_events`, so a private event never reaches the wrong seat.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import engine


def is_visible(event: dict[str, Any], seat: int | None) -> bool:
    audience = event.get("audience")
    if audience == "public":
        return True
    return seat is not None and isinstance(audience, list) and seat in audience


def visible_events(events: Iterable[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """The events `seat` may see; `None` means an onlooker, who sees only public events."""
    return [event for event in events if is_visible(event, seat)]


def describe(events: Iterable[dict[str, Any]], names: list[str]) -> list[str]:
    return [engine.describe_event(event, names) for event in events]
