"""Chat messages as readers see them, and what an email to a seat quotes of the chat.

Apart from `pbem/service/talk/chat.py` because the game service's mail (`pbem/service/letters/game_mail.py`) reads it
inside the move's transaction, and the chat service itself builds on the game service: this module needs
only the models.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from pbem.models import ChatMessage, Game, Seat
from pbem.service.talk.system_lines import read_system_line

# Messages quoted in an email; the rest are "N more on the page".
EMAIL_EXCERPT = 10


@dataclass(frozen=True)
class ChatLine:
    """One message as every reader sees it (who, when, what); `seat` None for the host and the server."""

    id: int
    kind: str  # "seat", "host" or "system"
    seat: int | None
    name: str | None
    text: str
    source: str  # "page", "email" or "system"
    created_at: datetime

    @property
    def is_system(self) -> bool:
        return self.kind == "system"

    @property
    def said(self) -> str:
        """The message in the reader's language: the server's lines are said again in it, people's as written."""
        return read_system_line(self.text) if self.is_system else self.text


@dataclass(frozen=True)
class ChatExcerpt:
    """What an email to one seat quotes: the newest unread messages (oldest first) and how many more there are."""

    lines: list[ChatLine]
    more: int
    upto: int | None  # the newest message of the game when the excerpt was taken

    def __bool__(self) -> bool:
        return bool(self.lines)


def unread_excerpt(session: Session, game: Game, seat: Seat, *, cap: int = EMAIL_EXCERPT) -> ChatExcerpt:
    """The messages `seat` has not been shown (its own left out), newest `cap` of them, for an email."""
    upto = session.scalar(select(func.max(ChatMessage.id)).where(ChatMessage.game_id == game.id))
    if upto is None or upto <= (seat.chat_read_upto or 0):
        return ChatExcerpt(lines=[], more=0, upto=upto)  # nothing new at the table: one query, not three
    unread = (
        ChatMessage.game_id == game.id,
        ChatMessage.id > (seat.chat_read_upto or 0),
        or_(ChatMessage.sender_seat.is_(None), ChatMessage.sender_seat != seat.seat_index),
    )
    count = session.scalar(select(func.count()).select_from(ChatMessage).where(*unread)) or 0
    newest = session.scalars(select(ChatMessage).where(*unread).order_by(ChatMessage.id.desc()).limit(cap)).all()
    return ChatExcerpt(lines=[chat_line(row) for row in reversed(newest)], more=max(count - cap, 0), upto=upto)


def mark_shown(seat: Seat, upto: int | None) -> None:
    """Record, in the caller's transaction, that `seat` has been shown every message up to `upto`."""
    if upto is not None and (seat.chat_read_upto is None or seat.chat_read_upto < upto):
        seat.chat_read_upto = upto


def chat_line(row: ChatMessage) -> ChatLine:
    return ChatLine(
        id=row.id, kind=row.sender_kind, seat=row.sender_seat, name=row.sender_name, text=row.text,
        source=row.source, created_at=row.created_at,
    )
