"""Quiet hours as written in the configuration and the settings: "22:00-08:00" (a leaf: the configuration reads it)."""

from __future__ import annotations

from datetime import time

QuietHours = tuple[time, time] | None


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
