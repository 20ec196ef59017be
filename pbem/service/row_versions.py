"""A game's rows (the game, its seats, its turn clock) kept in this process under the versions PostgreSQL gave them.

Every row PostgreSQL stores carries the transaction that wrote it (`xmin`): any update, insert or delete of the game,
one of its seats or its clock gives a new set of versions. A read session asks for the versions alone (one short row)
and, when this process has read the game under the same versions before, takes a copy of what it read then instead of
the game joined with its seats and clock (a row per seat, every game and clock column repeated on each). Only read
sessions fill and use it, so what is kept was committed; each request gets its own copy, so nothing it does to its
objects reaches another. SQLite keeps no row versions: there the game is always read.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from sqlalchemy import JSON, inspect, text
from sqlalchemy.orm import Mapper, Session
from sqlalchemy.orm.attributes import set_committed_value

from pbem.errors import GameNotFound
from pbem.memo import MEMO, MEMO_FILLS
from pbem.models import Game

KIND = "game_rows"
# The versions of the game's row, of each of its seats' (with the seat's id: one added or removed changes it) and of
# its clock's.
VERSIONS = text(
    "SELECT games.xmin::text AS game,"
    " (SELECT string_agg(seats.id::text || ':' || seats.xmin::text, ',' ORDER BY seats.id)"
    "  FROM seats WHERE seats.game_id = games.id) AS seats,"
    " (SELECT turn_clocks.xmin::text FROM turn_clocks WHERE turn_clocks.game_id = games.id) AS clock"
    " FROM games WHERE games.public_id = :public_id"
)


def keeps_versions(session: Session) -> bool:
    """Whether reads in `session` may use and fill the kept rows: a read session on PostgreSQL."""
    return bool(session.info.get(MEMO_FILLS)) and session.get_bind().dialect.name == "postgresql"


def versions(session: Session, game_id: str) -> tuple[str, str | None, str | None]:
    """The game's row versions now; GameNotFound when there is no such game."""
    row = session.execute(VERSIONS, {"public_id": game_id}).one_or_none()
    if row is None:
        raise GameNotFound()
    return row.game, row.seats, row.clock


def kept_copy(session: Session, game_id: str, seen: tuple[str, str | None, str | None]) -> Game | None:
    """The game with its seats and clock as this process read them under the versions `seen`, as objects of
    `session` (copied, none of them shared), or None if it has not."""
    kept = session.info[MEMO].get(KIND, (game_id, seen))
    return None if kept is None else _copied(kept, session)


def keep(session: Session, game: Game, seen: tuple[str, str | None, str | None]) -> None:
    """Keep a copy of `game` with its loaded seats and clock, read in `session` under the versions `seen`."""
    scratch = Session()  # no database: the copies are left detached, for later requests to copy again
    kept = _copied(game, scratch)
    scratch.expunge_all()
    session.info[MEMO].put(KIND, (game.public_id, seen), kept)


def _copied(game: Game, into: Session) -> Game:
    """`game`, its seats and its clock as objects of `into`, without a statement (`merge` without loading), their
    JSON values copied too (`merge` would share the same dictionaries)."""
    copy = into.merge(game, load=False)  # the seats come along (the relationship cascades merge)
    clock = game.clock  # viewonly: it does not cascade, so it is copied on its own
    set_committed_value(copy, "clock", None if clock is None else into.merge(clock, load=False))
    for row in (copy, *copy.seats, *([copy.clock] if copy.clock is not None else [])):
        for key in _json_columns(type(row)):
            value = getattr(row, key)
            if value is not None:
                set_committed_value(row, key, json.loads(json.dumps(value)))
    return copy


@cache
def _json_columns(model: type) -> tuple[str, ...]:
    """The columns of `model` that hold JSON (a dictionary or a list, which a copy must not share)."""
    mapper: Mapper[Any] = inspect(model)
    return tuple(attr.key for attr in mapper.column_attrs if isinstance(attr.columns[0].type, JSON))
