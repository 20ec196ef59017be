"""Notices to a game's host: things the host may want to act on, and nothing a player could not see.

- `enqueue_mail_failing_notice`: mail to a player failed for good (the deliverer calls it), once per
  run of failures to that seat's address: a later successful delivery starts a new run.
- `enqueue_stalling_notice`: a player is keeping the table waiting (the reminder sweep of the
  scheduler calls it), once per pending decision.
- `enqueue_absent_notice`: a seat timed out too many turns in a row (`pbem/service/turns/timeouts.py`), with
  one-click links to let the game pass for it without waiting or to replace the player.
- `enqueue_move_refused_notice`: a move the server makes for a seat (a computer seat's, a timeout) was refused,
  and the game waits for the host (`pbem/service/turns/refused_moves.py`), once per decision.
All go to `games.host_email` in the host's own conversation about the game, in the game's language (the host's
emails'), times and spans of time included.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from pbem.i18n import in_language
from pbem.mail.outbox import Outbox
from pbem.mail.unsubscribe import address_digest
from pbem.models import Game, OutboxMessage, Seat
from pbem.service.emails import HOST_MAIL_FAILING, HOST_MOVE_REFUSED, HOST_PLAYER_STALLING, HOST_SEAT_ABSENT
from pbem.times import format_duration, format_when


def enqueue_mail_failing_notice(
    session: Session, outbox: Outbox, *, game: Game, seat: Seat, error: str, failed_at: datetime
) -> OutboxMessage | None:
    """Tell the host that mail to `seat` cannot be delivered; None if they were told of this run already."""
    if seat.email is None:
        return None
    last_sent = session.scalar(
        select(func.max(OutboxMessage.id)).where(OutboxMessage.seat_id == seat.id, OutboxMessage.status == "sent")
    )
    failed = session.scalar(
        select(func.count())
        .select_from(OutboxMessage)
        .where(
            OutboxMessage.seat_id == seat.id,
            OutboxMessage.status == "failed",
            OutboxMessage.id > (last_sent or 0),
        )
    )
    with in_language(outbox.language_of(game, None)):
        when = format_when(failed_at)
    return outbox.enqueue_to_host(
        session,
        game=game,
        kind=HOST_MAIL_FAILING.kind,
        dedupe_key=HOST_MAIL_FAILING.key(
            game.public_id, seat.seat_index, address_digest(seat.email), last_sent or 0
        ),
        context={
            "seat_name": seat.display_name,
            "address": seat.email,
            "error": error,
            "failed_count": failed or 1,
            "failed_at": when,
        },
    )


def enqueue_stalling_notice(
    session: Session, outbox: Outbox, *, game: Game, seat: Seat, now: datetime, reminders_sent: int
) -> OutboxMessage | None:
    """Tell the host that `seat` has let its pending decision wait; once per decision (the game's snapshot)."""
    if game.current_seq is None or game.to_act_seat != seat.seat_index or game.turn_started_at is None:
        raise ValueError(f"{seat.display_name} has no decision pending in {game.title}")
    with in_language(outbox.language_of(game, None)):
        waited, since = format_duration(now - game.turn_started_at), format_when(game.turn_started_at)
    return outbox.enqueue_to_host(
        session,
        game=game,
        kind=HOST_PLAYER_STALLING.kind,
        dedupe_key=HOST_PLAYER_STALLING.key(game.public_id, seat.seat_index, game.current_seq),
        context={
            "seat_name": seat.display_name,
            "waited": waited,
            "waiting_since": since,
            "reminders_sent": reminders_sent,
        },
    )


def enqueue_absent_notice(
    session: Session, outbox: Outbox, *, game: Game, seat: Seat, auto_pass_url: str, host_url: str
) -> OutboxMessage | None:
    """Tell the host that `seat` timed out too many turns in a row; once per run of timeouts (and seat holder)."""
    return outbox.enqueue_to_host(
        session,
        game=game,
        kind=HOST_SEAT_ABSENT.kind,
        dedupe_key=HOST_SEAT_ABSENT.key(
            game.public_id, seat.seat_index, seat.token_version, game.current_seq
        ),
        context={
            "seat_name": seat.display_name,
            "timeouts": seat.timeouts_in_row,
            "auto_pass_url": auto_pass_url,
            "host_url": host_url,
        },
    )


def enqueue_move_refused_notice(session: Session, outbox: Outbox, *, game: Game, seat: Seat) -> OutboxMessage | None:
    """Tell the host that the server could not make `seat`'s move and the game waits for them; once per decision."""
    return outbox.enqueue_to_host(
        session,
        game=game,
        kind=HOST_MOVE_REFUSED.kind,
        dedupe_key=HOST_MOVE_REFUSED.key(game.public_id, seat.seat_index, game.current_seq),
        context={"seat_name": seat.display_name, "is_bot": seat.is_bot},
    )
