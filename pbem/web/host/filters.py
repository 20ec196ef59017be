"""The host pages' times, in UTC: `when` (with how long ago), `local`, and `due` (with how long until); "-" for
none. Registered as template filters by the host blueprint."""

from __future__ import annotations

from datetime import datetime

from pbem.times import ago, local_time, until
from pbem.web.app_context import runtime


def when(moment: datetime | None) -> str:
    if moment is None:
        return "-"
    return f"{local_time(moment, 'UTC')} ({ago(moment, runtime().clock.now())})"


def local(moment: datetime | None) -> str:
    return "-" if moment is None else local_time(moment, "UTC")


def due(moment: datetime | None) -> str:
    if moment is None:
        return "-"
    return f"{local_time(moment, 'UTC')} ({until(moment, runtime().clock.now())})"
