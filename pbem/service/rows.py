"""A game row with its seats (and turn clock) in one query, found, locked or locked for a move; a seat checked.

The statements are built once, with the public id bound at execution (docs/performance.md).
"""

from __future__ import annotations

from sqlalchemy import LargeBinary, bindparam, select, type_coerce
from sqlalchemy.orm import Session, joinedload

from pbem.errors import GameNotFound, SeatNotFound
from pbem.memo import recalled
from pbem.models import Game, Snapshot
from pbem.service import row_versions

# Options for `Session.get` of a game by primary key (the deliverer, composing a turn email).
SEATS_AND_CLOCK = (joinedload(Game.seats), joinedload(Game.clock))
GAME_WITH_SEATS = select(Game).where(Game.public_id == bindparam("public_id")).options(*SEATS_AND_CLOCK)
# FOR NO KEY UPDATE: it serializes moves on one game without blocking rows that merely reference it.
GAME_WITH_SEATS_LOCKED = GAME_WITH_SEATS.with_for_update(of=Game, key_share=True)
# A move's lock leaves the turn clock out: the move gives the clock a fresh start without reading the old one
# (`turn_clock.plan_turn`), so the clock's columns are not repeated on each seat's row.
GAME_WITH_SEATS_LOCKED_FOR_MOVE = (
    select(Game)
    .where(Game.public_id == bindparam("public_id"))
    .options(joinedload(Game.seats))
    .with_for_update(of=Game, key_share=True)
)

# A move's lock when this process has not decoded the state the move builds on (with several workers, most
# moves): the state column of the game's current snapshot comes along as the payload it is stored as, one
# value repeated on each seat's row, decoded once (`snapshots.latest_state`), instead of a statement of its own.
_CURRENT_STATE_TEXT = (
    select(type_coerce(Snapshot.__table__.c.state, LargeBinary))
    .where(Snapshot.__table__.c.game_id == Game.id, Snapshot.__table__.c.seq == Game.current_seq)
    .scalar_subquery()
)
GAME_WITH_SEATS_AND_STATE_LOCKED = (
    select(Game, _CURRENT_STATE_TEXT)
    .where(Game.public_id == bindparam("public_id"))
    .options(joinedload(Game.seats))
    .with_for_update(of=Game, key_share=True)
)


def find_game(session: Session, game_id: str) -> Game:
    """The game with its seats and clock; asked again in the same session, the objects already loaded.

    (SQLAlchemy would hand back the same object from its identity map anyway, without refreshing it.)"""
    key = ("game", game_id)
    game = session.info.get(key)
    if game is None:
        game = _read_game(session, game_id)
        session.info[key] = game
    return game


def _read_game(session: Session, game_id: str) -> Game:
    """The game with its seats and clock: in a read session on PostgreSQL a copy of what this process read under
    the same row versions, if it has (`row_versions`), else one joined query."""
    seen = row_versions.versions(session, game_id) if row_versions.keeps_versions(session) else None
    if seen is not None:
        kept = row_versions.kept_copy(session, game_id, seen)
        if kept is not None:
            return kept
    game = session.execute(GAME_WITH_SEATS, {"public_id": game_id}).unique().scalar_one_or_none()
    if game is None:
        raise GameNotFound()
    if seen is not None:
        row_versions.keep(session, game, seen)
    return game


def lock_game(session: Session, game_id: str) -> Game:
    """The game row, locked against other writers of this game on PostgreSQL (SQLite already holds its write lock)."""
    game = session.execute(GAME_WITH_SEATS_LOCKED, {"public_id": game_id}).unique().scalar_one_or_none()
    if game is None:
        raise GameNotFound()
    return game


def lock_for_move(session: Session, game_id: str, expected_seq: int) -> tuple[Game, bytes | None]:
    """The game locked for a move, with the state the move builds on (as stored) when this process has not
    decoded the snapshot the player saw yet: the lock brings it along instead of a statement of its own.

    The turn clock is left out: the move starts a fresh one without reading it (`plan_turn`)."""
    if recalled(session, "state", (game_id, expected_seq)) is not None:
        game = session.execute(GAME_WITH_SEATS_LOCKED_FOR_MOVE, {"public_id": game_id}).unique().scalar_one_or_none()
        if game is None:
            raise GameNotFound()
        return game, None
    row = session.execute(GAME_WITH_SEATS_AND_STATE_LOCKED, {"public_id": game_id}).unique().one_or_none()
    if row is None:
        raise GameNotFound()
    return row[0], row[1]


def require_seat(game: Game, seat: int) -> None:
    if type(seat) is not int or not 0 <= seat < len(game.seats):
        raise SeatNotFound()
