"""Times and durations as people read them, on pages and in emails alike, in the reader's own time zone; quiet
hours as configured.

`now` always comes from the injected clock, so the words are the same on every run of a test.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

QuietHours = tuple[time, time] | None


def zone(name: str | None) -> ZoneInfo:
    """The named time zone; UTC for an empty or unknown name (a typo must not stop the mail)."""
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def format_when(moment: datetime, zone_name: str | None = None) -> str:
    """E.g. "Thu 8 Jan 2026, 09:00 UTC", unambiguous across countries (no 08/01 against 01/08)."""
    local = moment.astimezone(zone(zone_name))
    return f"{local:%a} {local.day} {local:%b %Y, %H:%M} {local.tzname()}"


def local_time(moment: datetime, zone_name: str | None = None) -> str:
    """E.g. "Mon 5 Jan, 09:00 UTC": the day matters in games that last days; the zone says whose clock it is."""
    here = moment.astimezone(zone(zone_name))
    return f"{here:%a} {here.day} {here:%b}, {here:%H:%M} {here.tzname()}"


UNITS = (("day", 24 * 60), ("hour", 60), ("minute", 1))


def format_duration(delta: timedelta) -> str:
    """The largest unit and the next one, rounded down: "2 days and 3 hours", "3 days", "45 minutes"."""
    minutes = max(int(delta.total_seconds() // 60), 0)
    for index, (unit, size) in enumerate(UNITS):
        if minutes >= size:
            words = [_count(minutes // size, unit)]
            if index + 1 < len(UNITS):
                smaller, smaller_size = UNITS[index + 1]
                rest = (minutes % size) // smaller_size
                if rest:
                    words.append(_count(rest, smaller))
            return " and ".join(words)
    return "less than a minute"


def _count(number: int, unit: str) -> str:
    return f"{number} {unit}{'s' if number != 1 else ''}"


def ago(moment: datetime, now: datetime) -> str:
    """E.g. "5 hours ago"; "just now" within a minute."""
    return f"{format_duration(now - moment)} ago" if now - moment >= timedelta(minutes=1) else "just now"


def until(moment: datetime, now: datetime) -> str:
    """E.g. "in 2 days and 3 hours"; "passed" once the moment is behind us."""
    return f"in {format_duration(moment - now)}" if moment > now else "passed"


def since_day(moment: datetime, now: datetime, zone_name: str | None = None) -> str:
    """When something began, as a word for a short line: "09:00" (today), "yesterday", "Tuesday" (this week),
    "4 Dec" (before that), on the clock of the zone."""
    here, today = moment.astimezone(zone(zone_name)), now.astimezone(zone(zone_name)).date()
    days = (today - here.date()).days
    if days <= 0:
        return f"{here:%H:%M}"
    if days == 1:
        return "yesterday"
    if days < 7:
        return f"{here:%A}"
    return f"{here.day} {here:%b}"


def machine_time(moment: datetime) -> str:
    """E.g. "2026-01-05T09:00:00+00:00": the moment for a program to read (HTML's `datetime` attribute, a script),
    to the second, since that attribute takes at most three digits of a second."""
    return moment.isoformat(timespec="seconds")


def format_moment(moment: datetime, zone_name: str | None = None) -> str:
    """E.g. "Thu 8 Jan, 09:00": short, for a list of recent lines whose heading names the time zone."""
    local = moment.astimezone(zone(zone_name))
    return f"{local:%a} {local.day} {local:%b, %H:%M}"


def parse_quiet_hours(text: str | None) -> QuietHours:
    """"22:00-08:00" -> (22:00, 08:00); "" or None -> None (no quiet hours). ValueError explains a bad value."""
    if not text or not text.strip():
        return None
    try:
        start_text, end_text = text.strip().split("-")
        start, end = time.fromisoformat(start_text.strip()), time.fromisoformat(end_text.strip())
    except ValueError:
        raise ValueError(f"quiet hours are written like 22:00-08:00, not {text!r}") from None
    if start == end:
        raise ValueError("quiet hours must start and end at different times")
    return start.replace(second=0, microsecond=0), end.replace(second=0, microsecond=0)
