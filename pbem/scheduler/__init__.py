"""APScheduler 3: one function builds the scheduler, with one list of jobs, for both ways of running it.

`pbem run` runs a BackgroundScheduler inside the development server; production runs exactly one
`pbem scheduler` process (BlockingScheduler) beside gunicorn, never one per web worker. All work is found
in the database and claimed with conditional updates, so a second scheduler started by mistake, or a
restart half-way, never does anything twice. Jobs coalesce missed runs into one and never overlap. While the
database is unreachable a job logs one line and tries again at its next run: the scheduler itself goes on, so it
resumes on its own when the database is back (the pool replaces the connections the outage broke).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Literal

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler
from apscheduler.triggers.interval import IntervalTrigger
from sqlalchemy.exc import InterfaceError, OperationalError

from pbem.runtime import Runtime
from pbem.scheduler.jobs import Job, jobs

log = logging.getLogger(__name__)

MISFIRE_GRACE_SECONDS = 5 * 60
JOB_DEFAULTS = {"coalesce": True, "max_instances": 1, "misfire_grace_time": MISFIRE_GRACE_SECONDS}


def build_scheduler(runtime: Runtime, kind: Literal["background", "blocking"]) -> BaseScheduler:
    scheduler_class = BackgroundScheduler if kind == "background" else BlockingScheduler
    scheduler = scheduler_class(timezone="UTC")
    for job in jobs(runtime.config):
        scheduler.add_job(
            until_the_database_fails(job),
            IntervalTrigger(seconds=job.interval.total_seconds(), timezone="UTC"),
            args=[runtime],
            id=job.id,
            name=job.description,
            replace_existing=True,
            **JOB_DEFAULTS,
        )
    return scheduler


def until_the_database_fails(job: Job) -> Callable[[Runtime], object]:
    """The job, with a lost database reported in one line (its work stays in the database for the next run)."""

    def run(runtime: Runtime) -> object:
        try:
            return job.run(runtime)
        except (OperationalError, InterfaceError) as exc:
            log.warning("%s: the database is unavailable, trying again at the next run: %s", job.id, exc.orig)
            return 0

    return run
