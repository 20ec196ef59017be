"""One-use host sign-in links: a link signs in one browser once, then it is spent.

The emailed token names the address and a random nonce; only the nonce's SHA-256 is stored, so the table
holds nothing that would sign anyone in. A link is spent by the POST behind its "continue" button (mail
scanners only GET), which sets `used_at` in one conditional UPDATE: of two browsers racing, one wins.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from pbem.models.base import Base


class HostSignIn(Base):
    __tablename__ = "host_sign_ins"

    id: Mapped[int] = mapped_column(primary_key=True)
    nonce_hash: Mapped[str] = mapped_column(String(64), unique=True)
    email: Mapped[str] = mapped_column(String(320))
    created_at: Mapped[datetime]
    used_at: Mapped[datetime | None]
