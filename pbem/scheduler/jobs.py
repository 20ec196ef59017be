"""The scheduler's job list. Later issues add the reminder/deadline sweep here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from pbem.config import Config
from pbem.mail.deliver import deliverer_for
from pbem.runtime import Runtime
from pbem.service.bots import play_due_bot_turns


@dataclass(frozen=True)
class Job:
    id: str
    description: str
    run: Callable[[Runtime], object]
    interval: timedelta


def bot_turns(runtime: Runtime) -> int:
    delay = timedelta(seconds=runtime.config.scheduler.bot_delay_seconds)
    return play_due_bot_turns(runtime.db, runtime.clock, runtime.games, delay)


def deliver_mail(runtime: Runtime) -> int:
    """Send the mail that is due; returns how many emails went out."""
    return deliverer_for(runtime).run().sent


def jobs(config: Config) -> list[Job]:
    every = timedelta(seconds=config.scheduler.interval_seconds)
    return [
        Job(id="bot_turns", description="computer players take their due turns", run=bot_turns, interval=every),
        Job(
            id="deliver_mail",
            description="send the email that is due",
            run=deliver_mail,
            interval=timedelta(seconds=config.mail.deliver_interval_seconds),
        ),
    ]
