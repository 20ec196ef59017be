"""What "My games" reads and the preferences a player sets for all their games at once.

The list holds the seats of the signed-in mailbox only (`mailboxes.seats_of`), each with a link to that seat
alone (a fresh seat link, as its emails carry): nothing wider than what the seat's own email gives.
Your turn first, the least time left first; then the games waiting on others; then the finished ones.
Every fact shown is the seat's own view or public: the round, whose turn, the deadline, unread table talk.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

import engine
from pbem.clock import Clock
from pbem.db import Database
from pbem.errors import ValidationError
from pbem.i18n import gettext
from pbem.models import ChatMessage, Game, GameStatus, PlayerPreferences, Seat
from pbem.models.players import PLAYER_NOTIFY_MODES
from pbem.quiet_hours import parse_quiet_hours
from pbem.seat_link import SeatLink
from pbem.service.history.disclosure import game_is_closed
from pbem.service.players.access import Player
from pbem.service.players.mailboxes import seats_of
from pbem.service.players.notices_instead import NOTICES_MODE, require_turn_address
from pbem.service.players.preferences import (
    FIELDS,
    Preferences,
    apply_to_seat,
    chosen_language,
    preferences_in_force,
    preferences_of,
)
from pbem.service.players.record import GameRecord, Record, game_record
from pbem.service.snapshots import latest_state
from pbem.service.timing.deadlines import policy
from pbem.service.timing.turn_clock import current_clock, deadline_moved_from, keep_deadline, reschedule
from pbem.times import zone
from pbem.tokens import LinkSigner
from pbem.variants import variant_choices

YOUR_TURN, WAITING, FINISHED = "your-turn", "waiting", "finished"
GROUP_ORDER = (YOUR_TURN, WAITING, FINISHED)


@dataclass(frozen=True)
class GameEntry:
    title: str
    variant: str  # its title ("Saboteur 2")
    variant_name: str  # the engine's name ("saboteur2"), for its title in the reader's language
    group: str  # YOUR_TURN, WAITING or FINISHED
    status: str
    round: int | None
    rounds: int | None
    to_act_name: str | None
    deadline: datetime | None
    deadline_moved_from: datetime | None  # the deadline the turn began with, when it has moved since
    unread: int
    link: str
    seat_name: str
    updated_at: datetime
    paused: bool
    timezone: str  # the seat's settings in force in this game
    quiet_hours: str  # in force: "22:00-08:00", or "" for none (the game's default resolved)
    quiet_setting: str | None  # as the seat stores it: None for the game's default


def sort_entries(entries: list[GameEntry]) -> list[GameEntry]:
    """Your turn first (least time left first, no deadline last), then waiting on others, then finished (both
    most recently active first)."""
    def key(entry: GameEntry) -> tuple[int, int, float]:
        group = GROUP_ORDER.index(entry.group)
        if entry.group == YOUR_TURN:
            if entry.deadline is None:
                return group, 1, -entry.updated_at.timestamp()
            return group, 0, entry.deadline.timestamp()
        return group, 0, -entry.updated_at.timestamp()
    return sorted(entries, key=key)


class PlayerHome:
    def __init__(self, db: Database, clock: Clock, links: LinkSigner, *, notices_enabled: bool = True) -> None:
        self._db = db
        self._clock = clock
        self._links = links
        self._notices_enabled = notices_enabled  # `notifications.enabled`: may they replace turn emails
        self._variants = {choice.name: choice.title for choice in variant_choices()}

    def my_games(self, player: Player) -> list[GameEntry]:
        with self._db.read() as session:
            return sort_entries([self._entry(session, seat) for seat in seats_of(session, player.mailbox)])

    def record(self, player: Player) -> Record:
        """Games played and won, rounds won by role, gold: per game and overall, from what is over only."""
        games: list[GameRecord] = []
        with self._db.read() as session:
            for seat in seats_of(session, player.mailbox):
                game = seat.game
                if game.current_seq is None:
                    continue
                view = engine.view(latest_state(session, game), seat.seat_index)
                games.append(
                    game_record(game.title, seat.seat_index, view, finished=game.status == GameStatus.FINISHED)
                )
        return Record(games=games)

    def preferences(self, player: Player) -> Preferences:
        """The preferences saved, or for a player who never saved any, those their newest seat uses; notifications
        instead of turn emails read as turn emails while this server sends no notifications (what happens then)."""
        with self._db.read() as session:
            row = session.get(PlayerPreferences, player.mailbox)
            chosen = preferences_of(row) if row is not None else preferences_in_force(seats_of(session, player.mailbox))
        if chosen.notify_mode == NOTICES_MODE and not self._notices_enabled:
            return dataclasses.replace(chosen, notify_mode="turn")
        return chosen

    def set_preferences(self, player: Player, preferences: Preferences, changed: Iterable[str] = FIELDS) -> int:
        """Keep `preferences` and apply the `changed` ones to every seat of the player's games that are not over
        (each game can be changed on its own page afterwards); how many seats changed. Checked before anything
        changes. A seat's running deadline may move later, never earlier: the new hours apply in full from its
        next turn."""
        wanted = checked(preferences)
        fields = [name for name in FIELDS if name in set(changed)]
        with self._db.write() as session:
            if "notify_mode" in fields and wanted.notify_mode == NOTICES_MODE:
                require_turn_address(session, player.email, enabled=self._notices_enabled)
            row = session.get(PlayerPreferences, player.mailbox)
            if row is None:
                row = PlayerPreferences(mailbox=player.mailbox)
                session.add(row)
            row.email = player.email
            row.timezone, row.quiet_hours, row.notify_mode = wanted.timezone, wanted.quiet_hours, wanted.notify_mode
            if wanted.language is not None:
                row.language = wanted.language
            row.updated_at = self._clock.now()
            now = self._clock.now()
            seats = [seat for seat in seats_of(session, player.mailbox) if not game_is_closed(seat.game)]
            for seat in seats:
                apply_to_seat(wanted, seat, fields)
                clock = current_clock(session, seat.game)
                if clock is not None and clock.seat == seat.seat_index and seat.game.status == GameStatus.ACTIVE:
                    keep_deadline(clock)
                    reschedule(seat.game, clock, now)  # the pending turn's reminders follow the new quiet hours
            return len(seats)

    def _entry(self, session: Session, seat: Seat) -> GameEntry:
        game = seat.game
        view = engine.view(latest_state(session, game), seat.seat_index) if game.current_seq is not None else None
        to_act = game.to_act_seat if game.status == GameStatus.ACTIVE else None
        clock = current_clock(session, game) if to_act is not None and not game.paused else None
        group = FINISHED if game_is_closed(game) else YOUR_TURN if to_act == seat.seat_index else WAITING
        return GameEntry(
            title=game.title,
            variant=self._variants.get(game.variant, game.variant),
            variant_name=game.variant,
            group=group,
            status=game.status,
            round=view["round"] if view else None,
            rounds=view["rounds"] if view else None,
            to_act_name=game.names[to_act] if to_act is not None else None,
            deadline=clock.deadline_at if clock is not None else None,
            deadline_moved_from=deadline_moved_from(clock),
            unread=unread_count(session, game, seat),
            link=self._links.url(SeatLink(game_id=game.public_id, seat=seat.seat_index, version=seat.token_version)),
            seat_name=seat.display_name,
            updated_at=game.updated_at,
            paused=game.paused,
            timezone=seat.timezone,
            quiet_hours=seat.quiet_hours if seat.quiet_hours is not None else policy(game.policies, "quiet_hours"),
            quiet_setting=seat.quiet_hours,
        )


def unread_count(session: Session, game: Game, seat: Seat) -> int:
    """Table talk this seat has not been shown (its own lines left out)."""
    return (
        session.scalar(
            select(func.count())
            .select_from(ChatMessage)
            .where(
                ChatMessage.game_id == game.id,
                ChatMessage.id > (seat.chat_read_upto or 0),
                or_(ChatMessage.sender_seat.is_(None), ChatMessage.sender_seat != seat.seat_index),
            )
        )
        or 0
    )


def checked(preferences: Preferences) -> Preferences:
    """The preferences cleaned, or ValidationError saying what to fix (in the reader's language)."""
    name = (preferences.timezone or "").strip()
    if zone(name).key != name:
        raise ValidationError(gettext("Unknown time zone %(name)s: use a name such as Europe/Berlin.", name=repr(name)))
    quiet = preferences.quiet_hours
    if quiet is not None:
        quiet = quiet.strip().replace(" ", "")
        try:
            parse_quiet_hours(quiet)
        except ValueError as exc:
            raise ValidationError(gettext("Quiet hours: %(problem)s.", problem=str(exc))) from None
    if preferences.notify_mode not in PLAYER_NOTIFY_MODES:
        raise ValidationError(gettext("Choose how to be told of your turns: an email at every turn, one daily email, "
                                      "or your notification addresses."))
    return Preferences(timezone=name, quiet_hours=quiet, notify_mode=preferences.notify_mode,
                       language=chosen_language(preferences.language))
