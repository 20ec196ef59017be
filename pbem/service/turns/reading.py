"""Reading a game: the state as one seat (or an onlooker) may see it, and the history as it may read it."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select

import engine
from pbem.errors import (
    GameNotStarted,
)
from pbem.i18n import current_language
from pbem.memo import remembered
from pbem.models import Snapshot
from pbem.service.history.holders import lines_at, names_at
from pbem.service.rows import find_game, require_seat
from pbem.service.snapshots import latest_state, seat_view
from pbem.service.turns.recording import GameCore
from pbem.service.turns.values import GameState, HistoryEntry


class Reading(GameCore):
    """What a seat, or an onlooker, may know of a game now and of its history."""

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
                notices_wanted=game.notices_wanted,
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
            key = (game.public_id, game.current_seq, seat, tuple(names), len(game.former_holders or ()),
                   current_language())
            return list(remembered(session, "history", key, described))

    def engine_state(self, game_id: str) -> tuple[engine.Game, int]:
        """The full engine state and its sequence number, for computer players only (never shown to people)."""
        with self._db.read() as session:
            game = find_game(session, game_id)
            if game.current_seq is None:
                raise GameNotStarted()
            return latest_state(session, game), game.current_seq


def _seat_view(
    state: engine.Game, seat: int | None, to_act: int | None, names: Sequence[str]
) -> tuple[engine.View, list[engine.Move], list[int] | None]:
    """What `seat` sees of `state`, the moves it may make, and the scores once the game is over."""
    legal_moves = engine.legal_moves(state, seat) if seat is not None and seat == to_act else []
    return seat_view(state, seat, names), legal_moves, engine.scores(state) if engine.is_over(state) else None
