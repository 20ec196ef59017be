"""A player's home across games: their sign-in, their signed-in browsers, their preferences; and spectators.

A player is a mailbox (`pbem.addresses.mailbox_key` of an address): every seat whose address reaches that mailbox
is theirs. Sign-in has the host's shape (`pbem/models/sign_ins.py`) in the player's own tables: an emailed
one-use link, stored only as the SHA-256 of its nonce and spent by the POST behind its button; a signed-in browser
is a row named by the SHA-256 of the random token in its cookie.

A spectator link belongs to one game and shows only the public view; revoking it ends it for good.
A spectator's wish to be emailed at each round end is kept once that address has confirmed it.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, String, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column

from pbem.models.base import Base, one_of
from pbem.models.sign_ins import SignedInBrowserRow, SignInLinkRow

# How a player hears of their turns: an email at each turn, one email a day across all their games, or their own
# notification addresses instead of turn emails.
PLAYER_NOTIFY_MODES = ("turn", "daily", "notices")


class PlayerSignIn(SignInLinkRow):
    __tablename__ = "player_sign_ins"


class PlayerSession(SignedInBrowserRow):
    """A browser signed in to "My games"; over once `ended_at` is set or it is older than the configured days."""

    __tablename__ = "player_sessions"


class PlayerPreferences(Base):
    """What a player chose for all their games at once (each game's seat may still differ)."""

    __tablename__ = "player_preferences"
    __table_args__ = (CheckConstraint(one_of("notify_mode", PLAYER_NOTIFY_MODES), name="notify_mode"),)

    mailbox: Mapped[str] = mapped_column(String(320), primary_key=True)
    email: Mapped[str] = mapped_column(String(320))  # where the daily email goes: the address they signed in with
    timezone: Mapped[str] = mapped_column(String(64), default="UTC")
    quiet_hours: Mapped[str | None] = mapped_column(String(11))
    notify_mode: Mapped[str] = mapped_column(String(16), default="turn", index=True)
    # The language every seat of theirs reads (pbem/i18n/); None: each seat's own, its browser's or its game's.
    language: Mapped[str | None] = mapped_column(String(8))
    updated_at: Mapped[datetime]


class SpectatorLink(Base):
    """A host's link for onlookers of one game: the public view, nothing more; `revoked_at` ends it."""

    __tablename__ = "spectator_links"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    # Kept as is (not hashed): it opens only what any onlooker may see, and the host's page and the round-end
    # emails show it again.
    token: Mapped[str] = mapped_column(String(64), unique=True)
    show_chat: Mapped[bool] = mapped_column(default=False, server_default=false())
    created_by: Mapped[str] = mapped_column(String(320))
    created_at: Mapped[datetime]
    revoked_at: Mapped[datetime | None]


class SpectatorSubscription(Base):
    """A confirmed address that asked, through a spectator link, for an email at each round end."""

    __tablename__ = "spectator_subscriptions"
    __table_args__ = (UniqueConstraint("link_id", "mailbox"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    link_id: Mapped[int] = mapped_column(ForeignKey("spectator_links.id"), index=True)
    email: Mapped[str] = mapped_column(String(320))
    mailbox: Mapped[str] = mapped_column(String(320))
    created_at: Mapped[datetime]
    ended_at: Mapped[datetime | None]
