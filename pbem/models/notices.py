"""Notifications beside email: a player's own addresses, a game's channel, and the notification outbox.

An address's and a channel's `url` is a secret (a webhook's token, a private topic): it is read only by the
notification worker (`pbem/service/notices/`), shown back only as `shown_as`, never logged, exported or archived.
The outbox has the email outbox's shape: a row written in the transaction of the change that caused it, claimed
by a conditional UPDATE, sent once, retried after a backoff, dropped when the turn it announced was played.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, Text, false, true
from sqlalchemy.orm import Mapped, mapped_column

from pbem.models.base import Base, one_of

NOTICE_STATUSES = ("queued", "sending", "sent", "failed", "dropped")


class NotificationAddress(Base):
    """One of a player's (a mailbox's) own addresses: their phone's ntfy topic, a chat of their own."""

    __tablename__ = "notification_addresses"

    id: Mapped[int] = mapped_column(primary_key=True)
    mailbox: Mapped[str] = mapped_column(String(320), index=True)  # pbem.addresses.mailbox_key
    url: Mapped[str] = mapped_column(Text)
    shown_as: Mapped[str] = mapped_column(String(200))
    # What it gets: "my turn" and its reminders; the round's and the game's results.
    turns: Mapped[bool] = mapped_column(default=True, server_default=true())
    results: Mapped[bool] = mapped_column(default=False, server_default=false())
    # Notifications refused for good, one after another; at `switch_off_after` the address is switched off.
    failures: Mapped[int] = mapped_column(default=0)
    last_error: Mapped[str | None] = mapped_column(Text)
    switched_off_at: Mapped[datetime | None]
    created_at: Mapped[datetime]


class GameChannel(Base):
    """A game's channel, set by its host: the table's chat or topic, told the public events."""

    __tablename__ = "game_channels"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    url: Mapped[str] = mapped_column(Text)
    shown_as: Mapped[str] = mapped_column(String(200))
    failures: Mapped[int] = mapped_column(default=0)
    last_error: Mapped[str | None] = mapped_column(Text)
    switched_off_at: Mapped[datetime | None]
    created_at: Mapped[datetime]


class Notice(Base):
    """One notification to one address or to a game's channel, queued with the change that caused it."""

    __tablename__ = "notices"
    __table_args__ = (
        CheckConstraint(one_of("status", NOTICE_STATUSES), name="status"),
        CheckConstraint("(address_id IS NULL) <> (channel_game_id IS NULL)", name="one_target"),
        Index("ix_notices_status_next_attempt_at", "status", "next_attempt_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    address_id: Mapped[int | None] = mapped_column(ForeignKey("notification_addresses.id", ondelete="CASCADE"),
                                                   index=True)
    channel_game_id: Mapped[int | None] = mapped_column(ForeignKey("game_channels.game_id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(40))
    dedupe_key: Mapped[str] = mapped_column(String(200), unique=True)
    title: Mapped[str] = mapped_column(String(300))
    body: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), default="queued")
    attempts: Mapped[int] = mapped_column(default=0)
    next_attempt_at: Mapped[datetime]
    last_error: Mapped[str | None] = mapped_column(Text)
    claimed_at: Mapped[datetime | None]
    claim_token: Mapped[str | None] = mapped_column(String(32))
    game_seq: Mapped[int | None]
    drop_when_stale: Mapped[bool] = mapped_column(default=False, server_default=false())
    sent_at: Mapped[datetime | None]
    created_at: Mapped[datetime]
