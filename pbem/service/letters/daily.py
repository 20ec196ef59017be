"""Queueing the daily digests that are due: one per day for each seat that asked for digests.

The scheduler's sweep (issue 6, which also owns quiet hours) calls `queue_due_daily_digests` as often
as it likes: a seat's digest is due once its local clock has passed `send_at`, and the dedupe key
(game, seat, local date) queues it at most once that day, however many sweeps or schedulers run.
"""

from __future__ import annotations

from datetime import date, time

from sqlalchemy import select
from sqlalchemy.orm import selectinload

import engine
from pbem.clock import Clock
from pbem.db import Database
from pbem.times import zone
from pbem.service.letters.game_mail import GameMail
from pbem.mail.outbox import dedupe_key
from pbem.models import Game, OutboxMessage, Seat, Snapshot

DIGEST_TIME = time(8, 0)


def queue_due_daily_digests(db: Database, clock: Clock, mail: GameMail, *, send_at: time = DIGEST_TIME) -> int:
    """Queue every digest that is due now; returns how many were queued."""
    now = clock.now()
    due: list[tuple[int, int, date]] = []  # (game row id, seat index, local date)
    with db.read() as session:
        seats = session.execute(
            select(Game.id, Game.public_id, Seat.seat_index, Seat.timezone)
            .join(Seat)
            .where(Game.status == "active", Seat.notify_mode == "digest", Seat.is_bot.is_(False))
            .order_by(Game.id, Seat.seat_index)
        ).all()
        for game_pk, public_id, seat_index, zone_name in seats:
            local = now.astimezone(zone(zone_name))
            if local.time() < send_at:
                continue
            key = dedupe_key("daily_digest", public_id, seat_index, local.date().isoformat())
            if session.scalar(select(OutboxMessage.id).where(OutboxMessage.dedupe_key == key)) is None:
                due.append((game_pk, seat_index, local.date()))
    queued = 0
    for game_pk, seat_index, day in due:
        with db.write() as session:
            # The game row locked, as a move locks it: the digest describes one consistent snapshot.
            game = session.scalar(
                select(Game)
                .where(Game.id == game_pk)
                .options(selectinload(Game.seats))
                .with_for_update(of=Game, key_share=True)
            )
            if game is None or game.status != "active" or game.current_seq is None:
                continue
            seat = game.seats[seat_index]
            if seat.notify_mode != "digest":
                continue
            state = session.scalar(
                select(Snapshot.state).where(Snapshot.game_id == game.id, Snapshot.seq == game.current_seq)
            )
            message = mail.daily_digest(session, game, seat, engine.Game.from_dict(state), day)
            queued += message is not None
    return queued
