"""When a pending decision earns a reminder, a warning and its deadline: the one place that says so.

Pure arithmetic over a turn's facts (when it began, time that does not count against the player, reminders
already sent), the game's policies and the seat's time zone and quiet hours. `pbem/service/timing/turn_clock.py`
stores the result in the indexed `turn_clocks` row the sweep reads; pages and emails show the stored deadline.

- Reminders: the first `reminder_delay_hours` after the turn began, then every `reminder_interval_hours`, at
  most `reminder_count`; none falls in the seat's quiet hours (it waits for their end), none after the warning.
- Deadline: `deadline_hours` (None: no deadline) plus pauses, away time and host extensions; a deadline in
  quiet hours moves to their end; never before `not_before` (a seat's own settings change kept it).
- Warning: `warning_hours` before the deadline; one that would fall in quiet hours comes before them instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pbem.quiet_hours import QuietHours
from pbem.times import zone

# The defaults of PolicyConfig, for games created before a policy existed (their `policies` lack the key).
POLICY_DEFAULTS: dict[str, Any] = {
    "reminder_delay_hours": 24,
    "reminder_interval_hours": 24,
    "reminder_count": 3,
    "deadline_hours": 72,
    "timeout_policy": "auto-pass",
    "warning_hours": 6,
    "quiet_hours": "22:00-08:00",
    "away_cap_days": 7,
    "absent_after": 2,
}

def policy(policies: dict[str, Any] | None, name: str) -> Any:
    """One policy of a game, or its default for games older than the policy."""
    return (policies or {}).get(name, POLICY_DEFAULTS[name])


def _quiet_span(moment: datetime, zone_name: str | None, quiet: QuietHours) -> tuple[datetime, datetime] | None:
    """The quiet stretch (start, end) that contains `moment`, in UTC; None when `moment` is not quiet."""
    if quiet is None:
        return None
    tz = zone(zone_name)
    local = moment.astimezone(tz)
    start, end = quiet
    day = local.date()
    for offset in (-1, 0):  # a stretch that began yesterday evening, or today
        begin_day = day + timedelta(days=offset)
        begin = datetime.combine(begin_day, start, tzinfo=tz)
        finish_day = begin_day if end > start else begin_day + timedelta(days=1)
        finish = datetime.combine(finish_day, end, tzinfo=tz)
        if begin <= local < finish:
            return begin.astimezone(moment.tzinfo), finish.astimezone(moment.tzinfo)
    return None


def is_quiet(moment: datetime, zone_name: str | None, quiet: QuietHours) -> bool:
    return _quiet_span(moment, zone_name, quiet) is not None


def out_of_quiet_hours(moment: datetime, zone_name: str | None, quiet: QuietHours) -> datetime:
    """`moment`, or the end of the quiet hours it falls in (a reminder waits for the morning)."""
    span = _quiet_span(moment, zone_name, quiet)
    return moment if span is None else span[1]


def before_quiet_hours(moment: datetime, zone_name: str | None, quiet: QuietHours) -> datetime:
    """`moment`, or the start of the quiet hours it falls in (a warning comes the evening before)."""
    span = _quiet_span(moment, zone_name, quiet)
    return moment if span is None else span[0]


@dataclass(frozen=True)
class TurnFacts:
    started_at: datetime
    held_back: timedelta = timedelta(0)  # pauses and away time: the turn's clock did not run
    extended: timedelta = timedelta(0)  # the host's extensions of the deadline
    reminders_sent: int = 0
    warned: bool = False
    not_before: datetime | None = None  # the deadline a seat's change of its own settings may not bring earlier


@dataclass(frozen=True)
class TurnSchedule:
    reminder_at: datetime | None
    warning_at: datetime | None
    deadline_at: datetime | None


def turn_schedule(facts: TurnFacts, policies: dict[str, Any], zone_name: str | None, quiet: QuietHours) -> TurnSchedule:
    """The next reminder, the warning (if not sent) and the deadline of one pending decision."""
    began = facts.started_at + facts.held_back
    deadline = turn_deadline(facts.started_at, policies, held_back=facts.held_back + facts.extended,
                             zone_name=zone_name, quiet=quiet)
    if deadline is not None and facts.not_before is not None:
        deadline = max(deadline, facts.not_before)
    warning = None
    hours = policy(policies, "warning_hours")
    if deadline is not None and hours and not facts.warned:
        warning = before_quiet_hours(deadline - timedelta(hours=hours), zone_name, quiet)
        if warning <= began:
            warning = None
    reminder = None
    if facts.reminders_sent < policy(policies, "reminder_count"):
        step = (
            timedelta(hours=policy(policies, "reminder_delay_hours"))
            + facts.reminders_sent * timedelta(hours=policy(policies, "reminder_interval_hours"))
        )
        reminder = out_of_quiet_hours(began + step, zone_name, quiet)
        last_call = warning or deadline
        if last_call is not None and reminder >= last_call:
            reminder = None
    return TurnSchedule(reminder_at=reminder, warning_at=warning, deadline_at=deadline)


def reminders_due_by(facts: TurnFacts, policies: dict[str, Any], now: datetime) -> int:
    """How many steps of the ladder are due by `now` (a scheduler back from an outage sends one, counting all)."""
    began = facts.started_at + facts.held_back
    delay = timedelta(hours=policy(policies, "reminder_delay_hours"))
    interval = timedelta(hours=policy(policies, "reminder_interval_hours"))
    if now < began + delay:
        return 0
    steps = 1 + int((now - began - delay) / interval)
    return min(steps, policy(policies, "reminder_count"))


def turn_deadline(
    turn_started_at: datetime | None,
    policies: dict[str, Any],
    *,
    held_back: timedelta = timedelta(0),
    zone_name: str | None = None,
    quiet: QuietHours = None,
) -> datetime | None:
    """The moment the turn that began at `turn_started_at` times out; None when the game sets no deadline."""
    hours = policy(policies, "deadline_hours")
    if turn_started_at is None or hours is None:
        return None
    return out_of_quiet_hours(turn_started_at + held_back + timedelta(hours=hours), zone_name, quiet)
