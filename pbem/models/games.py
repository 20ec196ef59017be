"""Games, their seats, the append-only snapshot history and the host's audit log.

A game's truth is its latest snapshot: the full engine state after each move, with the move and the
events that produced it. The `games` row only caches what sweeps filter by (status, whose turn, since
when), so finding due work never means loading engine state.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from sqlalchemy import CheckConstraint, ForeignKey, Index, PrimaryKeyConstraint, String, UniqueConstraint, event, false
from sqlalchemy.orm import Mapped, Session, mapped_column, relationship

from pbem.models.base import Base, Packed, one_of

if TYPE_CHECKING:
    from pbem.models.clocks import TurnClock



class GameStatus(StrEnum):
    """Where a game stands; stored as these strings (a StrEnum compares equal to the string read back)."""

    CREATED = "created"  # seats filling, no move yet
    ACTIVE = "active"  # being played (the host may have paused it: see `paused`)
    FINISHED = "finished"  # played to the end
    ABANDONED = "abandoned"  # ended by the host


GAME_STATUSES = tuple(status.value for status in GameStatus)
RUNNING_STATUSES = (GameStatus.CREATED, GameStatus.ACTIVE)
OVER_STATUSES = (GameStatus.FINISHED, GameStatus.ABANDONED)
# How a seat hears of its turn: an email at each, one email a day, or its player's own notification addresses
# instead of turn emails (pbem/service/players/notices_instead.py).
NOTIFY_MODES = ("turn", "digest", "notices")


def new_public_id() -> str:
    """Game ids appear in links and pages; they must not be guessable or enumerable."""
    return secrets.token_urlsafe(16)


class Game(Base):
    __tablename__ = "games"
    __table_args__ = (
        CheckConstraint(one_of("status", GAME_STATUSES), name="status"),
        # The sweeps (bot turns, reminders, deadlines) look for active games by how long the turn has waited.
        Index("ix_games_status_turn_started_at", "status", "turn_started_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, default=new_public_id)
    title: Mapped[str] = mapped_column(String(200))
    variant: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    policies: Mapped[dict[str, Any]] = mapped_column(default=dict)
    status: Mapped[str] = mapped_column(String(16), default=GameStatus.CREATED.value)
    paused: Mapped[bool] = mapped_column(default=False)
    is_demo: Mapped[bool] = mapped_column(default=False)
    host_email: Mapped[str] = mapped_column(String(320))
    # Whether the host held a seat when the game was created (their address's mailbox, `pbem.addresses`, is a
    # seat's). Set once and never cleared: such a host has seen a seat's secrets, so no emergency reveal.
    host_plays: Mapped[bool] = mapped_column(default=False, server_default=false())
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]
    # Cached from the latest snapshot by the game service, the only writer.
    current_seq: Mapped[int | None]
    to_act_seat: Mapped[int | None]
    turn_started_at: Mapped[datetime | None]
    # Who held a seat before the host replaced them: {"seat", "name", "upto_seq"}, oldest first
    # (pbem/service/history/holders.py). History names the person who made each move at the time.
    former_holders: Mapped[list[Any]] = mapped_column(default=list, server_default="[]")
    # Counts the chat's messages as they are committed (pbem/service/talk/chat.py, the only writer): a page drawn for
    # one count holds every message of that count, so the chat can be drawn once per count (pbem/memo.py).
    chat_version: Mapped[int] = mapped_column(default=0, server_default="0")
    # A scheduler that is about to play a computer seat's turn holds this lease (see pbem/service/turns/bots.py).
    bot_lease_until: Mapped[datetime | None]
    # Whether the game has a channel or a player with notification addresses (pbem/service/notices/): a move of a
    # game without either looks for neither.
    notices_wanted: Mapped[bool] = mapped_column(default=False, server_default=false())
    # The language its seats read where they chose none (pbem/i18n/), set by the host; None: the server's.
    language: Mapped[str | None] = mapped_column(String(8))

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.seat_index", cascade="all, delete-orphan"
    )
    # Read-only: the game service writes clocks through `pbem/service/timing/turn_clock.py`. Loaded with the game by
    # `service.rows.find_game`, so a page that shows the deadline needs no query of its own for it.
    clock: Mapped[TurnClock | None] = relationship(viewonly=True, lazy="select")

    @property
    def names(self) -> list[str]:
        return [seat.display_name for seat in self.seats]


class Seat(Base):
    __tablename__ = "seats"
    __table_args__ = (
        UniqueConstraint("game_id", "seat_index"),
        UniqueConstraint("game_id", "display_name"),
        CheckConstraint(one_of("notify_mode", NOTIFY_MODES), name="notify_mode"),
        CheckConstraint("is_bot OR email IS NOT NULL", name="human_has_email"),
        # The sweep's daily digests look for the seats that asked for them, not through every seat.
        Index("ix_seats_notify_mode", "notify_mode"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seat_index: Mapped[int]
    display_name: Mapped[str] = mapped_column(String(80))
    email: Mapped[str | None] = mapped_column(String(320))
    # Bumping the version revokes every link issued for this seat before.
    token_version: Mapped[int] = mapped_column(default=1)
    is_bot: Mapped[bool] = mapped_column(default=False)
    notify_mode: Mapped[str] = mapped_column(String(16), default="turn")
    timezone: Mapped[str] = mapped_column(String(64), default="UTC")
    last_seen_at: Mapped[datetime | None]
    # Table talk (pbem/service/talk/chat.py): whether this seat wants an email for chat messages (batched), the
    # newest message it has been shown (on its page or in an email), and when its last chat email was queued.
    chat_emails: Mapped[bool] = mapped_column(default=False, server_default=false())
    chat_read_upto: Mapped[int | None]
    chat_mailed_at: Mapped[datetime | None]
    # Keeping long games moving (pbem/service/timing/turn_clock.py): quiet hours in the seat's time zone ("22:00-08:00";
    # None: the game's default), away time (until when, and how much of the game's cap is used), the run of
    # timeouts that flags a seat as absent, the host's "auto-pass without waiting", the card to discard on a
    # timeout, and the host's last nudge (at most one an hour).
    quiet_hours: Mapped[str | None] = mapped_column(String(11))
    away_until: Mapped[datetime | None]
    away_used_seconds: Mapped[int] = mapped_column(default=0, server_default="0")
    timeouts_in_row: Mapped[int] = mapped_column(default=0, server_default="0")
    absent: Mapped[bool] = mapped_column(default=False, server_default=false())
    auto_pass: Mapped[bool] = mapped_column(default=False, server_default=false())
    timeout_card: Mapped[int | None]
    nudged_at: Mapped[datetime | None]
    # The seat's own hand in its turn emails (off unless it asks: anyone who reads that mailbox then sees it).
    hand_in_email: Mapped[bool] = mapped_column(default=False, server_default=false())
    # The language the seat reads (pbem/i18n/): the one it chose, else that of the browser its page's script last
    # reported a visit from, else the game's.
    language: Mapped[str | None] = mapped_column(String(8))
    browser_language: Mapped[str | None] = mapped_column(String(8))

    game: Mapped[Game] = relationship(back_populates="seats")


# Who chose a snapshot's move: a person (through a form, any id it sends) or the server itself (a computer seat,
# a timeout, the deal, a rollback).
SNAPSHOT_SOURCES = ("player", "server")


class Snapshot(Base):
    """One row per decision taken, never updated or deleted (enforced below).

    The state, move and events are stored packed (`Packed`, pbem/snapshot_codec/), each decoding alone. The
    columns are laid out so that PostgreSQL pads nothing between them, and the game and sequence number are the
    key: no surrogate id nor an index of its own (docs/performance.md, Storage per turn)."""

    __tablename__ = "snapshots"
    __table_args__ = (
        # The key is also the final guard against two moves building on the same state: a retried submission
        # loses to its first attempt there, and finds it as the snapshot after the table its form showed (the
        # submission id has no index of its own: docs/performance.md, Storage per turn).
        PrimaryKeyConstraint("game_id", "seq"),
        CheckConstraint(one_of("source", SNAPSHOT_SOURCES), name="source"),
    )

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seq: Mapped[int]
    created_at: Mapped[datetime]
    actor_seat: Mapped[int | None]
    source: Mapped[str] = mapped_column(String(8), server_default="server")
    submission_id: Mapped[str | None] = mapped_column(String(64))
    state: Mapped[dict[str, Any]] = mapped_column(Packed("state"))
    move: Mapped[dict[str, Any] | None] = mapped_column(Packed("move"))
    events: Mapped[list[Any]] = mapped_column(Packed("events"))


class HostAction(Base):
    """Audit log of what hosts (and the command line on their behalf) did to a game."""

    __tablename__ = "host_actions"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    actor_email: Mapped[str] = mapped_column(String(320))
    action: Mapped[str] = mapped_column(String(64))
    details: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime]


class SnapshotIsAppendOnly(RuntimeError):
    """A programming error: history is never rewritten."""


@event.listens_for(Session, "before_flush")
def _refuse_snapshot_rewrites(session: Session, _context: Any, _instances: Any) -> None:
    for instance in list(session.dirty) + list(session.deleted):
        if isinstance(instance, Snapshot) and (instance in session.deleted or session.is_modified(instance)):
            raise SnapshotIsAppendOnly(f"snapshot {instance.seq} of game {instance.game_id} may not change")
