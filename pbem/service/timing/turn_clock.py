"""Keeping each game's `turn_clocks` row true, inside the caller's transaction.

The game service calls `plan_turn` with every snapshot; pausing, extending, away time and the sweep call
`reschedule` after changing a fact. The row's `due_at` is the next moment the sweep has work for the pending
decision; every change bumps `version`, so a sweep that read the row before loses its conditional claim.
Away time is charged to the seat's per-game cap when it holds a deadline back, and refunded for the part
not used when the turn ends or the away date changes.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import inspect
from sqlalchemy.orm import Session
from sqlalchemy.orm.util import identity_key

from pbem.models import Game, GameStatus, Seat, TurnClock
from pbem.models.row_writes import flush_changed, update_unloaded
from pbem.quiet_hours import QuietHours, parse_quiet_hours
from pbem.service.timing.deadlines import TurnFacts, TurnSchedule, policy, turn_schedule


def quiet_hours_of(game: Game, seat: Seat) -> QuietHours:
    """The seat's own quiet hours, else the game's default ("" on either: none)."""
    text = seat.quiet_hours if seat.quiet_hours is not None else policy(game.policies, "quiet_hours")
    try:
        return parse_quiet_hours(text)
    except ValueError:
        return None


def facts_of(clock: TurnClock) -> TurnFacts:
    held_back = timedelta(seconds=clock.paused_seconds + clock.away_seconds)
    extended = timedelta(seconds=clock.extended_seconds)
    return TurnFacts(
        started_at=clock.started_at,
        held_back=held_back,
        extended=extended,
        reminders_sent=clock.reminders_sent,
        warned=clock.warned,
        not_before=clock.kept_deadline_base + held_back + extended if clock.kept_deadline_base else None,
    )


def keep_deadline(clock: TurnClock) -> None:
    """Before a seat changes its own settings: its running deadline may move later, never earlier.

    Kept net of the time held back, so that a pause, an extension or away time moves it as they move the
    deadline, and "I'm back" still gives back the away time not used."""
    if clock.deadline_at is None:
        return
    held = timedelta(seconds=clock.paused_seconds + clock.away_seconds + clock.extended_seconds)
    base = clock.deadline_at - held
    if clock.kept_deadline_base is None or base > clock.kept_deadline_base:
        clock.kept_deadline_base = base


def deadline_moved_from(clock: TurnClock | None) -> datetime | None:
    """The deadline the turn began with, when the one in force now differs from it (None: it never moved)."""
    if clock is None or clock.deadline_at is None or clock.first_deadline_at is None:
        return None
    return clock.first_deadline_at if clock.first_deadline_at != clock.deadline_at else None


def schedule_of(game: Game, clock: TurnClock) -> TurnSchedule | None:
    """The pending decision's reminder, warning and deadline (None: no person's decision is pending)."""
    if clock.seat is None or game.status != GameStatus.ACTIVE:
        return None
    seat = game.seats[clock.seat]
    if seat.is_bot:
        return None
    return turn_schedule(facts_of(clock), game.policies or {}, seat.timezone, quiet_hours_of(game, seat))


def clock_of(session: Session, game: Game) -> TurnClock | None:
    return session.get(TurnClock, game.id)


def plan_turn(session: Session, game: Game, now: datetime) -> None:
    """A new pending decision (the game service, with each snapshot): a fresh clock for it.

    A fresh clock owes nothing to the old one but its version and the away time it may refund. So when this
    session has not loaded the clock and no seat has away time charged, the row is rewritten without being
    read (a move's lock leaves it out); the version rises in the database all the same, so a sweep that read
    the old row loses its claim.
    """
    clock = session.identity_map.get(identity_key(TurnClock, game.id))
    if clock is None and not any(seat.away_used_seconds for seat in game.seats):
        fresh = TurnClock(game_id=game.id, version=0)  # never added: it only works out the row's new values
        _start_turn(game, fresh, now)
        values = {name: getattr(fresh, name) for name in FRESH_COLUMNS}
        if update_unloaded(session, TurnClock, {"game_id": game.id}, values, add={"version": fresh.version}):
            return
        session.add(fresh)  # the game's first decision: its clock is inserted with the session's next flush
        return
    clock = clock if clock is not None else clock_of(session, game)
    if clock is None:
        clock = TurnClock(game_id=game.id, version=0)
        session.add(clock)
    else:
        refund_away(game, clock, now)
    _start_turn(game, clock, now)
    if not inspect(clock).pending:
        flush_changed(session, clock)  # one statement (pbem/models/row_writes.py)


# Every column of a clock that `_start_turn` sets, which is every column but the key and the version.
FRESH_COLUMNS = tuple(
    column.key for column in TurnClock.__table__.columns if column.key not in ("game_id", "version")
)


def _start_turn(game: Game, clock: TurnClock, now: datetime) -> None:
    clock.seq = game.current_seq if game.current_seq is not None else 0
    clock.seat = game.to_act_seat if game.status == GameStatus.ACTIVE else None
    clock.started_at = game.turn_started_at or now
    clock.version = (clock.version or 0) + 1
    clock.reminders_sent = 0
    clock.last_reminder_at = None
    clock.warned = False
    clock.timed_out = False
    clock.paused_at = now if game.paused else None
    clock.paused_seconds = 0
    clock.extended_seconds = 0
    clock.away_from = None
    clock.away_seconds = 0
    clock.kept_deadline_base = None
    charge_away(game, clock, now)
    reschedule(game, clock, now)
    clock.first_deadline_at = clock.deadline_at


def reschedule(game: Game, clock: TurnClock, now: datetime) -> None:
    """Store the deadline and the next due moment after a fact changed; bumps the version."""
    clock.version = (clock.version or 0) + 1
    schedule = schedule_of(game, clock)
    if schedule is None:
        clock.deadline_at = None
        clock.due_at = None
        return
    clock.deadline_at = schedule.deadline_at
    seat = game.seats[clock.seat] if clock.seat is not None else None
    if game.paused or clock.paused_at is not None or clock.timed_out:
        clock.due_at = None
    elif seat is not None and seat.auto_pass:
        clock.due_at = now  # the host lets the game pass for this seat without waiting
    else:
        moments = [m for m in (schedule.reminder_at, schedule.warning_at, schedule.deadline_at) if m is not None]
        clock.due_at = min(moments) if moments else None


def away_cap(game: Game) -> timedelta:
    return timedelta(days=policy(game.policies, "away_cap_days"))


def charge_away(game: Game, clock: TurnClock, now: datetime) -> None:
    """Hold the deadline back while the deciding seat is away, within what is left of its cap."""
    if clock.seat is None or game.status != GameStatus.ACTIVE:
        return
    seat = game.seats[clock.seat]
    if seat.away_until is None or seat.away_until <= now:
        return
    remaining = int(away_cap(game).total_seconds()) - seat.away_used_seconds
    wanted = int((seat.away_until - max(now, clock.started_at)).total_seconds())
    charge = max(min(wanted, remaining), 0)
    if charge == 0:
        return
    # The charged stretch, used part included, ends `charge` seconds from now.
    clock.away_from = now - timedelta(seconds=clock.away_seconds)
    clock.away_seconds += charge
    seat.away_used_seconds += charge


def refund_away(game: Game, clock: TurnClock, now: datetime) -> None:
    """Give back the part of this turn's away charge that lies after `now` (the player came back early)."""
    if clock.seat is None or clock.away_from is None or not clock.away_seconds or clock.seat >= len(game.seats):
        return
    end = clock.away_from + timedelta(seconds=clock.away_seconds)
    unused = int(max(min((end - now).total_seconds(), clock.away_seconds), 0))
    clock.away_seconds -= unused
    seat = game.seats[clock.seat]
    seat.away_used_seconds = max(seat.away_used_seconds - unused, 0)


def current_clock(session: Session, game: Game) -> TurnClock | None:
    """The clock of the decision pending now (None if the row is missing or still about an older snapshot)."""
    return pending_clock(game, clock_of(session, game))


def pending_clock(game: Game, clock: TurnClock | None) -> TurnClock | None:
    """`clock` if it times the decision pending now in `game`, else None (a caller that loaded it already)."""
    if clock is None or clock.seq != game.current_seq:
        return None
    return clock


def seat_moved(seat: Seat) -> None:
    """A player took a decision themselves: they are back (no run of timeouts, not absent, no auto-pass).

    Only what differs is set: a seat left as it was has nothing for the transaction to write."""
    if seat.timeouts_in_row or seat.absent or seat.auto_pass:
        seat.timeouts_in_row = 0
        seat.absent = False
        seat.auto_pass = False
