"""A seat's own settings and what a page needs beside the game view: the names, the computer seats, policies.

Nothing here is hidden information: whether a seat is a computer player and the game's policies are
known to the whole table; a seat's preferences are shown only to that seat.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select

from pbem.clock import Clock
from pbem.db import Database
from pbem.errors import ValidationError
from pbem.i18n import gettext
from pbem.models import Game, Seat
from pbem.models.games import NOTIFY_MODES
from pbem.service.confirmed_mailboxes import confirm_mailbox
from pbem.service.notices.addresses import ShownAddress, shown_addresses
from pbem.service.players.notices_instead import NOTICES_MODE, require_turn_address
from pbem.service.rows import find_game, require_seat
from pbem.service.seats.presence import away_label
from pbem.service.timing.turn_clock import away_cap, current_clock, deadline_moved_from
from pbem.times import zone


@dataclass(frozen=True)
class SeatProfile:
    seat: int
    names: tuple[str, ...]
    notify_mode: str
    timezone: str
    last_seen_at: datetime | None
    computer_seats: frozenset[int]
    policies: dict[str, Any]
    # Keeping long games moving (pbem/service/seats/presence.py, turn_clock.py): the pending turn's deadline with
    # quiet hours, away time and extensions; "away until Fri 3 Dec" per seat; this seat's own settings.
    deadline_at: datetime | None = None
    deadline_moved_from: datetime | None = None  # the deadline the turn began with, when it has moved since
    away: dict[int, str] = field(default_factory=dict)
    away_until: datetime | None = None
    away_until_date: str = ""  # the date the player gave, for the form (ISO, in their time zone)
    away_left: timedelta = timedelta(0)
    quiet_hours: str | None = None
    timeout_card: int | None = None
    auto_pass: bool = False
    absent: bool = False
    hand_in_email: bool = False  # the seat's own hand in its turn emails (its choice; off unless asked)
    addresses: tuple[ShownAddress, ...] = ()  # its player's own notification addresses, masked


class SeatService:
    def __init__(self, db: Database, clock: Clock, *, notices_enabled: bool = True) -> None:
        self._db = db
        self._clock = clock
        self._notices_enabled = notices_enabled  # `notifications.enabled`: may they replace turn emails

    def game_exists(self, game_id: str) -> bool:
        """Whether a game has this public id (ids are long and random: knowing one reveals nothing)."""
        with self._db.read() as session:
            return session.scalar(select(Game.id).where(Game.public_id == game_id)) is not None

    def profile(self, game_id: str, seat: int) -> SeatProfile:
        with self._db.read() as session:
            game = find_game(session, game_id)
            own = _seat(game, seat)
            now = self._clock.now()
            clock = current_clock(session, game)
            return SeatProfile(
                seat=own.seat_index,
                names=tuple(game.names),
                notify_mode=self._mode_in_force(own),
                timezone=own.timezone,
                last_seen_at=own.last_seen_at,
                computer_seats=frozenset(other.seat_index for other in game.seats if other.is_bot),
                policies=dict(game.policies),
                deadline_at=clock.deadline_at if clock is not None and not game.paused else None,
                deadline_moved_from=deadline_moved_from(clock) if not game.paused else None,
                away={
                    other.seat_index: label
                    for other in game.seats
                    if (label := away_label(other.away_until, own.timezone, now)) is not None
                },
                away_until=own.away_until if own.away_until is not None and own.away_until > now else None,
                away_until_date=(
                    own.away_until.astimezone(zone(own.timezone)).date().isoformat()
                    if own.away_until is not None and own.away_until > now else ""
                ),
                away_left=max(away_cap(game) - timedelta(seconds=own.away_used_seconds), timedelta(0)),
                quiet_hours=own.quiet_hours,
                timeout_card=own.timeout_card,
                auto_pass=own.auto_pass,
                absent=own.absent,
                hand_in_email=own.hand_in_email,
                # Read only when someone at the table has addresses (or a channel): a game without costs nothing.
                addresses=tuple(shown_addresses(session, own.email)) if game.notices_wanted and own.email else (),
            )

    def _mode_in_force(self, own: Seat) -> str:
        """How the seat hears of its turns: notifications instead of turn emails are turn emails while this server
        sends none."""
        return "turn" if own.notify_mode == NOTICES_MODE and not self._notices_enabled else own.notify_mode

    def set_notify_mode(self, game_id: str, seat: int, mode: str) -> None:
        """'turn': an email for every turn; 'digest': one email a day (queued by the sweep); 'notices': no turn
        emails, the player's own addresses that take turns instead (only while they have one that works)."""
        if mode not in NOTIFY_MODES:
            raise ValidationError(gettext("Choose how to be told it is your turn: an email each turn, one a day, or "
                                          "your notification addresses."))
        with self._db.write() as session:
            own = _seat(find_game(session, game_id), seat)
            if mode == NOTICES_MODE and own.notify_mode != NOTICES_MODE:
                require_turn_address(session, own.email or "", enabled=self._notices_enabled)
            own.notify_mode = mode

    def owner_email(self, game_id: str, seat: int) -> str:
        """The address of the seat's player (whose notification addresses its settings show), never a computer's."""
        with self._db.read() as session:
            own = _seat(find_game(session, game_id), seat)
            if own.is_bot or own.email is None:
                raise ValidationError(gettext("A computer player has no notification addresses."))
            return own.email

    def set_hand_in_email(self, game_id: str, seat: int, shown: bool) -> None:
        """Whether the seat's turn emails list its own hand (anyone who reads that mailbox then sees it)."""
        with self._db.write() as session:
            _seat(find_game(session, game_id), seat).hand_in_email = shown

    def mark_seen(self, game_id: str, seat: int) -> None:
        """Record that the player looked at the table (a POST from the page's script, never a GET)."""
        with self._db.write() as session:
            own = _seat(find_game(session, game_id), seat)
            own.last_seen_at = self._clock.now()
            confirm_mailbox(session, own.email, own.last_seen_at)


def _seat(game: Game, seat: int) -> Seat:
    require_seat(game, seat)
    return game.seats[seat]
