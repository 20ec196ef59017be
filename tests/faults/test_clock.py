"""The clock jumps (a host whose time is corrected, a VM resumed): forward a day, back an hour, forward again.
No reminder or deadline fires twice, and nothing fires before its time. Sweeps run at each reading of the clock,
several times, as a scheduler ticking every minute would."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from pbem.clock import SettableClock
from pbem.models import OutboxMessage, Snapshot
from pbem.runtime import Runtime
from tests.support.database import START
from tests.support.games import NewGame

TICKS = 3  # sweeps at each reading of the clock


def fired(runtime: Runtime) -> tuple[int, int, int]:
    """(reminders queued, deadline warnings queued, moves the server made after the deal)."""
    with runtime.db.read() as session:
        reminders = session.scalar(select(func.count()).where(OutboxMessage.kind == "turn_reminder")) or 0
        warnings = session.scalar(select(func.count()).where(OutboxMessage.kind == "deadline_warning")) or 0
        timeouts = session.scalar(select(func.count()).where(Snapshot.source == "server", Snapshot.seq > 0)) or 0
    return reminders, warnings, timeouts


def sweep_at(runtime: Runtime, clock: SettableClock, offset: timedelta) -> tuple[int, int, int]:
    clock.set(START + offset)
    for _ in range(TICKS):
        runtime.sweep.run(digests=False)
    return fired(runtime)


def test_a_clock_jumping_forward_a_day_and_back_an_hour_sends_each_reminder_once_and_nothing_early(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    new_game()  # reminders after 24 hours, a warning 6 hours before the 72-hour deadline

    just_before_the_reminder = sweep_at(runtime, clock, timedelta(hours=23, minutes=59))
    a_day_later = sweep_at(runtime, clock, timedelta(days=1, minutes=1))
    an_hour_back = sweep_at(runtime, clock, timedelta(hours=23, minutes=1))
    forward_again = sweep_at(runtime, clock, timedelta(days=1, minutes=2))

    assert just_before_the_reminder == (0, 0, 0)
    assert a_day_later == (1, 0, 0)
    assert an_hour_back == forward_again == (1, 0, 0)


def test_a_deadline_never_fires_early_nor_twice_when_the_clock_jumps_around_it(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    new_game()
    deadline = timedelta(hours=72)

    a_minute_early = sweep_at(runtime, clock, deadline - timedelta(minutes=1))
    past_it = sweep_at(runtime, clock, deadline + timedelta(minutes=1))
    an_hour_back = sweep_at(runtime, clock, deadline - timedelta(minutes=59))
    past_it_again = sweep_at(runtime, clock, deadline + timedelta(minutes=2))
    a_day_forward = sweep_at(runtime, clock, deadline + timedelta(days=1, minutes=2))

    assert a_minute_early[2] == 0  # not early
    assert past_it[2] == 1
    assert an_hour_back[2] == past_it_again[2] == 1  # not twice
    # A day later the next seat's own reminder is due (its clock started at the timeout), not a second timeout.
    assert a_day_forward[2] == 1 and a_day_forward[0] > past_it[0]
