"""The seats of one mailbox: every seat whose address reaches it (`pbem.addresses.mailbox_key`: case and a
`+tag` folded), in any game. A replaced player's old seat has another address now, so it is no longer theirs."""

from __future__ import annotations

from sqlalchemy import ColumnElement, SQLColumnExpression, func, or_, select
from sqlalchemy.orm import Session, selectinload

from pbem.addresses import mailbox_key
from pbem.models import Game, Seat


def _like_escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def reaches(column: SQLColumnExpression[str | None], mailbox: str) -> ColumnElement[bool]:
    """SQL that keeps the addresses that may reach `mailbox` (`seats_of` then checks each exactly)."""
    local, _, domain = mailbox.rpartition("@")
    lowered = func.lower(column)
    return or_(lowered == mailbox, lowered.like(f"{_like_escaped(local)}+%@{_like_escaped(domain)}", escape="\\"))


def seats_of(session: Session, mailbox: str) -> list[Seat]:
    """Every person's seat (not a computer's) whose address reaches `mailbox`, with its game and the game's seats."""
    candidates = session.scalars(
        select(Seat)
        .where(Seat.is_bot.is_(False), Seat.email.is_not(None), reaches(Seat.email, mailbox))
        .options(selectinload(Seat.game).selectinload(Game.seats))
    ).all()
    return [seat for seat in candidates if seat.email is not None and mailbox_key(seat.email) == mailbox]


def has_a_seat(session: Session, mailbox: str) -> bool:
    candidates = session.scalars(
        select(Seat.email).where(Seat.is_bot.is_(False), Seat.email.is_not(None), reaches(Seat.email, mailbox))
    ).all()
    return any(email is not None and mailbox_key(email) == mailbox for email in candidates)
