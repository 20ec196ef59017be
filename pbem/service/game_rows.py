"""Loading a game row with its seats (and turn clock), as nearly every request and email needs it: one query.

The statements are built once, with the public id bound at execution: building an ORM statement and its
cache key each time was a measurable part of a page (docs/performance.md).
"""

from __future__ import annotations

from sqlalchemy import Text, bindparam, cast, select
from sqlalchemy.orm import joinedload

from pbem.models import Game, Snapshot

# Options for `Session.get` of a game by primary key (the deliverer, composing a turn email).
SEATS_AND_CLOCK = (joinedload(Game.seats), joinedload(Game.clock))
GAME_WITH_SEATS = select(Game).where(Game.public_id == bindparam("public_id")).options(*SEATS_AND_CLOCK)
# FOR NO KEY UPDATE: it serializes moves on one game without blocking rows that merely reference it.
GAME_WITH_SEATS_LOCKED = GAME_WITH_SEATS.with_for_update(of=Game, key_share=True)
# A move's lock leaves the turn clock out: the move gives the clock a fresh start without reading the old one
# (`turn_clock.plan_turn`), and a third of the lock's columns, on each seat's row, were the clock's.
GAME_WITH_SEATS_LOCKED_FOR_MOVE = (
    select(Game)
    .where(Game.public_id == bindparam("public_id"))
    .options(joinedload(Game.seats))
    .with_for_update(of=Game, key_share=True)
)

# A move's lock when this process has not decoded the state the move builds on (three moves in four, with four
# workers): the state column of the game's current snapshot comes along as the JSON text it is stored as, one
# string repeated on each seat's row, decoded once (`snapshots.latest_state`), instead of a statement of its own.
_CURRENT_STATE_TEXT = (
    select(cast(Snapshot.__table__.c.state, Text))
    .where(Snapshot.__table__.c.game_id == Game.id, Snapshot.__table__.c.seq == Game.current_seq)
    .scalar_subquery()
)
GAME_WITH_SEATS_AND_STATE_LOCKED = (
    select(Game, _CURRENT_STATE_TEXT)
    .where(Game.public_id == bindparam("public_id"))
    .options(joinedload(Game.seats))
    .with_for_update(of=Game, key_share=True)
)
