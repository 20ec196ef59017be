"""Table talk: one chat per game, for every seat and the host, from the turn page or by replying to an email.

Suspecting each other is the heart of Saboteur, and over days that talk must survive reloads and reach
people in their inbox, so every message is a row (`chat_messages`), read in order, a page at a time. Text
is cleaned here once (`clean_text` of `pbem/service/text.py`: control and direction-changing characters
dropped, lines trimmed, at most `MAX_LENGTH` characters) and shown escaped everywhere, links as plain text.
Each seat may post at any time, within a rate limit counted in the database.

The server writes lines of its own into the same stream for what the table should notice: a seat timed
out, a seat changed hands, the host paused. Other services call `ChatService.post_system_line` (or the
module function of the same name) inside their own transaction, so the line exists exactly when their
change commits.

What a seat has been shown is one number, `seats.chat_read_upto`: the newest message id its page
displayed (reported by the page's script) or an email carried. Emails include the messages after it
(`pbem/service/talk/chat_lines.py`, which the game service's mail reads without importing this module).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, or_, select, update
from sqlalchemy.orm import Session

from pbem.clock import Clock
from pbem.db import Database
from pbem.errors import RateLimited
from pbem.i18n import gettext
from pbem.memo import remembered
from pbem.models import ChatMessage, Game, Seat
from pbem.service.rate_limits import Limit, RateLimiter
from pbem.service.rows import find_game, require_seat
from pbem.service.talk.chat_lines import ChatLine, chat_line, mark_shown
from pbem.service.text import MAX_LENGTH, clean_text  # noqa: F401  (MAX_LENGTH: the chat form's limit)
from pbem.words.table import N_

PAGE_SIZE = 50
MAX_PAGE = 200
HOST_NAME = "Host"  # stored with the host's messages; each page names the host in its reader's words
# Quick enough for a heated accusation, far too slow to flood the table.
PER_MINUTE = Limit("chat_minute", count=8, window=timedelta(minutes=1))
PER_HOUR = Limit("chat_hour", count=80, window=timedelta(hours=1))
TOO_FAST = N_("You are writing faster than the table can read. Please wait a minute and send it again.")

SYSTEM_KIND = re.compile(r"^[a-z][a-z_]{0,39}$")


@dataclass(frozen=True)
class ChatPage:
    lines: list[ChatLine]  # oldest first
    has_earlier: bool


@dataclass(frozen=True)
class SeatChat:
    """The chat as one seat's page shows it, with that seat's own chat settings."""

    page: ChatPage
    chat_emails: bool
    read_upto: int | None
    timezone: str
    version: int  # the game's chat count when this was read (`Game.chat_version`)


def post_system_line(session: Session, game: Game, text: str, kind: str, *, now: datetime) -> ChatMessage:
    """Add a line from the server to the game's chat, in the caller's transaction (it exists if theirs commits)."""
    if not SYSTEM_KIND.match(kind):
        raise ValueError(f"a system line's kind is a short lower-case word, not {kind!r}")
    message = ChatMessage(
        game_id=game.id, sender_kind="system", sender_seat=None, sender_name=None, text=clean_text(text),
        source="system", system_kind=kind, created_at=now,
    )
    return add_message(session, game, message)


def add_message(session: Session, game: Game, message: ChatMessage) -> ChatMessage:
    """The one way a message joins a game's chat: with it, the game's chat count goes up in the same transaction.

    The count is raised in SQL under the game row's lock, so two messages committed at once get two counts."""
    session.add(message)
    game.chat_version = Game.chat_version + 1
    session.flush()
    return message


class ChatService:
    def __init__(self, db: Database, clock: Clock, limiter: RateLimiter) -> None:
        self._db = db
        self._clock = clock
        self._limiter = limiter

    # -- writing -----------------------------------------------------------------------------------

    def post(self, game_id: str, seat: int, text: object) -> ChatLine:
        """A player's message from the turn page; ValidationError or RateLimited change nothing."""
        cleaned = clean_text(text)
        with self._db.write() as session:
            game = find_game(session, game_id)
            own = _own_seat(game, seat)
            message = self.post_in(session, game, own, cleaned, source="page")
            mark_shown(own, message.id)  # posting from the page, they have just read the chat above the form
            return chat_line(message)

    def post_in(self, session: Session, game: Game, seat: Seat, text: str, *, source: str) -> ChatMessage:
        """A seat's message inside the caller's transaction (a reply by email arrives this way)."""
        cleaned = clean_text(text)
        self._within_limits(session, f"{game.public_id}:{seat.seat_index}")
        message = ChatMessage(
            game_id=game.id, sender_kind="seat", sender_seat=seat.seat_index, sender_name=seat.display_name,
            text=cleaned, source=source, system_kind=None, created_at=self._clock.now(),
        )
        return add_message(session, game, message)

    def post_as_host(self, game_id: str, text: object) -> ChatLine:
        """The host's word to the table (the host's game page calls this)."""
        cleaned = clean_text(text)
        with self._db.write() as session:
            game = find_game(session, game_id)
            self._within_limits(session, f"{game.public_id}:host")
            message = ChatMessage(
                game_id=game.id, sender_kind="host", sender_seat=None, sender_name=HOST_NAME, text=cleaned,
                source="page", system_kind=None, created_at=self._clock.now(),
            )
            return chat_line(add_message(session, game, message))

    def post_system_line(self, session: Session, game: Game, text: str, kind: str) -> ChatMessage:
        """A line from the server ("Cat timed out", "the host paused the game"), in the caller's transaction."""
        return post_system_line(session, game, text, kind, now=self._clock.now())

    def _within_limits(self, session: Session, subject: str) -> None:
        # Both limits count every attempt, so each is checked (and counted) even when the first refuses.
        allowed = [self._limiter.allow(session, limit, subject) for limit in (PER_MINUTE, PER_HOUR)]
        if not all(allowed):
            raise RateLimited(gettext(TOO_FAST))

    # -- reading -----------------------------------------------------------------------------------

    def messages(
        self, game_id: str, *, before: int | None = None, after: int | None = None, limit: int = PAGE_SIZE
    ) -> ChatPage:
        """A page of the chat, oldest first: the newest `limit` (before `before`), or the first `limit` after `after`.

        The host's page and the turn page read it alike; nothing here depends on who reads.
        """
        with self._db.read() as session:
            return self._page(session, find_game(session, game_id), before=before, after=after, limit=limit)

    def seat_view(
        self, game_id: str, seat: int, *, before: int | None = None, after: int | None = None, limit: int = PAGE_SIZE
    ) -> SeatChat:
        """A page of the chat (as `messages`) for one seat's page, with the seat's settings and time zone."""
        with self._db.read() as session:
            game = find_game(session, game_id)
            own = _own_seat(game, seat)
            return SeatChat(
                page=remembered(
                    session, "chat", (game.public_id, game.chat_version, before, after, limit),
                    lambda: self._page(session, game, before=before, after=after, limit=limit),
                ),
                chat_emails=own.chat_emails,
                read_upto=own.chat_read_upto,
                timezone=own.timezone,
                version=game.chat_version,
            )

    def _page(self, session: Session, game: Game, *, before: int | None, after: int | None, limit: int) -> ChatPage:
        limit = max(1, min(limit, MAX_PAGE))
        query = select(ChatMessage).where(ChatMessage.game_id == game.id)
        if after is not None:
            rows = list(session.scalars(query.where(ChatMessage.id > after).order_by(ChatMessage.id).limit(limit)))
            return ChatPage(lines=[chat_line(row) for row in rows], has_earlier=False)
        if before is not None:
            query = query.where(ChatMessage.id < before)
        rows = list(session.scalars(query.order_by(ChatMessage.id.desc()).limit(limit + 1)))
        return ChatPage(lines=[chat_line(row) for row in reversed(rows[:limit])], has_earlier=len(rows) > limit)

    # -- a seat's chat settings --------------------------------------------------------------------

    def mark_read(self, game_id: str, seat: int, upto: int) -> None:
        """The page showed messages up to `upto` (never beyond the newest that exists; never moves back)."""
        with self._db.write() as session:
            game = find_game(session, game_id)
            own = _own_seat(game, seat)
            newest = session.scalar(select(func.max(ChatMessage.id)).where(ChatMessage.game_id == game.id))
            if newest is None:
                return
            upto = min(upto, newest)
            session.execute(
                update(Seat)
                .where(Seat.id == own.id, or_(Seat.chat_read_upto.is_(None), Seat.chat_read_upto < upto))
                .values(chat_read_upto=upto)
                .execution_options(synchronize_session=False)
            )

    def set_chat_emails(self, game_id: str, seat: int, wanted: bool) -> None:
        """Whether this seat gets an email for chat messages (at most one every 15 minutes)."""
        with self._db.write() as session:
            _own_seat(find_game(session, game_id), seat).chat_emails = wanted


def _own_seat(game: Game, seat: int) -> Seat:
    require_seat(game, seat)
    return game.seats[seat]
