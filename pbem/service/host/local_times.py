"""A player's clock as the host sees it: their local time now, and whether it is their night (quiet hours, when
no reminder reaches them and a deadline waits for the morning)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pbem.service.timing.deadlines import is_quiet
from pbem.times import parse_quiet_hours, zone


@dataclass(frozen=True)
class LocalTime:
    zone: str  # the IANA name, e.g. "Europe/Berlin"
    clock: str  # e.g. "Tue 21:40"
    night: bool

    @property
    def place(self) -> str:
        """The zone as people say it: "Berlin", "New York"."""
        return self.zone.rsplit("/", 1)[-1].replace("_", " ")


def local_time_of(now: datetime, zone_name: str | None, quiet_hours: str | None, policies: dict[str, Any]) -> LocalTime:
    """`now` on the player's clock; `quiet_hours`: the seat's own ("" none), None for the game's default."""
    tz = zone(zone_name)
    text = quiet_hours if quiet_hours is not None else policies.get("quiet_hours", "")
    try:
        quiet = parse_quiet_hours(text)
    except ValueError:
        quiet = None
    local = now.astimezone(tz)
    return LocalTime(zone=tz.key, clock=f"{local:%a %H:%M}", night=is_quiet(now, tz.key, quiet))
