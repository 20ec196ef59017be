"""The outbox: every email is a row written in the same transaction as the change that caused it.

A move that commits has its emails queued; a move that rolls back has none. Delivery (issue 5's
deliverer) reads due rows by (status, next_attempt_at) and claims them with conditional updates.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from pbem.models.base import Base, one_of

OUTBOX_STATUSES = ("queued", "sending", "sent", "failed", "dropped")


class OutboxMessage(Base):
    __tablename__ = "outbox"
    __table_args__ = (
        CheckConstraint(one_of("status", OUTBOX_STATUSES), name="status"),
        Index("ix_outbox_status_next_attempt_at", "status", "next_attempt_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    seat_id: Mapped[int | None] = mapped_column(ForeignKey("seats.id"))
    to_address: Mapped[str] = mapped_column(String(320))
    kind: Mapped[str] = mapped_column(String(40))
    # What makes two emails "the same" (e.g. your_turn for game 7, seat 2, move 31): queued at most once.
    dedupe_key: Mapped[str] = mapped_column(String(200), unique=True)
    # Generated once at enqueue time, so retries resend the very same message.
    message_id: Mapped[str] = mapped_column(String(255), unique=True)
    subject: Mapped[str] = mapped_column(String(300))
    body_text: Mapped[str] = mapped_column(Text)
    body_html: Mapped[str] = mapped_column(Text)
    headers: Mapped[dict[str, Any]] = mapped_column(default=dict)
    status: Mapped[str] = mapped_column(String(16), default="queued")
    attempts: Mapped[int] = mapped_column(default=0)
    next_attempt_at: Mapped[datetime]
    last_error: Mapped[str | None] = mapped_column(Text)
    claimed_at: Mapped[datetime | None]
    sent_at: Mapped[datetime | None]
    created_at: Mapped[datetime]
