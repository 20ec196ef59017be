"""Loading a game row with its seats and turn clock, as nearly every request and email needs it: one query.

The statements are built once, with the public id bound at execution: building an ORM statement and its
cache key each time was a measurable part of a page (docs/performance.md).
"""

from __future__ import annotations

from sqlalchemy import bindparam, select
from sqlalchemy.orm import joinedload

from pbem.models import Game

# Options for `Session.get` of a game by primary key (the deliverer, composing a turn email).
SEATS_AND_CLOCK = (joinedload(Game.seats), joinedload(Game.clock))
GAME_WITH_SEATS = select(Game).where(Game.public_id == bindparam("public_id")).options(*SEATS_AND_CLOCK)
# FOR NO KEY UPDATE: it serializes moves on one game without blocking rows that merely reference it.
GAME_WITH_SEATS_LOCKED = GAME_WITH_SEATS.with_for_update(of=Game, key_share=True)
