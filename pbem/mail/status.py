"""How mail to each seat is doing, for the host's pages and the command line.

Only delivery facts: counts, times, the relay's last error. Never what the emails said.
A seat is in trouble when its latest finished email failed, or when one is waiting for a retry.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, case, func, select
from sqlalchemy.orm import Session, selectinload

from pbem.db import Database, in_chunks
from pbem.errors import GameNotFound
from pbem.models import Game, OutboxMessage, Seat


@dataclass(frozen=True)
class SeatMailStatus:
    seat: int
    name: str
    address: str | None
    is_bot: bool
    sent: int
    waiting: int  # queued or being sent now
    retrying: int  # waiting after at least one failed attempt
    failed: int
    dropped: int
    last_sent_at: datetime | None
    last_failed_at: datetime | None
    last_error: str | None  # the latest failure's reason, whether it was retried or final

    @property
    def in_trouble(self) -> bool:
        failed_last = self.last_failed_at is not None and (
            self.last_sent_at is None or self.last_failed_at > self.last_sent_at
        )
        return self.retrying > 0 or failed_last


def seat_mail_status(db: Database, game_id: str) -> list[SeatMailStatus]:
    """Every seat of the game in seating order, with how its mail is doing."""
    with db.read() as session:
        game = session.scalar(select(Game).where(Game.public_id == game_id).options(selectinload(Game.seats)))
        if game is None:
            raise GameNotFound()
        return mail_statuses(session, [game])[game.id]


def mail_statuses(session: Session, games: Sequence[Game]) -> dict[int, list[SeatMailStatus]]:
    """`seat_mail_status` of many games at once (their seats loaded), keyed by the game's primary key: two
    statements per `in_chunks` slice of games, so the host's dashboard does not ask game by game."""
    counts: dict[int, Any] = {}
    errors: dict[int, tuple[datetime | None, str]] = {}
    for ids in in_chunks([game.id for game in games]):
        counts.update(_counts(session, ids))
        errors.update(_latest_errors(session, ids))
    return {game.id: [_status(seat, counts.get(seat.id), errors.get(seat.id)) for seat in game.seats] for game in games}


def _counts(session: Session, game_pks: Sequence[int]) -> dict[int, Any]:
    """Per seat of these games, its emails counted by status, and when it was last sent one."""
    return {
        row.seat_id: row
        for row in session.execute(
            select(
                OutboxMessage.seat_id,
                _count(OutboxMessage.status == "sent").label("sent"),
                _count(OutboxMessage.status.in_(("queued", "sending"))).label("waiting"),
                _count((OutboxMessage.status == "queued") & (OutboxMessage.attempts > 0)).label("retrying"),
                _count(OutboxMessage.status == "failed").label("failed"),
                _count(OutboxMessage.status == "dropped").label("dropped"),
                func.max(case((OutboxMessage.status == "sent", OutboxMessage.sent_at))).label("last_sent_at"),
            )
            .where(OutboxMessage.game_id.in_(game_pks), OutboxMessage.seat_id.is_not(None))
            .group_by(OutboxMessage.seat_id)
        )
    }


def _status(seat: Seat, row: Any, error: tuple[datetime | None, str] | None) -> SeatMailStatus:
    failed_at, last_error = error or (None, None)
    return SeatMailStatus(
        seat=seat.seat_index,
        name=seat.display_name,
        address=seat.email,
        is_bot=seat.is_bot,
        sent=row.sent if row else 0,
        waiting=row.waiting if row else 0,
        retrying=row.retrying if row else 0,
        failed=row.failed if row else 0,
        dropped=row.dropped if row else 0,
        last_sent_at=row.last_sent_at if row else None,
        last_failed_at=failed_at,
        last_error=last_error,
    )


def _count(condition: ColumnElement[bool]) -> ColumnElement[int]:
    return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)


def _latest_errors(session: Session, game_pks: Sequence[int]) -> dict[int, tuple[datetime | None, str]]:
    """Per seat of these games, the latest attempt that failed (final or to be retried) and why."""
    rows = session.execute(
        select(OutboxMessage.seat_id, OutboxMessage.claimed_at, OutboxMessage.last_error)
        .where(
            OutboxMessage.game_id.in_(game_pks),
            OutboxMessage.seat_id.is_not(None),
            OutboxMessage.last_error.is_not(None),
            OutboxMessage.status.in_(("failed", "queued")),
        )
        .order_by(OutboxMessage.claimed_at)
    )
    return {seat_id: (claimed_at, error) for seat_id, claimed_at, error in rows}
