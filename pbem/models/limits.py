"""Counters for rate limits, kept in the database so every web worker sees the same counts, and the mailboxes
that have confirmed they want our mail (what the limits on invitations look at).

One row per (key, window): a fixed window of time and how many requests fell in it. Keys are hashed by
the rate limiter, so the table holds no client address or seat id in the clear.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Index, String
from sqlalchemy.orm import Mapped, mapped_column

from pbem.models.base import Base


class RateLimitHit(Base):
    __tablename__ = "rate_limit_hits"
    # Old windows are pruned by their start.
    __table_args__ = (Index("ix_rate_limit_hits_window_start", "window_start"),)

    key: Mapped[str] = mapped_column(String(120), primary_key=True)
    window_start: Mapped[datetime] = mapped_column(primary_key=True)
    hits: Mapped[int]


class ConfirmedMailbox(Base):
    """A mailbox (case and plus-tag folded) whose owner has shown they read our mail and want it.

    Invitations to mailboxes not listed here are counted against daily limits (`pbem/service/host/invitations.py`).
    """

    __tablename__ = "confirmed_mailboxes"

    mailbox: Mapped[str] = mapped_column(String(320), primary_key=True)
    confirmed_at: Mapped[datetime]
