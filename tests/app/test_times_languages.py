"""Times and durations in the reader's language: the locale's own day and clock (Babel), the catalogue's counts,
German's dative after "in" and "vor"; English keeps the server's short forms."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pbem.i18n import in_language
from pbem.times import ago, format_duration, format_when, local_time, since_day, until

pytestmark = pytest.mark.usefixtures("compiled_catalogues")

NOW = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)
SATURDAY_EIGHT = datetime(2026, 12, 5, 8, 0, tzinfo=UTC)


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "in 2 days and 3 hours"), ("de", "in 2 Tagen und 3 Stunden"), ("ko", "2일 3시간 후"),
])
def test_a_time_to_come_is_counted_in_the_readers_words(language: str, expected: str) -> None:
    with in_language(language):
        assert until(NOW + timedelta(days=2, hours=3), NOW) == expected


@pytest.mark.parametrize(("language", "ago_words", "alone"), [
    ("en", "5 hours ago", "1 day"), ("de", "vor 5 Stunden", "1 Tag"), ("ko", "5시간 전", "1일"),
])
def test_a_time_gone_and_a_duration_alone_take_their_own_forms(language: str, ago_words: str, alone: str) -> None:
    with in_language(language):
        assert ago(NOW - timedelta(hours=5), NOW) == ago_words
        assert format_duration(timedelta(days=1, minutes=20)) == alone


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "Sat 5 Dec, 08:00 UTC"), ("de", "Sa., 5. Dez. 08:00 UTC"), ("ko", "12월 5일 (토) 오전 8:00 UTC"),
])
def test_a_moment_is_written_as_the_readers_locale_writes_it(language: str, expected: str) -> None:
    with in_language(language):
        assert local_time(SATURDAY_EIGHT) == expected
        assert format_when(SATURDAY_EIGHT).endswith("UTC")


def test_a_moment_in_the_readers_zone_keeps_its_zone_in_every_language() -> None:
    with in_language("ko"):
        assert local_time(SATURDAY_EIGHT, "Asia/Seoul") == "12월 5일 (토) 오후 5:00 KST"


@pytest.mark.parametrize(("language", "words"), [
    ("en", ["09:00", "yesterday", "Monday"]),
    ("de", ["09:00", "gestern", "Montag"]),
    ("ko", ["오전 9:00", "어제", "월요일"]),
])
def test_when_a_turn_began_is_said_as_a_day_word(language: str, words: list[str]) -> None:
    with in_language(language):
        assert [since_day(NOW - timedelta(days=days), NOW) for days in (0, 1, 3)] == words
