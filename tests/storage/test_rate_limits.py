"""Rate limits in the database: fixed windows per key, atomic counting, nothing readable stored."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import select

from pbem.clock import SettableClock
from pbem.db import Database
from pbem.models import RateLimitHit
from pbem.service.rate_limits import MAX_WINDOW, Limit, RateLimiter
from tests.support.database import TEST_SECRET

HOURLY = Limit("test_scope", count=3, window=timedelta(hours=1))


@pytest.fixture
def limiter(clock: SettableClock) -> RateLimiter:
    return RateLimiter(clock, TEST_SECRET)


def allow(database: Database, limiter: RateLimiter, subject: str, limit: Limit = HOURLY) -> bool:
    with database.write() as session:
        return limiter.allow(session, limit, subject)


def test_a_limit_allows_its_count_then_refuses_until_the_window_ends(database, limiter, clock) -> None:
    clock.set(clock.now().replace(minute=0))

    answers = [allow(database, limiter, "203.0.113.7") for _ in range(5)]
    clock.advance(timedelta(minutes=59))
    still_refused = allow(database, limiter, "203.0.113.7")
    clock.advance(timedelta(minutes=1))
    next_window = allow(database, limiter, "203.0.113.7")

    assert answers == [True, True, True, False, False]
    assert not still_refused and next_window


def test_each_subject_and_scope_is_counted_apart(database, limiter) -> None:
    other_scope = Limit("other_scope", count=1, window=timedelta(hours=1))
    for _ in range(3):
        allow(database, limiter, "203.0.113.7")

    assert not allow(database, limiter, "203.0.113.7")
    assert allow(database, limiter, "198.51.100.1")
    assert allow(database, limiter, "203.0.113.7", other_scope)


def test_the_table_holds_no_client_address_in_the_clear(database, limiter) -> None:
    allow(database, limiter, "203.0.113.7")

    with database.read() as session:
        [key] = session.scalars(select(RateLimitHit.key))
    assert "203.0.113.7" not in key and key.startswith("test_scope:")


def test_old_windows_are_pruned_as_new_hits_arrive(database, limiter, clock) -> None:
    allow(database, limiter, "old")
    clock.advance(MAX_WINDOW + timedelta(hours=2))

    allow(database, limiter, "new")

    with database.read() as session:
        assert session.scalar(select(RateLimitHit.hits)) == 1 and len(list(session.scalars(select(RateLimitHit)))) == 1


def test_windows_longer_than_pruning_keeps_are_refused() -> None:
    with pytest.raises(ValueError):
        Limit("too_long", count=1, window=MAX_WINDOW + timedelta(seconds=1))


def test_simultaneous_requests_never_share_the_last_slot(database, limiter) -> None:
    """Web workers count at the same moment: exactly `count` of them are allowed."""
    barrier = threading.Barrier(8)
    answers: list[bool] = []
    lock = threading.Lock()

    def worker() -> None:
        barrier.wait()
        answer = allow(database, limiter, "203.0.113.7")
        with lock:
            answers.append(answer)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(answers) == [False] * 5 + [True] * 3
