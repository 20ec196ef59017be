"""A player's clock as the host sees it: their local time now, and whether it is their night (quiet hours, when
no reminder reaches them and a deadline waits for the morning)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from babel.dates import format_skeleton, format_time, get_timezone_location

from pbem.i18n import current_language, current_locale
from pbem.quiet_hours import parse_quiet_hours
from pbem.service.timing.deadlines import is_quiet
from pbem.times import zone


@dataclass(frozen=True)
class LocalTime:
    zone: str  # the IANA name, e.g. "Europe/Berlin"
    clock: str  # e.g. "Tue 21:40"
    night: bool

    @property
    def place(self) -> str:
        """The zone as people say it, in the reader's language: "Berlin", "New York", "뉴욕"."""
        if current_language() != "en":
            try:
                return str(get_timezone_location(zone(self.zone), locale=current_locale(), return_city=True))
            except (LookupError, ValueError):
                pass
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
    return LocalTime(zone=tz.key, clock=_clock(local), night=is_quiet(now, tz.key, quiet))


def _clock(local: datetime) -> str:
    """The weekday and the time, in the reader's language: "Tue 21:40", "Di 21:40", "화 오후 9:40"."""
    if current_language() == "en":
        return f"{local:%a %H:%M}"
    locale = current_locale()
    return f"{format_skeleton('E', local, locale=locale)} {format_time(local, 'short', locale=locale)}"
