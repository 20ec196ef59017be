"""Times as a player reads them: in their own time zone, and how long ago or how soon.

`now` always comes from the injected clock, so pages in tests say the same thing on every run.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def local_time(moment: datetime, zone_name: str) -> str:
    """'Mon 5 Jan, 09:00 UTC': the day matters in games that last days; the zone says whose clock it is."""
    here = moment.astimezone(zone(zone_name))
    return f"{here:%a} {here.day} {here:%b}, {here:%H:%M} {here.tzname()}"


def ago(moment: datetime, now: datetime) -> str:
    return f"{_span(now - moment)} ago" if now - moment >= timedelta(minutes=1) else "just now"


def until(moment: datetime, now: datetime) -> str:
    if moment <= now:
        return "passed"
    return f"in {_span(moment - now)}"


UNITS = (("day", 24 * 60), ("hour", 60), ("minute", 1))


def _span(delta: timedelta) -> str:
    """The largest unit and the next one, rounded down: '2 days 23 hours', '3 hours', '5 minutes'."""
    minutes = int(delta.total_seconds() // 60)
    for index, (unit, size) in enumerate(UNITS):
        if minutes >= size:
            words = [_count(minutes // size, unit)]
            if index + 1 < len(UNITS):
                smaller, smaller_size = UNITS[index + 1]
                rest = (minutes % size) // smaller_size
                if rest:
                    words.append(_count(rest, smaller))
            return " ".join(words)
    return "less than a minute"


def _count(number: int, unit: str) -> str:
    return f"{number} {unit}{'s' if number != 1 else ''}"
