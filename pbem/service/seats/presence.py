"""A player's own say over their clock, from the turn page: away time, quiet hours, the card to lose on a timeout.

- Away until a date (in the seat's time zone, back on that morning when its quiet hours end): the seat's
  deadlines are held back meanwhile, within the game's per-seat cap (`away_cap_days`, all spells together);
  others see "away until Fri 3 Dec" beside the name. Clearing it ("I'm back") refunds what was not used.
- Time zone and quiet hours ("22:00-08:00", "" for none, None for the game's default).
- The card to discard face down "if I time out"; a marked card no longer in hand is ignored.
- "I'm back": the run of timeouts, the absent flag and the host's auto-pass end (as when they play a turn).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from enum import Enum
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import format_skeleton
from sqlalchemy.orm import Session

import engine
from pbem.clock import Clock
from pbem.db import Database
from pbem.errors import ValidationError
from pbem.i18n import current_language, current_locale, gettext, in_language
from pbem.models import Game, GameStatus, Seat
from pbem.quiet_hours import parse_quiet_hours
from pbem.service.rows import lock_game, require_seat
from pbem.service.snapshots import latest_state
from pbem.service.talk.chat import post_system_line
from pbem.service.timing.turn_clock import (
    charge_away,
    current_clock,
    keep_deadline,
    quiet_hours_of,
    refund_away,
    reschedule,
    seat_moved,
)
from pbem.times import zone

MAX_AWAY_AHEAD = timedelta(days=365)


class Unchanged(Enum):
    UNCHANGED = "unchanged"


UNCHANGED = Unchanged.UNCHANGED  # a setting the player left as it was


def away_label(away_until: datetime | None, zone_name: str | None, now: datetime) -> str | None:
    """E.g. "away until Fri 3 Dec" (None when the seat is not away), in the reader's time zone and language."""
    if away_until is None or away_until <= now:
        return None
    return gettext("away until %(day)s", day=short_day(away_until.astimezone(zone(zone_name))))


def short_day(local: datetime) -> str:
    """The day of a moment, short, as the reader's language writes it: "Fri 3 Dec", "Fr., 3. Dez.", "12월 3일 (금)"."""
    if current_language() == "en":
        return f"{local:%a} {local.day} {local:%b}"
    return format_skeleton("MMMEd", local, locale=current_locale())


def back_on(day: date, game: Game, seat: Seat) -> datetime:
    """The moment a player away "until `day`" counts as back: that morning, when their quiet hours end."""
    quiet = quiet_hours_of(game, seat)
    morning = quiet[1] if quiet is not None else time(0, 0)
    return datetime.combine(day, morning, tzinfo=zone(seat.timezone)).astimezone(UTC)


class Presence:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    def set_away(self, game_id: str, seat: int, until: date | None) -> datetime | None:
        """Away until the morning of `until` (None: back now). Returns the stored moment."""
        now = self._clock.now()
        with self._db.write() as session:
            game, row = _game_seat(session, game_id, seat)
            if until is None:
                moment = None
            else:
                if not isinstance(until, date):
                    raise ValidationError(gettext("Choose the date you will be back."))
                moment = back_on(until, game, row)
                if moment <= now:
                    raise ValidationError(gettext("Choose a date after today for being back."))
                if moment - now > MAX_AWAY_AHEAD:
                    raise ValidationError(gettext("Choose a date within a year."))
            self._retime(session, game, row, now, away_until=moment)
            post_system_line(session, game, away_line(game, row, moment, now), "away", now=now)
            return moment

    def come_back(self, game_id: str, seat: int) -> None:
        """The player is here again: no longer away, absent or auto-passed."""
        now = self._clock.now()
        with self._db.write() as session:
            game, row = _game_seat(session, game_id, seat)
            was = row.absent or row.auto_pass or (row.away_until is not None and row.away_until > now)
            seat_moved(row)
            self._retime(session, game, row, now, away_until=None)
            if was:
                post_system_line(session, game, away_line(game, row, None, now), "away", now=now)

    def set_timing(
        self, game_id: str, seat: int, *, timezone_name: str | None,
        quiet_hours: str | None | Literal[Unchanged.UNCHANGED] = UNCHANGED,
    ) -> None:
        """The seat's time zone (an IANA name such as "Europe/Berlin"; None: unchanged) and quiet hours
        ("22:00-08:00"; "" for none; None for the game's default; UNCHANGED). Both are checked before either
        changes; the seat's running deadline may move later for it, never earlier."""
        if timezone_name is not None:
            timezone_name = timezone_name.strip()
            try:
                ZoneInfo(timezone_name)
            except (ZoneInfoNotFoundError, ValueError):
                raise ValidationError(gettext(
                    "Unknown time zone %(name)s: use a name such as Europe/Berlin.", name=repr(timezone_name)
                )) from None
        if quiet_hours is not None and quiet_hours is not UNCHANGED:
            if not isinstance(quiet_hours, str):
                raise ValidationError(gettext("Quiet hours are written like 22:00-08:00."))
            try:
                parse_quiet_hours(quiet_hours)
            except ValueError as exc:
                raise ValidationError(gettext("Quiet hours: %(problem)s.", problem=str(exc))) from None
            quiet_hours = quiet_hours.strip().replace(" ", "")
        now = self._clock.now()
        with self._db.write() as session:
            game, row = _game_seat(session, game_id, seat)
            if timezone_name is not None:
                row.timezone = timezone_name
            if quiet_hours is not UNCHANGED:
                row.quiet_hours = quiet_hours
            self._retime(session, game, row, now, away_until=row.away_until, own_settings=True)

    def mark_timeout_card(self, game_id: str, seat: int, card: int | None) -> None:
        """The card to discard face down if this seat's turn times out (None: a random one)."""
        if card is not None and type(card) is not int:
            raise ValidationError(gettext("Choose a card from your hand."))
        with self._db.write() as session:
            game, row = _game_seat(session, game_id, seat)
            if card is not None:
                if game.current_seq is None:
                    raise ValidationError(gettext("The game has not started yet."))
                hand = engine.view(latest_state(session, game), seat)["you"].get("hand", [])
                if card not in {entry["id"] for entry in hand}:
                    raise ValidationError(gettext("That card is not in your hand."))
            row.timeout_card = card

    def _retime(
        self, session: Session, game: Game, row: Seat, now: datetime, *, away_until: datetime | None,
        own_settings: bool = False,
    ) -> None:
        """Store the seat's new away time and replan its pending turn, if it has one. A change of the seat's own
        time zone or quiet hours (`own_settings`) never brings that turn's deadline earlier."""
        clock = current_clock(session, game)
        mine = clock is not None and clock.seat == row.seat_index and game.status == GameStatus.ACTIVE
        if mine and own_settings:
            keep_deadline(clock)  # type: ignore[arg-type]
        if mine:
            refund_away(game, clock, now)  # type: ignore[arg-type]
        row.away_until = away_until
        if mine:
            charge_away(game, clock, now)  # type: ignore[arg-type]
            reschedule(game, clock, now)  # type: ignore[arg-type]


def away_line(game: Game, row: Seat, away_until: datetime | None, now: datetime) -> str:
    """The table talk's line about a player away or back: kept as written, for every reader of the table, so in
    the game's language (its host's choice; the server's default, English, without one)."""
    with in_language(game.language):
        if away_until is not None and away_until > now:
            day = short_day(away_until.astimezone(zone(row.timezone)))
            return gettext("%(name)s is away until %(day)s.", name=row.display_name, day=day)
        return gettext("%(name)s is back.", name=row.display_name)


def _game_seat(session: Session, game_id: str, seat: int) -> tuple[Game, Seat]:
    game = lock_game(session, game_id)
    require_seat(game, seat)
    return game, game.seats[seat]
