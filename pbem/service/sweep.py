"""The scheduler's sweep: the reminders, warnings and deadlines that are due, then the daily digests (per game,
and the one email a day across games of the players who chose it).

Due work is found by the index on `turn_clocks.due_at`, so a sweep costs what is due, not how many games run.
Each due clock is handled in its own write transaction: the game row is locked (as a move locks it), then
the clock is claimed with a conditional update on its `version`; a second sweep (another thread, another
process, a scheduler started by mistake) that read the same row loses the claim and does nothing. The
outbox's dedupe keys and the snapshot's unique (game, seq) are second guards. A timeout move that is refused
is not tried again: the turn waits for the host, who is told (`pbem/service/turns/refused_moves.py`).

A scheduler back from a long outage sends one reminder per pending decision, counting the ladder steps it
missed, not one per missed step; reminders never go out in the seat's quiet hours (they wait for the end).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session, selectinload

from pbem.clock import Clock
from pbem.db import Database
from pbem.models import Game, GameStatus, TurnClock
from pbem.models.row_writes import rows_changed
from pbem.service.letters.daily import queue_due_daily_digests, queue_due_player_dailies
from pbem.service.letters.game_mail import GameMail
from pbem.service.snapshots import latest_state
from pbem.service.timing.deadlines import is_quiet, out_of_quiet_hours, reminders_due_by
from pbem.service.timing.turn_clock import facts_of, plan_turn, quiet_hours_of, reschedule, schedule_of
from pbem.service.turns.timeouts import REFUSED, Timeouts

log = logging.getLogger(__name__)

BATCH = 200
MAX_BATCHES = 50  # a sweep stops after this many; the next sweep carries on
RETRY_LATER = timedelta(hours=1)


@dataclass
class SweepResult:
    reminders: int = 0
    warnings: int = 0
    timeouts: int = 0
    host_notices: int = 0
    digests: int = 0
    replanned: int = 0
    lost_claims: int = 0
    actions: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.reminders + self.warnings + self.timeouts + self.host_notices + self.digests


def lock_game(session: Session, game_pk: int) -> Game | None:
    """The game row with its seats, locked against other writers of this game (as a move locks it)."""
    return session.scalar(
        select(Game)
        .where(Game.id == game_pk)
        .options(selectinload(Game.seats))
        .with_for_update(of=Game, key_share=True)
    )


def claim(session: Session, game_pk: int, version: int) -> TurnClock | None:
    """Take the clock as read at `version`; None if anyone changed it since (they did, or are doing, the work)."""
    claimed = rows_changed(
        session,
        update(TurnClock)
        .where(TurnClock.game_id == game_pk, TurnClock.version == version)
        .values(version=version + 1)
        .execution_options(synchronize_session=False)
    )
    if claimed != 1:
        return None
    return session.scalar(
        select(TurnClock).where(TurnClock.game_id == game_pk).execution_options(populate_existing=True)
    )


class TurnSweep:
    def __init__(self, db: Database, clock: Clock, mail: GameMail, timeouts: Timeouts) -> None:
        self._db = db
        self._clock = clock
        self._mail = mail
        self._timeouts = timeouts

    def run(self, *, digests: bool = True) -> SweepResult:
        """One sweep: every due clock (in batches), then the daily digests."""
        result = SweepResult()
        now = self._clock.now()
        for _ in range(MAX_BATCHES):
            due = self.due(now)
            for game_pk, version in due:
                try:
                    self.handle(game_pk, version, now, result)
                except Exception:
                    # One broken game must not hold up the others (they are due after it): look again later.
                    log.exception("sweep: game row %s failed; trying again in %s", game_pk, RETRY_LATER)
                    self._defer(game_pk, version, now + RETRY_LATER)
            if len(due) < BATCH:
                break
        if digests:
            result.digests = queue_due_daily_digests(self._db, self._clock, self._mail)
            result.digests += queue_due_player_dailies(self._db, self._clock, self._mail)
        return result

    def due(self, now: datetime, limit: int = BATCH) -> list[tuple[int, int]]:
        """(game row id, clock version) of the clocks due by `now`, the most overdue first: an index range scan."""
        with self._db.read() as session:
            rows = session.execute(
                select(TurnClock.game_id, TurnClock.version)
                .where(TurnClock.due_at <= now)
                .order_by(TurnClock.due_at)
                .limit(limit)
            ).all()
        return [(game_pk, version) for game_pk, version in rows]

    def handle(self, game_pk: int, version: int, now: datetime, result: SweepResult) -> None:
        """Do what is due on one clock as read at `version`, in one transaction; nothing if the claim is lost."""
        with self._db.write() as session:
            self._handle(session, game_pk, version, now, result)

    def _defer(self, game_pk: int, version: int, when: datetime) -> None:
        with self._db.write() as session:
            session.execute(
                update(TurnClock)
                .where(TurnClock.game_id == game_pk, TurnClock.version == version)
                .values(version=version + 1, due_at=when)
                .execution_options(synchronize_session=False)
            )

    def _handle(self, session: Session, game_pk: int, version: int, now: datetime, result: SweepResult) -> None:
        game = lock_game(session, game_pk)
        clock = claim(session, game_pk, version) if game is not None else None
        if game is None or clock is None:
            result.lost_claims += 1
            return
        if game.status != GameStatus.ACTIVE or game.current_seq is None:
            clock.due_at = None
            return
        if clock.seq != game.current_seq:
            # A clock from before this decision (e.g. a game running when the scheduler came in): plan it now.
            plan_turn(session, game, now)
            result.replanned += 1
            return
        schedule = schedule_of(game, clock)
        if schedule is None or game.paused or clock.paused_at is not None or clock.timed_out:
            reschedule(game, clock, now)
            return
        seat = game.seats[clock.seat]  # type: ignore[index]
        if seat.auto_pass or (schedule.deadline_at is not None and now >= schedule.deadline_at):
            done = self._timeouts.time_out(session, game, clock, now)
            if done in ("notify-host", REFUSED):
                result.host_notices += 1
            else:
                result.timeouts += 1
            result.actions.append(f"{game.public_id}:{clock.seat}:timeout:{done}")
            return
        quiet = quiet_hours_of(game, seat)
        warning_due = schedule.warning_at is not None and now >= schedule.warning_at
        reminder_due = schedule.reminder_at is not None and now >= schedule.reminder_at
        if reminder_due and not warning_due and is_quiet(now, seat.timezone, quiet):
            # Back from an outage in the middle of the seat's night: wait for its morning. (A warning is timed to
            # come just before the night already, and waiting would leave no time before the deadline.)
            reschedule(game, clock, now)
            clock.due_at = out_of_quiet_hours(now, seat.timezone, quiet)
            return
        state = latest_state(session, game)
        if warning_due and schedule.deadline_at is not None:
            self._mail.deadline_warning(
                session, game, seat, state, started_at=clock.started_at, deadline=schedule.deadline_at, now=now
            )
            clock.warned = True
            result.warnings += 1
            result.actions.append(f"{game.public_id}:{clock.seat}:warning")
        elif reminder_due:
            number = max(clock.reminders_sent + 1, reminders_due_by(facts_of(clock), game.policies or {}, now))
            self._mail.turn_reminder(
                session,
                game,
                seat,
                state,
                started_at=clock.started_at,
                deadline=schedule.deadline_at,
                now=now,
                number=number,
                key=f"r{number}",
            )
            clock.reminders_sent = number
            clock.last_reminder_at = now
            result.reminders += 1
            result.actions.append(f"{game.public_id}:{clock.seat}:reminder:{number}")
        reschedule(game, clock, now)
