"""Events: what happened, and who may be told. Audience "public" or the list of seats allowed to see it."""
from __future__ import annotations

from typing import Any, cast

from .shapes import Event


def public(type_: str, /, **fields: Any) -> Event:
    return cast(Event, {"type": type_, "audience": "public", **fields})


def private(seat: int, type_: str, /, **fields: Any) -> Event:
    return cast(Event, {"type": type_, "audience": [seat], **fields})
