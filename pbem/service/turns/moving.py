"""Moves: each applied as one transaction, or refused with a typed error and nothing changed; a repeated
submission answers with its first result."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

import engine
from pbem.errors import (
    GameFinished,
    GameNotStarted,
    GamePaused,
    InvalidMove,
    NotYourTurn,
    RevokedLink,
    StaleTurn,
    ValidationError,
)
from pbem.i18n import gettext
from pbem.models import Game, GameStatus, Snapshot
from pbem.models.games import OVER_STATUSES, SNAPSHOT_SOURCES
from pbem.service.events import visible_events
from pbem.service.rows import find_game, lock_for_move, require_seat
from pbem.service.seats.languages import languages_of
from pbem.service.snapshots import latest_state
from pbem.service.timing.turn_clock import seat_moved
from pbem.service.turns.recording import GameCore
from pbem.service.turns.values import MAX_SUBMISSION_ID, PLAYER, SERVER, MoveResult, server_submission_id
from pbem.words.refusals import refusal


class Moving(GameCore):
    """Players' moves and the server's timeouts, each applied once."""

    def submit_move(
        self,
        game_id: str,
        seat: int,
        move: Mapping[str, object],
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
            raise ValidationError(gettext("A move must be a table of fields."))
        if type(expected_seq) is not int:
            raise ValidationError(gettext("The expected sequence number must be a whole number."))
        if not isinstance(submission_id, str) or not 0 < len(submission_id) <= MAX_SUBMISSION_ID:
            raise ValidationError(gettext(
                "A submission id must be 1 to %(most)d characters.", most=MAX_SUBMISSION_ID
            ))
        if source not in SNAPSHOT_SOURCES:
            raise ValueError(f"unknown source of a move: {source!r}")
        try:
            with self._db.write() as session:
                return self._submit(session, game_id, seat, move, expected_seq, submission_id, link_version, source)
        except IntegrityError:
            # The key (game, seq) is the final guard: someone committed this sequence number, maybe this very
            # submission, between our read and our insert.
            with self._db.read() as session:
                game = find_game(session, game_id)
                replay = self._replay(session, game, seat, submission_id, source, expected_seq)
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
        move: Mapping[str, object],
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
            # Only a repeat of a submission that was played can be looking at an older table. (A repeat racing
            # its first attempt fails on the key instead: submit_move answers then.)
            replay = self._replay(session, game, seat, submission_id, source, expected_seq)
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
            raise InvalidMove(refusal(exc)) from None
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
            reader=languages_of(game, seat),
        )

    def apply_timeout(
        self, session: Session, game: Game, choose: Callable[[engine.Game], tuple[engine.Move, str]]
    ) -> list[engine.Event]:
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
            raise InvalidMove(refusal(exc)) from None
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

    def _replay(
        self, session: Session, game: Game, seat: int, submission_id: str, source: str, expected_seq: int
    ) -> MoveResult | None:
        """The stored result of this seat's earlier submission with this id on the table it was sent from: the
        snapshot after that one, if it holds this source, seat and id (one row by its key; ids are no index)."""
        earlier = session.scalar(
            select(Snapshot).where(
                Snapshot.game_id == game.id,
                Snapshot.seq == expected_seq + 1,
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
            reader=languages_of(game, seat),
        )
