"""The host's hold on a game's clock: pause, resume, extend, nudge, skip, auto-pass for an absent seat.

The host page (and the "seat absent" email's one-click link) call these; each is one write transaction that
locks the game row, writes a `HostAction` audit row and posts a system line to the chat. Bad input raises a
typed error from `pbem/errors.py` and changes nothing. Nothing here reads or shows hidden information.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from pbem.clock import Clock
from pbem.db import Database
from pbem.errors import (
    AlreadyPaused,
    BadLink,
    GameFinished,
    GameNotFound,
    GamePaused,
    NoPendingTurn,
    NotPaused,
    NudgeTooSoon,
    SeatNotFound,
    ValidationError,
)
from pbem.i18n import gettext
from pbem.models import Game, GameStatus, HostAction, Seat, TurnClock
from pbem.models.games import OVER_STATUSES
from pbem.service.letters.game_mail import GameMail
from pbem.service.notices.queue import queue_table_line
from pbem.service.rows import find_game, lock_game
from pbem.service.snapshots import latest_state
from pbem.service.talk.chat import post_system_line
from pbem.service.talk.system_lines import system_line
from pbem.service.text import visible_text
from pbem.service.timing.turn_clock import current_clock, deadline_moved_from, plan_turn, refund_away, reschedule
from pbem.service.turns.timeouts import Timeouts

NUDGE_EVERY = timedelta(hours=1)
MAX_NOTE = 300
MAX_EXTENSION_HOURS = 24 * 14


@dataclass(frozen=True)
class SeatTurnStatus:
    seat: int
    name: str
    is_bot: bool
    away_until: datetime | None
    away_used: timedelta
    timeouts_in_row: int
    absent: bool
    auto_pass: bool


@dataclass(frozen=True)
class TurnStatus:
    to_act: int | None
    waiting_since: datetime | None
    reminders_sent: int
    deadline: datetime | None
    paused: bool
    waiting_for_host: bool  # notify-host: the deadline passed and the game waits for the host
    seats: list[SeatTurnStatus]
    deadline_moved_from: datetime | None = None  # the deadline the turn began with, when it has moved since


@dataclass(frozen=True)
class LinkTarget:
    game_title: str
    seat_name: str
    auto_pass: bool
    host_email: str


def hand_over(session: Session, seat_row: Seat, now: datetime) -> None:
    """A new player takes `seat_row` (the host page's replace): the old player's timeouts, absence and away end."""
    game = seat_row.game
    clock = current_clock(session, game)
    mine = clock is not None and clock.seat == seat_row.seat_index
    if mine:
        refund_away(game, clock, now)  # type: ignore[arg-type]
    seat_row.timeouts_in_row = 0
    seat_row.absent = False
    seat_row.auto_pass = False
    seat_row.away_until = None
    seat_row.away_used_seconds = 0
    seat_row.timeout_card = None
    seat_row.nudged_at = None
    if mine:
        clock.away_seconds = 0  # type: ignore[union-attr]
        clock.away_from = None  # type: ignore[union-attr]
        reschedule(game, clock, now)  # type: ignore[arg-type]


class TurnControls:
    def __init__(self, db: Database, clock: Clock, mail: GameMail, timeouts: Timeouts) -> None:
        self._db = db
        self._clock = clock
        self._mail = mail
        self._timeouts = timeouts

    def pause(self, game_id: str, *, actor_email: str) -> None:
        """Stop the game: no moves, reminders or deadlines until `resume`; the turn's clock stands still."""
        now = self._clock.now()
        with self._db.write() as session:
            game = _active(session, game_id)
            if game.paused:
                raise AlreadyPaused()
            game.paused = True
            clock = current_clock(session, game)
            if clock is not None:
                clock.paused_at = now
                reschedule(game, clock, now)
            self._record(session, game, actor_email, "pause", {}, system_line("paused"), now)
            queue_table_line(session, game, "paused", now.isoformat(), system_line("paused"),
                             base_url=self._mail.page_url(""), now=now)

    def resume(self, game_id: str, *, actor_email: str) -> None:
        """Play on; the pending turn's reminders and deadline resume where they stopped."""
        now = self._clock.now()
        with self._db.write() as session:
            game = _active(session, game_id)
            if not game.paused:
                raise NotPaused()
            game.paused = False
            clock = current_clock(session, game)
            if clock is None:
                plan_turn(session, game, now)
            else:
                if clock.paused_at is not None:
                    clock.paused_seconds += int((now - clock.paused_at).total_seconds())
                clock.paused_at = None
                reschedule(game, clock, now)
            self._record(session, game, actor_email, "resume", {}, system_line("resumed"), now)

    def extend_deadline(self, game_id: str, hours: int, *, actor_email: str) -> None:
        """Give the pending decision `hours` more (also after a notify-host deadline has passed)."""
        if type(hours) is not int or not 1 <= hours <= MAX_EXTENSION_HOURS:
            raise ValidationError(gettext(
                "Extend by a whole number of hours from 1 to %(most)d.", most=MAX_EXTENSION_HOURS
            ))
        now = self._clock.now()
        with self._db.write() as session:
            game = _active(session, game_id)
            clock = _pending(session, game)
            if clock.deadline_at is None:
                raise ValidationError(gettext("This game sets no deadline, so there is none to extend."))
            clock.extended_seconds += hours * 3600
            clock.timed_out = False
            reschedule(game, clock, now)
            name = game.seats[clock.seat].display_name  # type: ignore[index]
            self._record(
                session, game, actor_email, "extend_deadline", {"seat": clock.seat, "hours": hours},
                system_line("extended", name=name, num=hours), now,
            )

    def nudge(self, game_id: str, seat: int, *, actor_email: str, note: object = "") -> None:
        """Send the seat a reminder now, with the host's short `note` if any; at most one an hour per seat (else
        NudgeTooSoon). It counts among the turn's reminders on the host's pages."""
        note_text = clean_note(note)
        now = self._clock.now()
        with self._db.write() as session:
            game = _active(session, game_id)
            row = _seat(game, seat)
            if row.is_bot:
                raise NoPendingTurn(gettext("A computer player needs no reminder."))
            clock = _pending(session, game)
            if clock.seat != seat:
                raise NoPendingTurn(gettext(
                    "It is not %(name)s's turn, so there is nothing to nudge them about.", name=row.display_name
                ))
            if row.nudged_at is not None and now - row.nudged_at < NUDGE_EVERY:
                raise NudgeTooSoon()
            row.nudged_at = now
            self._mail.turn_reminder(
                session, game, row, latest_state(session, game), started_at=clock.started_at,
                deadline=clock.deadline_at, now=now, number=None, key=f"nudge-{int(now.timestamp())}",
                note=note_text,
            )
            self._record(
                session, game, actor_email, "nudge", {"seat": seat, "seq": game.current_seq, "note": bool(note_text)},
                system_line("nudged_with_note" if note_text else "nudged", name=row.display_name), now,
            )

    def skip(self, game_id: str, *, actor_email: str) -> None:
        """Apply the timeout move to the pending decision now (a card discarded face down, the gold, ...)."""
        now = self._clock.now()
        with self._db.write() as session:
            game = _active(session, game_id)
            if game.paused:
                raise GamePaused(gettext("The game is paused; resume it before skipping a turn."))
            clock = _pending(session, game)
            seat = clock.seat
            self._log(session, game, actor_email, "skip", {"seat": seat, "seq": clock.seq}, now)
            clock.version += 1  # any sweep holding an older read of this clock loses its claim
            self._timeouts.time_out(session, game, clock, now, by_host=True)

    def let_auto_pass(self, game_id: str, seat: int, on: bool, *, actor_email: str) -> None:
        """Let the game pass for `seat` as soon as its turn comes, until the player comes back (or switch it off)."""
        if not isinstance(on, bool):
            raise ValidationError(gettext("Auto-pass is switched on or off."))
        now = self._clock.now()
        with self._db.write() as session:
            game = _active(session, game_id)
            row = _seat(game, seat)
            if row.is_bot:
                raise ValidationError(gettext("A computer player never needs auto-pass."))
            row.auto_pass = on
            clock = current_clock(session, game)
            if clock is not None and clock.seat == seat:
                reschedule(game, clock, now)
            line = system_line("auto_pass_on" if on else "auto_pass_off", name=row.display_name)
            self._record(session, game, actor_email, "auto_pass", {"seat": seat, "on": on}, line, now)

    def link_target(self, game_id: str, seat: int, version: int) -> LinkTarget:
        """What a host's one-click link (pbem/service/seats/auto_pass_links.py) is about; BadLink if the seat changed
        hands."""
        with self._db.read() as session:
            try:
                game = find_game(session, game_id)
            except GameNotFound:
                raise BadLink() from None
            if not 0 <= seat < len(game.seats) or game.seats[seat].token_version != version:
                raise BadLink(gettext("This link is no longer valid: the seat has a new player."))
            row = game.seats[seat]
            return LinkTarget(game.title, row.display_name, row.auto_pass, game.host_email)

    def status(self, game_id: str) -> TurnStatus:
        with self._db.read() as session:
            game = find_game(session, game_id)
            return turn_status_of(game, current_clock(session, game))

    # -- helpers -----------------------------------------------------------------------------------

    def _record(
        self,
        session: Session,
        game: Game,
        actor_email: str,
        action: str,
        details: dict[str, Any],
        line: str,
        now: datetime,
    ) -> None:
        self._log(session, game, actor_email, action, details, now)
        post_system_line(session, game, line, "host", now=now)

    def _log(
        self, session: Session, game: Game, actor_email: str, action: str, details: dict[str, Any], now: datetime
    ) -> None:
        session.add(
            HostAction(game_id=game.id, actor_email=actor_email, action=action, details=details, created_at=now)
        )


def clean_note(note: object) -> str:
    """The host's note on a nudge as the email shows it ("" for none); ValidationError when too long."""
    if not isinstance(note, str):
        return ""
    lines = [" ".join(line.split()) for line in visible_text(note).split("\n")]
    text = "\n".join(line for line in lines if line).strip()
    if len(text) > MAX_NOTE:
        raise ValidationError(gettext(
            "A note may have at most %(most)d characters; this one has %(length)d.", most=MAX_NOTE, length=len(text)
        ))
    return text


def turn_status_of(game: Game, clock: TurnClock | None) -> TurnStatus:
    """The turn clock's view of `game`, from the game with its seats and its current clock (None: no clock for
    the decision pending now), as loaded by the caller: one game (`TurnControls.status`) or many (the dashboard)."""
    pending = clock is not None and clock.seat is not None and game.status == GameStatus.ACTIVE
    return TurnStatus(
        to_act=game.to_act_seat if game.status == GameStatus.ACTIVE else None,
        waiting_since=game.turn_started_at if pending else None,
        reminders_sent=clock.reminders_sent if pending else 0,  # type: ignore[union-attr]
        deadline=clock.deadline_at if pending and not game.paused else None,  # type: ignore[union-attr]
        paused=game.paused,
        waiting_for_host=bool(pending and clock.timed_out),  # type: ignore[union-attr]
        deadline_moved_from=deadline_moved_from(clock) if pending and not game.paused else None,
        seats=[
            SeatTurnStatus(
                seat=row.seat_index,
                name=row.display_name,
                is_bot=row.is_bot,
                away_until=row.away_until,
                away_used=timedelta(seconds=row.away_used_seconds),
                timeouts_in_row=row.timeouts_in_row,
                absent=row.absent,
                auto_pass=row.auto_pass,
            )
            for row in game.seats
        ],
    )


def _active(session: Session, game_id: str) -> Game:
    game = lock_game(session, game_id)
    if game.status in OVER_STATUSES:
        raise GameFinished()
    if game.status != GameStatus.ACTIVE:
        raise NoPendingTurn(gettext("This game has not started yet."))
    return game


def _seat(game: Game, seat: int) -> Seat:
    if type(seat) is not int or not 0 <= seat < len(game.seats):
        raise SeatNotFound()
    return game.seats[seat]


def _pending(session: Session, game: Game) -> TurnClock:
    """The clock of the decision pending now, which must be a person's, or a computer seat's whose move was
    refused (the turn waits for the host: pbem/service/turns/refused_moves.py)."""
    clock = current_clock(session, game)
    if clock is None:
        plan_turn(session, game, game.turn_started_at or game.updated_at)  # a game from before clocks existed
        clock = current_clock(session, game)
    if clock is None or clock.seat is None or (game.seats[clock.seat].is_bot and not clock.timed_out):
        raise NoPendingTurn()
    return clock
