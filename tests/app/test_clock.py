"""The injectable clock: aware UTC times, moved only by the test."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from pbem.clock import SettableClock, SystemClock


def test_the_system_clock_gives_aware_utc_times() -> None:
    now = SystemClock().now()

    assert now.tzinfo is not None and now.utcoffset() == timedelta(0)


def test_a_settable_clock_stands_still_until_moved() -> None:
    clock = SettableClock(datetime(2026, 3, 1, 12, 0, tzinfo=UTC))

    assert clock.now() == clock.now() == datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    assert clock.advance(timedelta(hours=25)) == datetime(2026, 3, 2, 13, 0, tzinfo=UTC)
    clock.set(datetime(2026, 3, 1, 8, 0, tzinfo=timezone(timedelta(hours=-5))))
    assert clock.now() == datetime(2026, 3, 1, 13, 0, tzinfo=UTC)
    assert clock.now().tzinfo == UTC


def test_a_settable_clock_refuses_naive_times() -> None:
    with pytest.raises(ValueError):
        SettableClock(datetime(2026, 3, 1, 12, 0))
