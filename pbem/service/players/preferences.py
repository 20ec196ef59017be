"""A player's preferences for all games, as one seat takes them (kept in `player_preferences` by mailbox)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.addresses import mailbox_key
from pbem.models import PlayerPreferences, Seat


@dataclass(frozen=True)
class Preferences:
    timezone: str = "UTC"
    quiet_hours: str | None = None
    notify_mode: str = "turn"  # 'turn': an email at each turn; 'daily': one email a day across games


def apply_to_seat(preferences: Preferences, seat: Seat) -> None:
    """A seat takes the player's preferences: with the daily email, the seat's turn emails stop."""
    seat.timezone = preferences.timezone
    seat.quiet_hours = preferences.quiet_hours
    seat.notify_mode = "digest" if preferences.notify_mode == "daily" else "turn"


def apply_preferences(session: Session, seats: Iterable[Seat]) -> None:
    """Give each seat its player's preferences, if the player set any (in the caller's transaction)."""
    people = [seat for seat in seats if seat.email is not None]
    mailboxes = {mailbox_key(seat.email) for seat in people if seat.email is not None}
    if not mailboxes:
        return
    rows = {row.mailbox: row for row in session.scalars(
        select(PlayerPreferences).where(PlayerPreferences.mailbox.in_(sorted(mailboxes)))
    )}
    for seat in people:
        row = rows.get(mailbox_key(seat.email or ""))
        if row is not None:
            apply_to_seat(preferences_of(row), seat)


def preferences_of(row: PlayerPreferences) -> Preferences:
    return Preferences(timezone=row.timezone, quiet_hours=row.quiet_hours, notify_mode=row.notify_mode)
