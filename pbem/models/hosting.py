"""The host's sign-in (one-use links, signed-in browsers) and address corrections awaiting confirmation.

The sign-in tables have the shape every audience's sign-in shares (`pbem/models/sign_ins.py`) under the host's
own names.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from pbem.models.base import Base
from pbem.models.sign_ins import SignedInBrowserRow, SignInLinkRow


class HostSignIn(SignInLinkRow):
    __tablename__ = "host_sign_ins"


class HostSessionRecord(SignedInBrowserRow):
    """A browser signed in on the host pages; "sign out everywhere" ends every row of the host's mailbox, and a
    row older than `access.host_session_days` is over."""

    __tablename__ = "host_sessions"


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
