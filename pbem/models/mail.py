"""The outbox: every email is a row written in the same transaction as the change that caused it.

A move that commits has its emails queued; a move that rolls back has none. The deliverer
(`pbem/mail/deliver.py`) reads due rows by (status, next_attempt_at) and claims them with conditional
updates. `mail_threads` remembers, per game and recipient mailbox, the Message-ID that started the
conversation, so every later email can point back at it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, Text, UniqueConstraint, false
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
    # None for a bounce to an email that named no game we could trust (pbem/mail/inbound.py).
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), index=True)
    # None for mail to the host (host notices), who need not have a seat.
    seat_id: Mapped[int | None] = mapped_column(ForeignKey("seats.id"), index=True)
    to_address: Mapped[str] = mapped_column(String(320))
    kind: Mapped[str] = mapped_column(String(40))
    # What makes two emails "the same" (e.g. your_turn for game 7, seat 2, move 31): queued at most once.
    dedupe_key: Mapped[str] = mapped_column(String(200), unique=True)
    # Generated once at enqueue time, so retries resend the very same message.
    message_id: Mapped[str] = mapped_column(String(255), unique=True)
    # The content: written when the row is queued, or, for a turn email, when the deliverer takes it (None until
    # then): most turn emails are dropped unsent because the decision was taken first
    # (pbem/service/letters/game_mail.py).
    subject: Mapped[str | None] = mapped_column(String(300))
    body_text: Mapped[str | None] = mapped_column(Text)
    body_html: Mapped[str | None] = mapped_column(Text)
    # Threading and list headers, computed with the content (pbem/mail/outbox.py).
    headers: Mapped[dict[str, Any]] = mapped_column(default=dict)
    status: Mapped[str] = mapped_column(String(16), default="queued")
    attempts: Mapped[int] = mapped_column(default=0)
    next_attempt_at: Mapped[datetime]
    last_error: Mapped[str | None] = mapped_column(Text)
    claimed_at: Mapped[datetime | None]
    # Which deliverer holds the row while it is `sending`; only that deliverer records the outcome.
    claim_token: Mapped[str | None] = mapped_column(String(32))
    # The game's snapshot when the email was composed (None before the game starts).
    game_seq: Mapped[int | None]
    # A turn email is pointless once that decision is taken: the deliverer drops it instead of sending late.
    drop_when_stale: Mapped[bool] = mapped_column(default=False, server_default=false())
    sent_at: Mapped[datetime | None]
    created_at: Mapped[datetime]

    @property
    def composed(self) -> bool:
        return self.body_text is not None


class MailThread(Base):
    """The first Message-ID sent to one mailbox about one game: every later email replies to it.

    Keyed by recipient ("seat:<index>" or "host") and address, so a replaced player or a corrected
    address starts a conversation of its own instead of joining one that mailbox never saw.
    """

    __tablename__ = "mail_threads"
    __table_args__ = (UniqueConstraint("game_id", "recipient", "address"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    recipient: Mapped[str] = mapped_column(String(40))
    address: Mapped[str] = mapped_column(String(320))
    root_message_id: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime]
