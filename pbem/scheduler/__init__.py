"""APScheduler 3: one function builds the scheduler, with one list of jobs, for both ways of running it.

`pbem run` runs a BackgroundScheduler inside the development server; production runs exactly one
`pbem scheduler` process (BlockingScheduler) beside gunicorn, never one per web worker. All work is found
in the database and claimed with conditional updates, so a second scheduler started by mistake, or a
restart half-way, never does anything twice. Jobs coalesce missed runs into one and never overlap.
"""

from __future__ import annotations

from typing import Literal

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler
from apscheduler.triggers.interval import IntervalTrigger

from pbem.runtime import Runtime
from pbem.scheduler.jobs import jobs

MISFIRE_GRACE_SECONDS = 5 * 60
JOB_DEFAULTS = {"coalesce": True, "max_instances": 1, "misfire_grace_time": MISFIRE_GRACE_SECONDS}


def build_scheduler(runtime: Runtime, kind: Literal["background", "blocking"]) -> BaseScheduler:
    scheduler_class = BackgroundScheduler if kind == "background" else BlockingScheduler
    scheduler = scheduler_class(timezone="UTC")
    for job in jobs(runtime.config):
        scheduler.add_job(
            job.run,
            IntervalTrigger(seconds=job.interval.total_seconds(), timezone="UTC"),
            args=[runtime],
            id=job.id,
            name=job.description,
            replace_existing=True,
            **JOB_DEFAULTS,
        )
    return scheduler
