"""The game service: the only code that creates games, starts them and turns moves into snapshots.

Web requests, the command line, the scheduler and computer players all come through here, so every
change to a game is validated the same way and recorded the same way: one append-only snapshot per
decision, with the emails it causes queued in the same transaction.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload

import engine
from pbem.addresses import same_mailbox
from pbem.chance import Chance
from pbem.clock import Clock
from pbem.config import PolicyConfig
from pbem.db import Database
from pbem.errors import (
    GameAlreadyStarted,
    GameFinished,
    GameNotFound,
    GameNotStarted,
    GamePaused,
    InvalidMove,
    NotYourTurn,
    RevokedLink,
    RollbackAcrossRound,
    StaleTurn,
    ValidationError,
)
from pbem.mail.outbox import Outbox
from pbem.memo import remember_when_committed, remembered
from pbem.models import Game, GameStatus, HostAction, Seat, Snapshot
from pbem.models.games import OVER_STATUSES, RUNNING_STATUSES, SNAPSHOT_SOURCES
from pbem.models.row_writes import insert_row, update_row
from pbem.seat_link import SeatLink
from pbem.service.events import visible_events
from pbem.service.history.fairness import seal_dealt_round
from pbem.service.history.holders import lines_at, names_at
from pbem.service.letters.game_mail import GameMail
from pbem.service.rows import find_game, lock_for_move, lock_game, require_seat
from pbem.service.snapshots import latest_state, seat_view, state_at
from pbem.service.text import clean_email, clean_line, clean_name
from pbem.service.timing.turn_clock import plan_turn, seat_moved
from pbem.tokens import LinkSigner, SpectatorLinkSigner

MAX_TITLE = 200
MAX_NAME = 80
MAX_SUBMISSION_ID = 64
PLAYER = "player"  # a snapshot's source: a person's move, with the id their form sent
SERVER = "server"  # a move the server made (a computer seat, a timeout), the deal or a rollback


@dataclass(frozen=True)
class PlayerSpec:
    """A seat to create: a person with an email address, or a computer player."""

    name: str
    email: str | None = None
    is_bot: bool = False


@dataclass(frozen=True)
class SeatInvite:
    seat: int
    name: str
    email: str | None
    is_bot: bool
    link: str


@dataclass(frozen=True)
class DemoGame:
    game_id: str
    title: str
    invites: list[SeatInvite]
    variant: str = "base"


@dataclass(frozen=True)
class MoveResult:
    game_id: str
    seq: int
    seat: int
    events: list[dict[str, Any]]  # only those this seat may see
    players: list[str]  # the names the events are told with
    game_over: bool
    replayed: bool  # the stored result of an earlier submission with the same id; nothing was applied now


@dataclass(frozen=True)
class GameState:
    """What one seat (or an onlooker, seat None) may know about a game right now."""

    game_id: str
    title: str
    status: str
    paused: bool
    seq: int | None
    players: list[str]
    to_act: int | None
    turn_started_at: datetime | None
    view: dict[str, Any] | None
    legal_moves: list[dict[str, Any]]
    scores: list[int] | None


@dataclass(frozen=True)
class HistoryEntry:
    seq: int
    created_at: datetime
    actor: int | None
    lines: list[str]
    actor_name: str | None = None  # who held the actor's seat when the move was made


class GameService:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        links: LinkSigner,
        outbox: Outbox,
        policies: PolicyConfig,
        link_max_age_days: int,
        spectator_links: SpectatorLinkSigner,
        chance: Chance,
    ) -> None:
        self._db = db
        self._clock = clock
        self.chance = chance  # deals here; computer players, timeouts and seatings draw from it too
        self._links = links
        self._default_policies = dataclasses.asdict(policies)
        self.outbox = outbox  # the host notices of computer seats and timeouts queue here
        # Composes every email about a game; the scheduler's sweeps reach it here too (daily digests).
        self.mail = GameMail(outbox, links, link_max_age_days, spectator_links)

    # -- creating and starting -------------------------------------------------------------------

    def create_game(
        self,
        *,
        title: str,
        players: Sequence[PlayerSpec],
        host_email: str,
        variant: str = "base",
        options: dict[str, Any] | None = None,
        policies: dict[str, Any] | None = None,
        is_demo: bool = False,
    ) -> str:
        """Create a game waiting to start; returns its public id. Bad input raises ValidationError."""
        with self._db.write() as session:
            game = self.create_game_in(
                session, title=title, players=players, host_email=host_email, variant=variant, options=options,
                policies=policies, is_demo=is_demo,
            )
            return game.public_id

    def create_game_in(
        self,
        session: Session,
        *,
        title: str,
        players: Sequence[PlayerSpec],
        host_email: str,
        variant: str = "base",
        options: dict[str, Any] | None = None,
        policies: dict[str, Any] | None = None,
        is_demo: bool = False,
    ) -> Game:
        """`create_game` in the caller's transaction (a use case that does more in the same unit of work): the new
        game with its seats, flushed. Bad input raises ValidationError before anything is written."""
        title = clean_line("title", title, MAX_TITLE)
        host_email = clean_email("host email", host_email)
        seats = [_clean_player(index, player) for index, player in enumerate(players)]
        lowered = [seat.name.casefold() for seat in seats]
        if len(set(lowered)) != len(lowered):
            raise ValidationError("Every player needs a different name.")
        if options is not None and not isinstance(options, dict):
            raise ValidationError("Game options must be a table of settings.")
        game_policies = self._policies(policies or {})
        try:
            # The engine alone knows the rules (player counts, variants, options): ask it with a throwaway deal.
            engine.new_game([seat.name for seat in seats], seed=0, variant=variant, options=options)
        except ValueError as exc:
            raise ValidationError(str(exc)) from None

        now = self._clock.now()
        game = Game(
            title=title,
            variant=variant,
            options=options or {},
            policies=game_policies,
            status=GameStatus.CREATED,
            paused=False,
            is_demo=is_demo,
            host_email=host_email,
            host_plays=any(seat.email is not None and same_mailbox(seat.email, host_email) for seat in seats),
            created_at=now,
            updated_at=now,
        )
        game.seats = [
            Seat(seat_index=index, display_name=seat.name, email=seat.email, is_bot=seat.is_bot)
            for index, seat in enumerate(seats)
        ]
        session.add(game)
        session.flush()
        self._log_host_action(
            session, game, host_email, "create_game", {"title": title, "variant": variant, "players": game.names}
        )
        return game

    def start_game(self, game_id: str, *, actor_email: str | None = None) -> None:
        """Deal round 1 from a fresh secret seed, record snapshot 0 and email every player their link."""
        with self._db.write() as session:
            self.start_game_in(session, lock_game(session, game_id), actor_email=actor_email)

    def start_game_in(self, session: Session, game: Game, *, actor_email: str | None = None) -> None:
        """`start_game` in the caller's transaction, which holds the game locked (`lock_game`) or created it."""
        if game.status != GameStatus.CREATED:
            raise GameAlreadyStarted()
        try:
            state = engine.new_game(
                game.names, seed=self.chance.seed(), variant=game.variant, options=game.options or None
            )
        except ValueError as exc:
            raise ValidationError(str(exc)) from None
        game.status = GameStatus.ACTIVE
        self._append_snapshot(
            session, game, state, move=None, events=[], actor=None, submission_id=None, source=SERVER
        )
        self._log_host_action(session, game, actor_email or game.host_email, "start_game", {})
        self.mail.game_started(session, game, state)

    # -- moves -----------------------------------------------------------------------------------

    def submit_move(
        self,
        game_id: str,
        seat: int,
        move: dict[str, Any],
        expected_seq: int,
        submission_id: str,
        *,
        link_version: int | None = None,
        source: str = PLAYER,
    ) -> MoveResult:
        """Apply one move as one transaction, or raise a typed error and change nothing.

        `expected_seq` is the snapshot the player was looking at; if the game has moved on, StaleTurn.
        A repeated `submission_id` (double click, retried POST) returns the first result again.
        `link_version`: the version of the magic link the move came through (`resolve_link` without its
        database check); a seat whose links were revoked since gets RevokedLink. Checked under the game's lock,
        so a move and a revocation never cross, and a move costs no transaction of its own to check its link.
        `source`: PLAYER (ids are the seat's own, whatever a form sends) or SERVER (a computer seat, whose id
        comes from `server_submission_id`); the two never share ids.
        """
        if not isinstance(move, dict):
            raise ValidationError("A move must be a table of fields.")
        if type(expected_seq) is not int:
            raise ValidationError("The expected sequence number must be a whole number.")
        if not isinstance(submission_id, str) or not 0 < len(submission_id) <= MAX_SUBMISSION_ID:
            raise ValidationError(f"A submission id must be 1 to {MAX_SUBMISSION_ID} characters.")
        if source not in SNAPSHOT_SOURCES:
            raise ValueError(f"unknown source of a move: {source!r}")
        try:
            with self._db.write() as session:
                return self._submit(session, game_id, seat, move, expected_seq, submission_id, link_version, source)
        except IntegrityError:
            # The unique constraints are the final guard: someone committed this sequence number, or this
            # very submission, between our read and our insert.
            with self._db.read() as session:
                game = find_game(session, game_id)
                replay = self._replay(session, game, seat, submission_id, source)
                latest = session.scalar(select(func.max(Snapshot.seq)).where(Snapshot.game_id == game.id))
                moved_on = latest != expected_seq
            if replay is not None:
                return replay
            if moved_on:
                raise StaleTurn() from None
            raise

    def _submit(
        self,
        session: Session,
        game_id: str,
        seat: int,
        move: dict[str, Any],
        expected_seq: int,
        submission_id: str,
        link_version: int | None,
        source: str,
    ) -> MoveResult:
        game, stored_state = lock_for_move(session, game_id, expected_seq)
        require_seat(game, seat)
        if link_version is not None and game.seats[seat].token_version != link_version:
            raise RevokedLink()
        if expected_seq != game.current_seq:
            # Only a repeat of a submission that was played can be looking at an older table. (A used id sent
            # with the current sequence number fails on the unique constraint instead: submit_move answers then.)
            replay = self._replay(session, game, seat, submission_id, source)
            if replay is not None:
                return replay
        if game.status == GameStatus.CREATED:
            raise GameNotStarted()
        if game.status in OVER_STATUSES:
            raise GameFinished()
        if game.paused:
            raise GamePaused()
        if expected_seq != game.current_seq:
            raise StaleTurn()
        if game.to_act_seat != seat:
            raise NotYourTurn()
        state = latest_state(session, game, stored_state)
        try:
            new_state, events = engine.apply_move(state, seat, move)
        except engine.NotYourTurn:
            raise NotYourTurn() from None
        except engine.IllegalMove as exc:
            raise InvalidMove(str(exc)) from None
        seat_moved(game.seats[seat])
        seq = self._append_snapshot(
            session, game, new_state, move=move, events=events, actor=seat, submission_id=submission_id, source=source
        )
        self.mail.after_move(session, game, new_state, events)
        return MoveResult(
            game_id=game.public_id,
            seq=seq,
            seat=seat,
            events=visible_events(events, seat),
            players=game.names,
            game_over=engine.is_over(new_state),
            replayed=False,
        )

    def apply_timeout(
        self, session: Session, game: Game, choose: Callable[[engine.Game], tuple[dict[str, Any], str]]
    ) -> list[dict[str, Any]]:
        """The pending decision times out: `choose(state)` decides the move (and says how, for the log).

        The caller (the sweep, or the host skipping a turn) holds the game row locked and has claimed the
        decision. The snapshot's events begin with a public `timed_out` event, so the log and the next emails
        say so. The submission id is the server's own (`server_submission_id`), out of any player's reach; a
        second attempt at the same decision fails on the unique (game, seq) instead of applying twice. Returns the
        events recorded.
        """
        seat = game.to_act_seat
        if game.status != GameStatus.ACTIVE or seat is None or game.current_seq is None:
            raise GameFinished()
        state = latest_state(session, game)
        move, how = choose(state)
        try:
            new_state, events = engine.apply_move(state, seat, move)
        except engine.IllegalMove as exc:
            raise InvalidMove(str(exc)) from None
        events = [{"type": "timed_out", "seat": seat, "how": how, "audience": "public"}, *events]
        self._append_snapshot(
            session,
            game,
            new_state,
            move=move,
            events=events,
            actor=seat,
            submission_id=server_submission_id("timeout", game.current_seq),
            source=SERVER,
        )
        self.mail.after_move(session, game, new_state, events)
        return events

    def _replay(self, session: Session, game: Game, seat: int, submission_id: str, source: str) -> MoveResult | None:
        """The stored result of this seat's earlier submission with this id (ids are scoped by source and seat)."""
        earlier = session.scalar(
            select(Snapshot).where(
                Snapshot.game_id == game.id,
                Snapshot.source == source,
                Snapshot.actor_seat == seat,
                Snapshot.submission_id == submission_id,
            )
        )
        if earlier is None:
            return None
        return MoveResult(
            game_id=game.public_id,
            seq=earlier.seq,
            seat=seat,
            events=visible_events(earlier.events, seat),
            players=game.names,
            game_over=game.status == GameStatus.FINISHED and earlier.seq == game.current_seq,
            replayed=True,
        )

    def _append_snapshot(
        self,
        session: Session,
        game: Game,
        state: engine.Game,
        *,
        move: dict[str, Any] | None,
        events: list[dict[str, Any]],
        actor: int | None,
        submission_id: str | None,
        source: str,
    ) -> int:
        """The one function that records a decision: the next snapshot, and the game's cached fields.

        Returns the new snapshot's sequence number."""
        now = self._clock.now()
        seq = 0 if game.current_seq is None else game.current_seq + 1
        # Written as statements (pbem/models/row_writes.py): the snapshot is never changed after this.
        insert_row(
            session,
            Snapshot,
            {
                "game_id": game.id,
                "seq": seq,
                "state": state.to_dict(),
                "move": move,
                "events": events,
                "actor_seat": actor,
                "submission_id": submission_id,
                "source": source,
                "created_at": now,
            },
        )
        remember_when_committed(session, "state", (game.public_id, seq), state)
        update_row(
            session,
            game,
            current_seq=seq,
            to_act_seat=engine.to_act(state),
            turn_started_at=now,
            updated_at=now,
            bot_lease_until=None,
            status=GameStatus.FINISHED if engine.is_over(state) else game.status,
        )
        # A snapshot that deals a round seals that deal, in this same transaction (docs/fairness.md).
        seal_dealt_round(session, game, seq, state, events, now)
        # The new pending decision gets its reminders and deadline (pbem/service/timing/turn_clock.py).
        plan_turn(session, game, now)
        return seq

    # -- moderation ------------------------------------------------------------------------------

    def rollback_in(self, session: Session, game: Game, to_seq: int, *, reason: str, actor_email: str) -> int:
        """Go back to snapshot `to_seq` by appending a copy of it (history is never rewritten).

        Only within the round being played (RollbackAcrossRound otherwise): a round's end showed everyone its
        roles and its deck, and a deal put the next round's cards in the players' hands (docs/fairness.md).
        The caller holds the game's lock (`lock_game`) and tells the table; the audit log is written here.
        """
        if game.status != GameStatus.ACTIVE or game.current_seq is None:
            raise ValidationError("Only a running game can be rolled back.")
        if type(to_seq) is not int or not 0 <= to_seq < game.current_seq:
            raise ValidationError(f"Choose an earlier turn, from 0 to {game.current_seq - 1}.")
        if to_seq < rollback_floor(session, game):
            raise RollbackAcrossRound()
        state = state_at(session, game, to_seq)
        current = latest_state(session, game)
        if (state.round, len(state.results)) != (current.round, len(current.results)):
            raise RollbackAcrossRound()  # a history that went back across a round before this rule existed
        from_seq = game.current_seq
        events: list[dict[str, Any]] = [{"type": "rolled_back", "audience": "public", "to_seq": to_seq}]
        seq = self._append_snapshot(
            session, game, state, move=None, events=events, actor=None, submission_id=None, source=SERVER
        )
        self._log_host_action(
            session, game, actor_email, "rollback", {"from_seq": from_seq, "to_seq": to_seq, "reason": reason}
        )
        self.mail.after_move(session, game, state, events)
        return seq

    # -- reading ---------------------------------------------------------------------------------

    def current_state(self, game_id: str, seat: int | None = None) -> GameState:
        """The game as `seat` may see it (None: an onlooker's public view)."""
        with self._db.read() as session:
            game = find_game(session, game_id)
            if seat is not None:
                require_seat(game, seat)
            if game.current_seq is None:
                return GameState(
                    game_id=game.public_id,
                    title=game.title,
                    status=game.status,
                    paused=game.paused,
                    seq=None,
                    players=game.names,
                    to_act=None,
                    turn_started_at=None,
                    view=None,
                    legal_moves=[],
                    scores=None,
                )
            view, legal_moves, scores = remembered(
                session,
                "seat_view",
                (game.public_id, game.current_seq, seat, tuple(game.names)),
                lambda: _seat_view(latest_state(session, game), seat, game.to_act_seat, game.names),
            )
            return GameState(
                game_id=game.public_id,
                title=game.title,
                status=game.status,
                paused=game.paused,
                seq=game.current_seq,
                players=game.names,
                to_act=game.to_act_seat,
                turn_started_at=game.turn_started_at,
                view=view,
                legal_moves=legal_moves,
                scores=scores,
            )

    def history(self, game_id: str, seat: int | None = None) -> list[HistoryEntry]:
        """Every move so far, as the lines `seat` may read (None: public lines only)."""
        with self._db.read() as session:
            game = find_game(session, game_id)
            if seat is not None:
                require_seat(game, seat)
            names = game.names

            def described() -> list[HistoryEntry]:
                rows = session.execute(
                    select(Snapshot.seq, Snapshot.created_at, Snapshot.actor_seat, Snapshot.events)
                    .where(Snapshot.game_id == game.id, Snapshot.seq > 0, Snapshot.seq <= game.current_seq)
                    .order_by(Snapshot.seq)
                )
                return [
                    HistoryEntry(
                        seq=row.seq,
                        created_at=row.created_at,
                        actor=row.actor_seat,
                        lines=lines_at(game, row.seq, row.events, seat),
                        actor_name=names_at(game, row.seq)[row.actor_seat] if row.actor_seat is not None else None,
                    )
                    for row in rows
                ]

            if game.current_seq is None:
                return []
            # A copy of the list: the stored one is shared with later requests.
            key = (game.public_id, game.current_seq, seat, tuple(names), len(game.former_holders or ()))
            return list(remembered(session, "history", key, described))

    def engine_state(self, game_id: str) -> tuple[engine.Game, int]:
        """The full engine state and its sequence number, for computer players only (never shown to people)."""
        with self._db.read() as session:
            game = find_game(session, game_id)
            if game.current_seq is None:
                raise GameNotStarted()
            return latest_state(session, game), game.current_seq

    # -- links -----------------------------------------------------------------------------------

    def invites(self, game_id: str) -> list[SeatInvite]:
        """Each seat with a fresh link (for the command line)."""
        with self._db.read() as session:
            return self._invites(find_game(session, game_id))

    def demo_invites(self) -> list[DemoGame]:
        """Unfinished demo games with their players' links, for the development home page."""
        with self._db.read() as session:
            games = session.scalars(
                select(Game)
                .where(Game.is_demo.is_(True), Game.status.in_(RUNNING_STATUSES))
                .options(selectinload(Game.seats))
                .order_by(Game.created_at.desc())
            )
            return [
                DemoGame(game_id=game.public_id, title=game.title, invites=self._invites(game), variant=game.variant)
                for game in games
            ]

    def _invites(self, game: Game) -> list[SeatInvite]:
        return [
            SeatInvite(
                seat=seat.seat_index,
                name=seat.display_name,
                email=seat.email,
                is_bot=seat.is_bot,
                link=self._links.url(_seat_link(game, seat)),
            )
            for seat in game.seats
        ]

    def resolve_link(self, token: str, *, check_revocation: bool = True) -> SeatLink:
        """The seat a magic link opens; BadLink, ExpiredLink or RevokedLink otherwise.

        `check_revocation=False`: signature and age only, for a caller that has the link's version checked under
        the game's lock instead (`submit_move(link_version=...)`).
        """
        claimed = self._links.verify(token)
        if not check_revocation:
            return claimed
        with self._db.read() as session:
            # The same lookup the request's next read makes: within one request it is made once.
            try:
                seats = find_game(session, claimed.game_id).seats
            except GameNotFound:
                raise RevokedLink() from None
            seat = seats[claimed.seat] if 0 <= claimed.seat < len(seats) else None
            if seat is None or seat.token_version != claimed.version:
                raise RevokedLink()
            return claimed

    # -- helpers ---------------------------------------------------------------------------------

    def _policies(self, overrides: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(overrides) - set(self._default_policies))
        if unknown:
            raise ValidationError(f"Unknown game policy: {', '.join(unknown)}.")
        return {**self._default_policies, **overrides}

    def log_host_action(
        self, session: Session, game: Game, actor_email: str, action: str, details: dict[str, Any]
    ) -> None:
        """The audit log of host actions (moderation writes here too)."""
        self._log_host_action(session, game, actor_email, action, details)

    def _log_host_action(
        self, session: Session, game: Game, actor_email: str, action: str, details: dict[str, Any]
    ) -> None:
        session.add(
            HostAction(
                game_id=game.id, actor_email=actor_email, action=action, details=details, created_at=self._clock.now()
            )
        )


# The events after which a rollback may not go back: a round's end (its roles and deck are shown to all) and a deal.
ROUND_BOUNDARIES = ("round_ended", "round_started")


def rollback_floor(session: Session, game: Game) -> int:
    """The earliest snapshot a rollback may return to: the latest that ended or dealt a round (0 before any)."""
    rows = session.execute(
        select(Snapshot.seq, Snapshot.events)
        .where(Snapshot.game_id == game.id, Snapshot.seq <= (game.current_seq or 0))
        .order_by(Snapshot.seq.desc())
    )
    for seq, events in rows:
        if any(event.get("type") in ROUND_BOUNDARIES for event in events):
            return int(seq)
    return 0


def server_submission_id(kind: str, seq: int) -> str:
    """An id for a move the server makes (`kind`: "bot", "timeout"): its own namespace (source SERVER), and
    unguessable all the same."""
    return f"{kind}-{seq}-{secrets.token_urlsafe(12)}"


def _seat_view(
    state: engine.Game, seat: int | None, to_act: int | None, names: Sequence[str]
) -> tuple[dict[str, Any], list[dict[str, Any]], list[int] | None]:
    """What `seat` sees of `state`, the moves it may make, and the scores once the game is over."""
    legal_moves = engine.legal_moves(state, seat) if seat is not None and seat == to_act else []
    return seat_view(state, seat, names), legal_moves, engine.scores(state) if engine.is_over(state) else None


def _seat_link(game: Game, seat: Seat) -> SeatLink:
    return SeatLink(game_id=game.public_id, seat=seat.seat_index, version=seat.token_version)


def _clean_player(index: int, player: PlayerSpec) -> PlayerSpec:
    name = clean_name(f"name of player {index + 1}", player.name, MAX_NAME)
    if player.is_bot:
        return PlayerSpec(name=name, email=None, is_bot=True)
    return PlayerSpec(name=name, email=clean_email(f"email of {name}", player.email))
