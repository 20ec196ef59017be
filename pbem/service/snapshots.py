"""Reading a game's latest engine state, once per session.

The turn page asks for the latest state more than once (the seat's view, what is disclosed for the
fair-deal panel); decoding the snapshot is the costly part, so it is kept in `session.info` for the rest of
that session, keyed by the game and its sequence number (a later snapshot gets a key of its own).
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from pbem.models import Game, Snapshot


def latest_state(session: Session, game: Game) -> engine.Game:
    """The engine state of `game`'s current snapshot (the game must have started)."""
    key = ("latest_state", game.id, game.current_seq)
    cached = session.info.get(key)
    if cached is None:
        latest = select(Snapshot.state).where(Snapshot.game_id == game.id, Snapshot.seq == game.current_seq)
        raw = session.scalar(latest)
        cached = session.info[key] = engine.Game.from_dict(raw)
    return cached
