"""What the host's pages read: the games a host looks after, one game's public state, and what a rollback
would undo. Also creating and starting a game from the host's form, within a rate limit.

Blind host: while a game runs, nothing here reads more than `engine.view(state, None)` (the public view)
and the public events; hidden events are only counted by type and seat (for the rollback warning), never
opened. Mail facts come from `pbem/mail/status.py` (delivery only, never contents).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

import engine
from pbem.addresses import address_key, mailbox_key
from pbem.clock import Clock
from pbem.db import Database
from pbem.errors import GameNotFound, NotYourGame, RateLimited, RollbackAcrossRound, ValidationError
from pbem.i18n import gettext, ngettext, pgettext
from pbem.mail.status import SeatMailStatus, mail_statuses, seat_mail_status
from pbem.models import Game, GameStatus, HostAction, RematchPermission, Snapshot
from pbem.models.games import OVER_STATUSES
from pbem.service.history.holders import lines_at, names_at
from pbem.service.host.host_access import HostSession
from pbem.service.host.invitations import InvitationLimits
from pbem.service.host.local_times import LocalTime, local_time_of
from pbem.service.host.moderation import host_plays, may_host
from pbem.service.notices.channels import TableChannels, shown_channel_of
from pbem.service.rate_limits import Limit, RateLimiter
from pbem.service.snapshots import latest_states
from pbem.service.timing.turn_clock import pending_clock
from pbem.service.turns.games import GameService
from pbem.service.turns.rollback import rollback_floor
from pbem.service.turns.turn_controls import SeatTurnStatus, TurnStatus, turn_status_of
from pbem.service.turns.values import HistoryEntry, PlayerSpec
from pbem.words.table import N_, Words

PER_HOST_GAMES = Limit("host_create_game", count=10, window=timedelta(days=1))
# Private event types, in words for the rollback warning: what kind of secret a seat learned (never which).
SECRET_KINDS = Words({
    "role_dealt": N_("their role"),
    "role_changed": N_("a new role"),
    "hand_dealt": N_("a new hand"),
    "hand_received": N_("a swapped hand"),
    "drew_cards": N_("the cards they drew"),
    "map_peek": N_("a goal card (map)"),
    "role_seen": N_("another player's dwarf card"),
    "gold_offered": N_("gold card values on offer"),
    "gold_kept": N_("the value of their gold"),
    "discarded": N_("their own discards"),
})


@dataclass(frozen=True)
class GameRow:
    """One line of the dashboard."""

    game_id: str
    title: str
    variant: str
    status: str
    paused: bool
    host_email: str
    round: int | None
    to_act: str | None
    waiting_since: datetime | None
    deadline: datetime | None
    last_activity: datetime
    mail_trouble: list[str]  # names of seats whose mail is failing
    reminders_sent: int  # the reminder ladder's and the host's nudges, for the turn pending now
    waiting_for_host: bool  # notify-host: the deadline passed and the game waits for the host
    to_act_local: LocalTime | None = None  # the clock of the player whose turn it is
    nudges: int = 0  # of `reminders_sent`, those the host sent
    deadline_moved_from: datetime | None = None  # the deadline the turn began with, when it has moved since


@dataclass(frozen=True)
class SeatRow:
    seat: int
    name: str
    email: str | None
    is_bot: bool
    last_seen_at: datetime | None
    mail: SeatMailStatus | None
    turn: SeatTurnStatus | None  # away, timeouts in a row, absent, auto-pass
    local: LocalTime | None = None  # the player's clock now, and whether it is their night


@dataclass(frozen=True)
class Turn:
    """An earlier snapshot a host may roll back to, in public words."""

    seq: int
    created_at: datetime
    actor: str | None
    lines: list[str]


@dataclass(frozen=True)
class GameDetail:
    row: GameRow
    policies: dict[str, Any]
    seats: list[SeatRow]
    public_view: engine.View | None
    history: list[HistoryEntry]
    actions: list[HostAction]
    host_plays: bool
    may_reveal: bool
    over: bool


@dataclass(frozen=True)
class GameSettings:
    """A game's settings and people, for the form of a new game copied from it."""

    title: str
    variant: str
    options: dict[str, Any]
    policies: dict[str, Any]
    people: list[tuple[str, str]]  # (name, email) of each person but the host
    bots: int
    host_name: str | None  # the host's name at the table, when the host played
    had_own_deck: bool  # a Saboteur 2 deck file is not copied: the host uploads it again
    channel: str | None = None  # the game's channel, masked, while it is switched on (kept if the host likes)


class Hosting:
    def __init__(
        self, db: Database, clock: Clock, games: GameService, limiter: RateLimiter,
        turn_status: Callable[[str], TurnStatus], invitations: InvitationLimits, channels: TableChannels,
    ) -> None:
        self._db = db
        self._channels = channels
        self._clock = clock
        self._games = games
        self._limiter = limiter
        self._turn_status = turn_status  # TurnControls.status: the turn clock's view of a game
        self._invitations = invitations

    def create_and_start(
        self, *, host: HostSession, title: str, players: Sequence[PlayerSpec], variant: str,
        options: dict[str, Any] | None, policies: dict[str, Any], client: str, players_may_rematch: bool = False,
        channel: str | None = None, channel_of: str | None = None, language: str | None = None,
    ) -> str:
        """The form's game, created and dealt (emails to everyone) in one transaction, with whether its players may
        start its rematch and its channel (`channel`, a URL, or the one of the host's game `channel_of`), set before
        the deal so the first turn is told; RateLimited past the host's daily limit on games, or the daily limits on
        emailing addresses that never confirmed (per `client` and server-wide), ValidationError for a refused
        channel. A refusal leaves nothing behind."""
        with self._db.write() as session:
            if not self._limiter.allow(session, PER_HOST_GAMES, mailbox_key(host.email)):
                raise RateLimited(gettext("You have created many games today. Please wait a day before creating more."))
            self._invitations.count(session, [player.email for player in players if player.email], client)
            game = self._games.create_game_in(
                session, title=title, players=players, host_email=host.email, variant=variant, options=options,
                policies=policies, language=language,
            )
            if channel:
                self._channels.set_in(session, game, channel, self._clock.now())
            elif channel_of:
                self._channels.copy_in(session, _owned(session, channel_of, host), game, self._clock.now())
            self._games.start_game_in(session, game, actor_email=host.email)
            if players_may_rematch:
                session.add(RematchPermission(game_id=game.id, granted_at=self._clock.now()))
            return game.public_id

    def create_from_command_line(
        self, *, host_email: str, title: str, players: Sequence[PlayerSpec], variant: str,
        options: dict[str, Any] | None, channel: str | None = None, language: str | None = None,
    ) -> tuple[str, str | None]:
        """`pbem create-game`: the operator's game, created, given its channel and dealt in one transaction (no
        daily limits: the command line is the operator's own); returns its id and the channel masked. A refused
        channel (ValidationError) leaves nothing behind."""
        with self._db.write() as session:
            game = self._games.create_game_in(
                session, title=title, players=players, host_email=host_email, variant=variant, options=options,
                language=language,
            )
            shown = self._channels.set_in(session, game, channel, self._clock.now()) if channel else None
            self._games.start_game_in(session, game, actor_email=host_email)
            return game.public_id, shown

    def games(self, host: HostSession) -> list[GameRow]:
        """The games this host looks after (an admin: every game), newest first.

        Read together, not game by game: the same few statements for one game or thousands."""
        with self._db.read() as session:
            query = (
                select(Game)
                .options(selectinload(Game.seats), selectinload(Game.clock))
                .order_by(Game.created_at.desc(), Game.id.desc())
            )
            if not host.is_admin:
                query = query.where(func.lower(Game.host_email) == address_key(host.email))
            games = list(session.scalars(query))
            states = latest_states(session, games)
            mail = mail_statuses(session, games)
            nudges = nudges_this_turn(session, games)
            now = self._clock.now()
            return [
                _row(
                    game, public_view(states[game.id]).get("round") if game.id in states else None, mail[game.id],
                    turn_status_of(game, pending_clock(game, game.clock)), nudges.get(game.id, 0), now,
                )
                for game in games
            ]

    def detail(self, game_id: str, host: HostSession) -> GameDetail:
        with self._db.read() as session:
            game = _owned(session, game_id, host)
            actions = list(session.scalars(
                select(HostAction).where(HostAction.game_id == game.id).order_by(HostAction.id.desc())
            ))
            nudges = nudges_this_turn(session, [game]).get(game.id, 0)
        state = self._games.current_state(game_id, None)
        statuses = seat_mail_status(self._db, game_id)
        turn_status = self._turn_status(game_id)
        mail = {status.seat: status for status in statuses}
        turn = {status.seat: status for status in turn_status.seats}
        plays = host_plays(game, host)
        now = self._clock.now()
        policies = dict(game.policies or {})
        return GameDetail(
            row=_row(game, state.view.get("round") if state.view else None, statuses, turn_status, nudges, now),
            policies=policies,
            seats=[
                SeatRow(seat.seat_index, seat.display_name, seat.email, seat.is_bot, seat.last_seen_at,
                        mail.get(seat.seat_index), turn.get(seat.seat_index),
                        None if seat.is_bot else local_time_of(now, seat.timezone, seat.quiet_hours, policies))
                for seat in game.seats
            ],
            public_view=state.view,
            history=self._games.history(game_id, None),
            actions=actions,
            host_plays=plays,
            may_reveal=not plays and game.status == GameStatus.ACTIVE,
            over=game.status in OVER_STATUSES,
        )

    def turns(self, game_id: str, host: HostSession) -> list[Turn]:
        """The earlier snapshots of a running game it may be rolled back to (those of the round being played),
        newest first, described by their public events only."""
        detail_game = self.owned(game_id, host)
        with self._db.read() as session:
            floor = rollback_floor(session, detail_game)
            rows = session.execute(
                select(Snapshot.seq, Snapshot.created_at, Snapshot.actor_seat, Snapshot.events)
                .where(
                    Snapshot.game_id == detail_game.id, Snapshot.seq >= floor,
                    Snapshot.seq < (detail_game.current_seq or 0),
                )
                .order_by(Snapshot.seq.desc())
            ).all()
        return [
            Turn(seq, created_at, names_at(detail_game, seq)[actor] if actor is not None else None,
                 lines_at(detail_game, seq, events, None))
            for seq, created_at, actor, events in rows
        ]

    def seen_since(self, game_id: str, to_seq: int, host: HostSession) -> list[str]:
        """What rolling back to `to_seq` cannot make anyone forget: private things seen since, by kind only."""
        game = self.owned(game_id, host)
        if game.current_seq is None or type(to_seq) is not int or not 0 <= to_seq < game.current_seq:
            raise ValidationError(gettext("Choose an earlier turn of this game."))
        with self._db.read() as session:
            if to_seq < rollback_floor(session, game):
                raise RollbackAcrossRound()
            batches = session.scalars(
                select(Snapshot.events).where(Snapshot.game_id == game.id, Snapshot.seq > to_seq).order_by(Snapshot.seq)
            )
            seen: dict[int, Counter[str]] = {}
            public: list[str] = []
            for events in batches:
                for event in events:
                    audience = event.get("audience")
                    kind = event.get("type", "")
                    if audience == "public":
                        if kind == "round_ended":
                            public.append(gettext("Everyone saw the roles of round %(round)s when it ended.",
                                                  round=event.get("round")))
                        elif kind == "goal_revealed":
                            public.append(gettext("Everyone saw a goal card turned over."))
                        continue
                    if isinstance(audience, list):
                        for seat in audience:
                            if isinstance(seat, int):
                                what = SECRET_KINDS[kind] if kind in SECRET_KINDS else kind.replace("_", " ")
                                seen.setdefault(seat, Counter())[what] += 1
        names = game.names
        lines = [
            gettext("%(name)s saw %(things)s.", name=names[seat], things=pgettext("list separator", ", ").join(
                ngettext("%(what)s (%(num)d time)", "%(what)s (%(num)d times)", count, what=what) if count > 1
                else what
                for what, count in counter.items()
            ))
            for seat, counter in sorted(seen.items()) if 0 <= seat < len(names)
        ]
        return lines + public

    def settings_of(self, game_id: str, host: HostSession) -> GameSettings:
        """What a new game copies from one of the host's games: its settings and its people (never a state)."""
        with self._db.read() as session:
            game = _owned(session, game_id, host)
            mine = mailbox_key(host.email)
            hosts_seat = next((seat for seat in game.seats if seat.email and mailbox_key(seat.email) == mine), None)
            options = {name: value for name, value in (game.options or {}).items() if name != "deck"}
            return GameSettings(
                title=game.title, variant=game.variant, options=options, policies=dict(game.policies or {}),
                people=[(seat.display_name, seat.email or "") for seat in game.seats
                        if not seat.is_bot and seat is not hosts_seat],
                bots=sum(seat.is_bot for seat in game.seats),
                host_name=hosts_seat.display_name if hosts_seat else None,
                had_own_deck="deck" in (game.options or {}),
                channel=shown_channel_of(session, game_id),
            )

    def owned(self, game_id: str, host: HostSession) -> Game:
        """The game, if this host looks after it: GameNotFound, or NotYourGame (403) for another host's game."""
        with self._db.read() as session:
            return _owned(session, game_id, host)

def nudges_this_turn(session: Session, games: Sequence[Game]) -> dict[int, int]:
    """How many nudges the host sent each game's player to act since their turn began (one statement)."""
    waiting = {
        game.id: game.turn_started_at for game in games if game.status == GameStatus.ACTIVE and game.turn_started_at
    }
    if not waiting:
        return {}
    rows = session.execute(
        select(HostAction.game_id, HostAction.created_at).where(
            HostAction.game_id.in_(waiting), HostAction.action == "nudge"
        )
    )
    counted: Counter[int] = Counter()
    for game_id, created_at in rows:
        if created_at >= waiting[game_id]:
            counted[game_id] += 1
    return dict(counted)


def _row(
    game: Game,
    round_number: int | None,
    mail: list[SeatMailStatus],
    turn: TurnStatus,
    nudges: int = 0,
    now: datetime | None = None,
) -> GameRow:
    """One line of the dashboard, from the game with its seats and what was read about it."""
    running = game.status == GameStatus.ACTIVE
    acting = game.seats[game.to_act_seat] if running and game.to_act_seat is not None else None
    return GameRow(
        game_id=game.public_id,
        title=game.title,
        variant=game.variant,
        status=game.status,
        paused=game.paused,
        host_email=game.host_email,
        round=round_number,
        to_act=game.names[game.to_act_seat] if running and game.to_act_seat is not None else None,
        waiting_since=game.turn_started_at if running and game.to_act_seat is not None else None,
        deadline=turn.deadline if running else None,
        deadline_moved_from=turn.deadline_moved_from if running else None,
        last_activity=game.updated_at,
        mail_trouble=[status.name for status in mail if status.in_trouble] if game.current_seq is not None else [],
        reminders_sent=turn.reminders_sent + nudges,
        waiting_for_host=turn.waiting_for_host,
        to_act_local=(
            local_time_of(now, acting.timezone, acting.quiet_hours, game.policies or {})
            if acting is not None and not acting.is_bot and now is not None
            else None
        ),
        nudges=nudges,
    )


def public_view(state: engine.Game) -> engine.View:
    """The only view of a running game the host's pages may use."""
    return engine.view(state, None)


def _owned(session: Session, game_id: str, host: HostSession) -> Game:
    game = session.scalar(select(Game).where(Game.public_id == game_id).options(selectinload(Game.seats)))
    if game is None:
        raise GameNotFound()
    if not may_host(game, host):
        raise NotYourGame()
    return game
