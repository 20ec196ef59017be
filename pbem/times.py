"""Times and durations as people read them, in the reader's own time zone; quiet hours as configured."""

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


def format_duration(delta: timedelta) -> str:
    """E.g. "2 days and 3 hours", "45 minutes": the two largest units, rounded down."""
    minutes = max(int(delta.total_seconds() // 60), 0)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    units = [(days, "day"), (hours, "hour"), (minutes, "minute")]
    parts = [f"{amount} {unit}{'s' if amount != 1 else ''}" for amount, unit in units if amount]
    if not parts:
        return "less than a minute"
    return " and ".join(parts[:2])


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
