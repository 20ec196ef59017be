"""Play again: a finished game's rematch, with the same players, variant, options and policies, a new deal and the
seats rotated by one (or shuffled); everyone is emailed their new link, as for any game that starts.

The host may start it from the game's page; any player may from the game-over page when the host allowed it
(`rematch_permissions`). A game has at most one rematch (`rematches`, keyed by the previous game): whoever asks
second is shown the one that exists. Players keep their time zone, quiet hours and mail choices; the table keeps
its channel (while it is switched on).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import delete, select

from pbem.clock import Clock
from pbem.db import Database
from pbem.errors import GameNotFound, GameNotOver, NotAllowed, ValidationError
from pbem.i18n import gettext
from pbem.models import Game, GameStatus, Rematch, RematchPermission
from pbem.service.notices.channels import TableChannels
from pbem.service.rows import lock_game
from pbem.service.turns.games import GameService
from pbem.service.turns.values import MAX_TITLE, PlayerSpec

ORDERS = ("rotated", "shuffled")
SUFFIX = " (rematch)"
# A title's rematch suffix, " (rematch)" or " (rematch 2)", " (rematch 3)"... for the rematches that follow.
NUMBERED_SUFFIX = re.compile(r" \(rematch(?: (\d+))?\)$")


@dataclass(frozen=True)
class Lineage:
    """Where a game sits in its series: the game it replays and the rematch that replays it (public ids)."""

    previous: str | None
    previous_title: str | None
    next: str | None
    players_may_rematch: bool


@dataclass(frozen=True)
class SeatCopy:
    name: str
    email: str | None
    is_bot: bool
    timezone: str
    quiet_hours: str | None
    notify_mode: str
    chat_emails: bool


def rematch_title(title: str) -> str:
    """ "Mine" -> "Mine (rematch)" -> "Mine (rematch 2)" -> "Mine (rematch 3)": one suffix, counting the rematches,
    kept whole when the title is cut to fit."""
    found = NUMBERED_SUFFIX.search(title)
    number = int(found.group(1) or 1) + 1 if found else 1
    suffix = SUFFIX if number == 1 else f" (rematch {number})"
    base = title[: found.start()] if found else title
    return base[: MAX_TITLE - len(suffix)] + suffix


def rotated(seats: list[SeatCopy]) -> list[SeatCopy]:
    """Everyone moves one place: the first player of the last game plays last."""
    return seats[1:] + seats[:1]


class Rematches:
    def __init__(self, db: Database, clock: Clock, games: GameService, channels: TableChannels) -> None:
        self._db = db
        self._channels = channels
        self._clock = clock
        self._games = games

    def lineage(self, game_id: str) -> Lineage:
        with self._db.read() as session:
            game = session.scalar(select(Game).where(Game.public_id == game_id))
            if game is None:
                return Lineage(None, None, None, False)
            previous = session.execute(
                select(Game.public_id, Game.title).join(Rematch, Rematch.previous_game_id == Game.id)
                .where(Rematch.game_id == game.id)
            ).first()
            following = session.scalar(
                select(Game.public_id)
                .join(Rematch, Rematch.game_id == Game.id)
                .where(Rematch.previous_game_id == game.id)
            )
            allowed = session.get(RematchPermission, game.id) is not None
            return Lineage(previous[0] if previous else None, previous[1] if previous else None, following, allowed)

    def allow_players(self, game_id: str, allowed: bool) -> None:
        """Whether any player of the game may start its rematch from the game-over page."""
        with self._db.write() as session:
            game = session.scalar(select(Game).where(Game.public_id == game_id))
            if game is None:
                raise ValidationError(gettext("There is no such game."))
            session.execute(delete(RematchPermission).where(RematchPermission.game_id == game.id))
            if allowed:
                session.add(RematchPermission(game_id=game.id, granted_at=self._clock.now()))

    def start(self, game_id: str, *, requested_by: str, order: str = "rotated", by_player: bool = False) -> str:
        """The rematch of a finished game, dealt and mailed, in one transaction; its public id (the existing one if
        asked twice: the previous game's lock makes a second asker wait for the first and find the rematch).
        `by_player`: asked from the game-over page, which the host must have allowed."""
        if order not in ORDERS:
            raise ValidationError(gettext("Choose the seats of the rematch: rotated by one, or shuffled."))
        now = self._clock.now()
        with self._db.write() as session:
            try:
                game = lock_game(session, game_id)
            except GameNotFound:
                raise ValidationError(gettext("There is no such game.")) from None
            if game.status != GameStatus.FINISHED:
                raise GameNotOver(gettext("A rematch starts once the game is over."))
            if by_player and session.get(RematchPermission, game.id) is None:
                raise NotAllowed(gettext("The host starts this game's rematch; ask them on the table talk."))
            rematch = session.get(Rematch, game.id)
            if rematch is not None and rematch.game_id is not None:
                return str(session.scalar(select(Game.public_id).where(Game.id == rematch.game_id)))
            seats = [
                SeatCopy(seat.display_name, seat.email, seat.is_bot, seat.timezone, seat.quiet_hours,
                         seat.notify_mode, seat.chat_emails)
                for seat in game.seats
            ]
            order_seats = rotated(seats) if order == "rotated" else self._games.chance.shuffled(seats)
            new_game = self._games.create_game_in(
                session,
                title=rematch_title(game.title),
                host_email=game.host_email,
                variant=game.variant,
                options=dict(game.options or {}) or None,
                policies=dict(game.policies or {}),
                players=[PlayerSpec(seat.name, seat.email, seat.is_bot) for seat in order_seats],
                language=game.language,  # its players' until each chooses, as in the game it replays
            )
            for row, seat in zip(new_game.seats, order_seats, strict=True):
                row.timezone, row.quiet_hours = seat.timezone, seat.quiet_hours
                row.notify_mode, row.chat_emails = seat.notify_mode, seat.chat_emails
            if rematch is None:  # (a row without a game is left by a start that was cut short before this)
                rematch = Rematch(previous_game_id=game.id, requested_by=requested_by, created_at=now)
                session.add(rematch)
            rematch.game_id = new_game.id
            if session.get(RematchPermission, game.id) is not None:
                session.add(RematchPermission(game_id=new_game.id, granted_at=now))
            self._games.log_host_action(session, new_game, requested_by, "rematch", {"order": order})
            self._channels.copy_in(session, game, new_game, now)  # before the deal: its first turn is told
            self._games.start_game_in(session, new_game, actor_email=requested_by)
            return new_game.public_id
