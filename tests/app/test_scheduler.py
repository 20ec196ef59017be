"""The scheduler: one builder, the same job list for the development server and the production process."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.blocking import BlockingScheduler
from sqlalchemy import select

from pbem.clock import SettableClock
from pbem.models import OutboxMessage
from pbem.runtime import Runtime
from pbem.scheduler import MISFIRE_GRACE_SECONDS, build_scheduler
from pbem.scheduler.jobs import jobs
from pbem.service.turns.values import PlayerSpec


@pytest.mark.parametrize(("kind", "expected"), [("background", BackgroundScheduler), ("blocking", BlockingScheduler)])
def test_both_kinds_of_scheduler_carry_the_same_jobs_coalesced_and_never_overlapping(
    runtime: Runtime, kind: str, expected: type
) -> None:
    scheduler = build_scheduler(runtime, kind)  # type: ignore[arg-type]

    assert isinstance(scheduler, expected)
    scheduled = scheduler.get_jobs()
    assert [job.id for job in scheduled] == [job.id for job in jobs(runtime.config)] == [
        "bot_turns", "deliver_mail", "send_notifications", "chat_emails", "sweep",
    ]
    intervals = {
        "bot_turns": timedelta(seconds=runtime.config.scheduler.bot_interval_seconds),
        "deliver_mail": timedelta(seconds=runtime.config.mail.deliver_interval_seconds),
        "send_notifications": timedelta(seconds=runtime.config.mail.deliver_interval_seconds),
        "chat_emails": timedelta(seconds=runtime.config.scheduler.interval_seconds),
        "sweep": timedelta(seconds=runtime.config.scheduler.sweep_interval_seconds),
    }
    for job in scheduled:
        assert job.coalesce is True
        assert job.max_instances == 1
        assert job.misfire_grace_time == MISFIRE_GRACE_SECONDS
        assert job.trigger.interval == intervals[job.id]


def test_the_bot_turns_job_plays_due_computer_turns(
    runtime: Runtime, new_game: Callable[..., str], clock: SettableClock
) -> None:
    game_id = new_game([PlayerSpec(f"Bot {n}", is_bot=True) for n in (1, 2, 3)])
    bot_turns = next(job for job in jobs(runtime.config) if job.id == "bot_turns")

    clock.advance(timedelta(seconds=runtime.config.scheduler.bot_delay_seconds))

    assert bot_turns.run(runtime) == 1
    assert runtime.games.current_state(game_id).seq == 1


def test_the_mail_job_delivers_what_is_due(runtime: Runtime, new_game: Callable[..., str]) -> None:
    new_game()
    deliver_mail = next(job for job in jobs(runtime.config) if job.id == "deliver_mail")

    assert deliver_mail.run(runtime) == 3  # the game_started emails, into the catcher
    assert deliver_mail.run(runtime) == 0
    with runtime.db.read() as session:
        assert set(session.scalars(select(OutboxMessage.status))) == {"sent"}
