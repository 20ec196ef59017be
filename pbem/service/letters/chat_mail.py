"""Chat emails: for seats that asked, the table talk they have not seen, at most one email per 15 minutes.

The scheduler runs `queue_due_chat_emails` every few seconds. A seat is due when it wants chat emails,
someone else has written since it last looked (or was last emailed), and its last chat email is at least
`CHAT_EMAIL_GAP` old. The first message after a quiet spell goes out at once; what follows within the
gap waits and goes together. A seat whose turn email is waiting to go out is left to it: that email quotes
the table talk when it is composed (and if it is dropped instead, the seat is due again at the next run).
Each email is claimed by a conditional update of `seats.chat_mailed_at`, in the transaction that queues
it: of two schedulers that find the same seat due, one wins, the other changes nothing. The dedupe key
(game, seat, newest message) is a second guard.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import exists, func, or_, select, update

from pbem.clock import Clock
from pbem.db import Database
from pbem.models import ChatMessage, Game, GameStatus, OutboxMessage, Seat
from pbem.models.row_writes import rows_changed
from pbem.service.letters.game_mail import GameMail
from pbem.service.talk.chat_lines import unread_excerpt

CHAT_EMAIL_GAP = timedelta(minutes=15)
# Seats handled per run; the next run goes on.
RUN_LIMIT = 200
CHATTY_GAMES = (GameStatus.ACTIVE, GameStatus.FINISHED)


def queue_due_chat_emails(db: Database, clock: Clock, mail: GameMail, *, gap: timedelta = CHAT_EMAIL_GAP) -> int:
    """Queue every chat email that is due now; returns how many were queued."""
    now = clock.now()
    rested = or_(Seat.chat_mailed_at.is_(None), Seat.chat_mailed_at <= now - gap)
    unread_by_others = exists().where(
        ChatMessage.game_id == Seat.game_id,
        ChatMessage.id > func.coalesce(Seat.chat_read_upto, 0),
        or_(ChatMessage.sender_seat.is_(None), ChatMessage.sender_seat != Seat.seat_index),
    )
    turn_mail_waiting = exists().where(
        OutboxMessage.seat_id == Seat.id, OutboxMessage.status == "queued", OutboxMessage.body_text.is_(None)
    )
    with db.read() as session:
        due = session.scalars(
            select(Seat.id)
            .join(Game)
            .where(
                Seat.chat_emails.is_(True), Seat.is_bot.is_(False), Seat.email.is_not(None),
                Game.status.in_(CHATTY_GAMES), rested, unread_by_others, ~turn_mail_waiting,
            )
            .order_by(Seat.id)
            .limit(RUN_LIMIT)
        ).all()
    queued = 0
    for seat_pk in due:
        with db.write() as session:
            seat = session.get_one(Seat, seat_pk)
            if not unread_excerpt(session, seat.game, seat):
                continue  # read on the page in the meantime
            claimed = rows_changed(
                session,
                update(Seat)
                .where(Seat.id == seat_pk, Seat.chat_emails.is_(True), rested)
                .values(chat_mailed_at=now)
                .execution_options(synchronize_session=False)
            )
            if claimed != 1:
                continue  # another scheduler sent it, or the seat changed its mind
            session.refresh(seat)
            queued += mail.chat_messages(session, seat.game, seat) is not None
    return queued
