"""The columns every audience's sign-in shares (the host's in `hosting.py`, the player's in `players.py`).

A sign-in link signs in one browser once, then it is spent. The emailed token names the address and a random
nonce; only the nonce's SHA-256 is stored, so the table holds nothing that would sign anyone in. A link is spent
by the POST behind its "continue" button (mail scanners only GET), which sets `used_at` in one conditional
UPDATE: of two browsers racing, one wins.

A signed-in browser is a row named by the SHA-256 of the random token in its cookie. Signing out ends the row
(`ended_at`), ending a mailbox's sessions ends every row of `mailbox` (`pbem.addresses.mailbox_key` of the
address), and a row older than the audience's configured days is over. Each audience keeps its own tables.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from pbem.models.base import Base


class SignInLinkRow(Base):
    """One emailed sign-in link: the SHA-256 of its nonce, the address it signs in, when it was spent."""

    __abstract__ = True

    id: Mapped[int] = mapped_column(primary_key=True)
    nonce_hash: Mapped[str] = mapped_column(String(64), unique=True)
    email: Mapped[str] = mapped_column(String(320))
    created_at: Mapped[datetime]
    used_at: Mapped[datetime | None]


class SignedInBrowserRow(Base):
    """One signed-in browser: the SHA-256 of its cookie's token, its address and mailbox, when it ended."""

    __abstract__ = True

    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    email: Mapped[str] = mapped_column(String(320))
    mailbox: Mapped[str] = mapped_column(String(320), index=True)
    created_at: Mapped[datetime]
    ended_at: Mapped[datetime | None]
