"""Games that players join by themselves through one shared link, and rematches of finished games.

An invite holds everything a game will be made from (title, variant, options, policies, computer players) while
people join: the game itself is created and dealt only when it starts (`pbem/service/host/invites.py`), by the
game service like any other game. A joiner counts once their address has confirmed (the emailed link's POST).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import CheckConstraint, ForeignKey, String, Text, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column, relationship

from pbem.models.base import Base, one_of
from pbem.models.games import new_public_id

SEAT_ORDERS = ("joined", "shuffled")


class Invite(Base):
    """A game waiting for its players. `version` is named by the shared link: rotating it kills the old link."""

    __tablename__ = "invites"
    __table_args__ = (CheckConstraint(one_of("seat_order", SEAT_ORDERS), name="seat_order"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, default=new_public_id)
    host_email: Mapped[str] = mapped_column(String(320), index=True)
    title: Mapped[str] = mapped_column(String(200))
    variant: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    policies: Mapped[dict[str, Any]] = mapped_column(default=dict)
    places: Mapped[int]  # seats for people, the host's own included when they play
    bots: Mapped[int] = mapped_column(default=0)
    seat_order: Mapped[str] = mapped_column(String(16), default="joined")
    auto_start: Mapped[bool] = mapped_column(default=False)
    players_may_rematch: Mapped[bool] = mapped_column(default=False, server_default=false())
    # The table's channel the host gave (pbem/service/notices/channels.py): its URL is a secret, read only to set
    # the game's channel when it starts and then cleared; `channel_shown_as` is what the host's page shows.
    channel_url: Mapped[str | None] = mapped_column(Text)
    channel_shown_as: Mapped[str | None] = mapped_column(String(200))
    version: Mapped[int] = mapped_column(default=1)
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime]
    closed_at: Mapped[datetime | None]
    started_at: Mapped[datetime | None]  # claimed once, by the one request that starts the game
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), unique=True)

    joiners: Mapped[list[Joiner]] = relationship(
        back_populates="invite", order_by="Joiner.joined_at, Joiner.id", cascade="all, delete-orphan"
    )


class Joiner(Base):
    """One person who opened the link and gave a name, an address and a time zone. The emailed confirmation link
    names a random nonce whose SHA-256 is `nonce_hash`; only a confirmed joiner takes a seat."""

    __tablename__ = "invite_joiners"
    __table_args__ = (UniqueConstraint("invite_id", "mailbox"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    invite_id: Mapped[int] = mapped_column(ForeignKey("invites.id"), index=True)
    name: Mapped[str] = mapped_column(String(80))
    email: Mapped[str] = mapped_column(String(320))
    mailbox: Mapped[str] = mapped_column(String(320))  # `pbem.addresses.mailbox_key`: one seat per mailbox
    timezone: Mapped[str] = mapped_column(String(64), default="UTC")
    # The language chosen on the join form (pbem/i18n/), the seat's once the game starts; None: none chosen.
    language: Mapped[str | None] = mapped_column(String(8))
    nonce_hash: Mapped[str] = mapped_column(String(64), unique=True)
    joined_at: Mapped[datetime]
    confirmed_at: Mapped[datetime | None]

    invite: Mapped[Invite] = relationship(back_populates="joiners")


class Rematch(Base):
    """A finished game played again: at most one rematch per game (the primary key), linked both ways."""

    __tablename__ = "rematches"

    previous_game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), unique=True)
    requested_by: Mapped[str] = mapped_column(String(320))
    created_at: Mapped[datetime]


class RematchPermission(Base):
    """The host lets any player of this game start its rematch from the game-over page."""

    __tablename__ = "rematch_permissions"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    granted_at: Mapped[datetime]
