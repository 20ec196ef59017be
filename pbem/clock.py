"""The one source of time for the application.

Reminders, deadlines, bot delays and link expiry all compare against "now"; taking it from an
injectable clock lets tests move time forward instead of sleeping.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time as an aware UTC datetime."""
        ...


class SystemClock:
    """The real clock, used everywhere outside tests."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class SettableClock:
    """A clock that stands still until a test sets or advances it."""

    def __init__(self, start: datetime) -> None:
        self._now = _require_aware(start)

    def now(self) -> datetime:
        return self._now

    def set(self, when: datetime) -> None:
        self._now = _require_aware(when)

    def advance(self, delta: timedelta) -> datetime:
        self._now = self._now + delta
        return self._now


def _require_aware(value: datetime) -> datetime:
    if value.tzinfo is None:
        raise ValueError("clock times must be timezone-aware")
    return value.astimezone(UTC)
