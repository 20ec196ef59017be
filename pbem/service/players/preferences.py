"""A player's preferences for all games, as one seat takes them (kept in `player_preferences` by mailbox).

Quiet hours mean the same everywhere: None is the game's own default (a server's 22:00-08:00 unless its host
chose others), "" is none, and "22:00-08:00" the player's own. A language of None leaves each seat's own (chosen on
its page or the join form, else its browser's, else its game's: pbem/service/seats/languages.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.addresses import mailbox_key
from pbem.errors import ValidationError
from pbem.i18n import LANGUAGES, gettext, supported
from pbem.models import Invite, Joiner, PlayerPreferences, Seat

FIELDS = ("timezone", "quiet_hours", "notify_mode", "language")


@dataclass(frozen=True)
class Preferences:
    timezone: str = "UTC"
    quiet_hours: str | None = None
    # 'turn': an email at each turn; 'daily': one email a day across games; 'notices': no turn emails, their own
    # notification addresses instead (pbem/service/players/notices_instead.py)
    notify_mode: str = "turn"
    language: str | None = None  # "de", "en", "ko"; None: not chosen for all games


# A seat's notify_mode for each of the player's.
SEAT_MODE = {"turn": "turn", "daily": "digest", "notices": "notices"}


def apply_to_seat(preferences: Preferences, seat: Seat, fields: Iterable[str] = FIELDS) -> None:
    """A seat takes the player's preferences (only `fields`): with the daily email, or notifications instead, the
    seat's turn emails stop."""
    chosen = set(fields)
    if "timezone" in chosen:
        seat.timezone = preferences.timezone
    if "quiet_hours" in chosen:
        seat.quiet_hours = preferences.quiet_hours
    if "notify_mode" in chosen:
        seat.notify_mode = SEAT_MODE.get(preferences.notify_mode, "turn")
    if "language" in chosen and preferences.language is not None:
        seat.language = preferences.language


def apply_preferences(session: Session, seats: Iterable[Seat]) -> None:
    """Give each seat of a game that starts the language its player chose on the join form, then its player's
    preferences for all games, if the player set any (in the caller's transaction)."""
    people = [seat for seat in seats if seat.email is not None]
    mailboxes = {mailbox_key(seat.email) for seat in people if seat.email is not None}
    if not mailboxes:
        return
    joined = {joiner.mailbox: joiner.language for joiner in session.scalars(
        select(Joiner).join(Invite).where(
            Invite.game_id.in_(sorted({seat.game_id for seat in people})), Joiner.confirmed_at.is_not(None),
            Joiner.language.is_not(None),
        )
    )}
    for seat in people:
        language = joined.get(mailbox_key(seat.email or ""))
        if language is not None and seat.language is None:
            seat.language = language
    rows = {row.mailbox: row for row in session.scalars(
        select(PlayerPreferences).where(PlayerPreferences.mailbox.in_(sorted(mailboxes)))
    )}
    for seat in people:
        row = rows.get(mailbox_key(seat.email or ""))
        if row is not None:
            apply_to_seat(preferences_of(row), seat)


def chosen_language(code: str | None) -> str | None:
    """A language a person picked ("de", "en", "ko"; None: none picked); ValidationError for one we do not speak."""
    return None if code is None else checked_language(code)


def checked_language(code: str) -> str:
    """`code` if the server speaks it, else ValidationError naming the choices."""
    language = supported(code)
    if language is None or language != code:
        raise ValidationError(gettext("Choose a language: %(languages)s.", languages=language_names()))
    return language


def language_names() -> str:
    """Each language in its own name: "Deutsch, English, 한국어"."""
    return ", ".join(LANGUAGES.values())


def preferences_of(row: PlayerPreferences) -> Preferences:
    return Preferences(timezone=row.timezone, quiet_hours=row.quiet_hours, notify_mode=row.notify_mode,
                       language=row.language)


def preferences_in_force(seats: list[Seat]) -> Preferences:
    """For a player who never saved preferences: what their newest seat uses (the defaults without one)."""
    if not seats:
        return Preferences()
    newest = max(seats, key=lambda seat: seat.game.created_at)
    return replace(
        Preferences(), timezone=newest.timezone, quiet_hours=newest.quiet_hours,
        notify_mode={seat_mode: mode for mode, seat_mode in SEAT_MODE.items()}.get(newest.notify_mode, "turn"),
        language=newest.language,
    )
