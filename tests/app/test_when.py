"""Times on pages and in emails: in the reader's own time zone, with how long ago or how soon in words."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pbem.times import ago, format_duration, local_time, until

NOON = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)


def test_a_time_is_shown_in_the_seats_zone_with_its_day() -> None:
    assert local_time(NOON, "UTC") == "Mon 5 Jan, 12:00 UTC"
    assert local_time(NOON, "America/New_York") == "Mon 5 Jan, 07:00 EST"
    assert local_time(NOON, "Pacific/Auckland") == "Tue 6 Jan, 01:00 NZDT"


def test_an_unknown_zone_falls_back_to_utc() -> None:
    assert local_time(NOON, "Mars/Olympus") == "Mon 5 Jan, 12:00 UTC"


def test_spans_name_the_largest_unit_and_the_next() -> None:
    assert ago(NOON - timedelta(seconds=20), NOON) == "just now"
    assert ago(NOON - timedelta(minutes=5), NOON) == "5 minutes ago"
    assert ago(NOON - timedelta(hours=3, minutes=1), NOON) == "3 hours and 1 minute ago"
    assert until(NOON + timedelta(hours=71, minutes=59), NOON) == "in 2 days and 23 hours"
    assert until(NOON + timedelta(days=3), NOON) == "in 3 days"
    assert until(NOON - timedelta(minutes=1), NOON) == "passed"


def test_pages_and_emails_word_a_span_alike() -> None:
    assert format_duration(timedelta(days=2, hours=3)) == "2 days and 3 hours"
    assert until(NOON + timedelta(days=2, hours=3), NOON) == "in 2 days and 3 hours"
    assert format_duration(timedelta(days=2, minutes=5)) == "2 days"
    assert format_duration(timedelta(seconds=30)) == "less than a minute"
