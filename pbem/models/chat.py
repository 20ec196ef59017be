"""Table talk: the chat of a game, and the record of every email that tried to join it.

`chat_messages` is one stream per game, read by every seat and the host: what players said (on the
turn page or by replying to an email) and lines the server writes for the table to notice (a seat
timed out, a seat changed hands, the host paused). `inbound_mail` remembers each email that reached the
reply address by its receipt key (its Message-ID together with the reply token and sender it came with), unique,
so a message polled or delivered twice is handled once, and a stranger who reuses a Message-ID blocks nothing.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from pbem.models.base import Base, one_of

SENDER_KINDS = ("seat", "host", "system")
SOURCES = ("page", "email", "system")
INBOUND_OUTCOMES = ("posted", "rejected", "ignored")


class ChatMessage(Base):
    __tablename__ = "chat_messages"
    __table_args__ = (
        CheckConstraint(one_of("sender_kind", SENDER_KINDS), name="sender_kind"),
        CheckConstraint(one_of("source", SOURCES), name="source"),
        CheckConstraint("(sender_kind = 'seat') = (sender_seat IS NOT NULL)", name="seat_names_its_seat"),
        # Pages and emails read a game's messages in order, newest last, a page at a time.
        Index("ix_chat_messages_game_id_id", "game_id", "id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    sender_kind: Mapped[str] = mapped_column(String(16))
    sender_seat: Mapped[int | None]
    # The name as it was when the message was written: a seat that changes hands keeps its old words.
    sender_name: Mapped[str | None] = mapped_column(String(80))
    text: Mapped[str] = mapped_column(Text)
    source: Mapped[str] = mapped_column(String(16))
    # What a system line is about (e.g. "timeout", "hand_change", "pause"); None for people's messages.
    system_kind: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime]


class InboundMail(Base):
    """One email that reached the reply address, and what became of it."""

    __tablename__ = "inbound_mail"
    __table_args__ = (CheckConstraint(one_of("outcome", INBOUND_OUTCOMES), name="outcome"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    # The Message-ID (or a digest of the message when it has none or an absurd one), as the sender chose it.
    message_id: Mapped[str] = mapped_column(String(255))
    # What is handled once: a digest of the Message-ID with the reply token and the sender (pbem/mail/inbound.py).
    receipt_key: Mapped[str] = mapped_column(String(255), unique=True)
    sender: Mapped[str] = mapped_column(String(320))
    outcome: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str] = mapped_column(String(200))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    chat_message_id: Mapped[int | None] = mapped_column(ForeignKey("chat_messages.id"))
    received_at: Mapped[datetime]
