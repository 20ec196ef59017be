"""The host's sign-in (one-use links, signed-in browsers) and address corrections awaiting confirmation.

A host link signs in one browser once, then it is spent. The emailed token names the address and a random
nonce; only the nonce's SHA-256 is stored, so the table holds nothing that would sign anyone in. A link is spent
by the POST behind its "continue" button (mail scanners only GET), which sets `used_at` in one conditional
UPDATE: of two browsers racing, one wins.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from pbem.models.base import Base


class HostSignIn(Base):
    __tablename__ = "host_sign_ins"

    id: Mapped[int] = mapped_column(primary_key=True)
    nonce_hash: Mapped[str] = mapped_column(String(64), unique=True)
    email: Mapped[str] = mapped_column(String(320))
    created_at: Mapped[datetime]
    used_at: Mapped[datetime | None]


class HostSessionRecord(Base):
    """A browser signed in on the host pages. Its cookie holds a random token; only the token's SHA-256 is
    stored. Signing out ends the row (`ended_at`), "sign out everywhere" ends every row of the host's mailbox
    (`mailbox`: `pbem.addresses.mailbox_key` of the address), and a row older than the configured days is over."""

    __tablename__ = "host_sessions"

    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    email: Mapped[str] = mapped_column(String(320))
    mailbox: Mapped[str] = mapped_column(String(320), index=True)
    created_at: Mapped[datetime]
    ended_at: Mapped[datetime | None]


class AddressChange(Base):
    """A host's correction of a seat's address, waiting for the old address to confirm it (nothing changes before).

    The emailed link names a random nonce whose SHA-256 is `nonce_hash`; confirming sets `confirmed_at` in one
    conditional UPDATE, so a link confirms once. It applies only while the seat still has `old_email`.
    """

    __tablename__ = "address_changes"

    id: Mapped[int] = mapped_column(primary_key=True)
    nonce_hash: Mapped[str] = mapped_column(String(64), unique=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    seat_index: Mapped[int]
    old_email: Mapped[str] = mapped_column(String(320))
    new_email: Mapped[str] = mapped_column(String(320))
    requested_by: Mapped[str] = mapped_column(String(320))
    created_at: Mapped[datetime]
    confirmed_at: Mapped[datetime | None]
