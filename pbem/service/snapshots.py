"""Reading a game's latest engine state.

Decoding a snapshot is the costly part of most reads, and a committed snapshot never changes, so the
decoded state is kept in the process's memo (pbem/memo.py), keyed by the game and its sequence number: the
turn page, state.json, the move that follows and the emails it composes decode each snapshot once.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from pbem.memo import remembered
from pbem.models import Game, Snapshot


def latest_state(session: Session, game: Game) -> engine.Game:
    """The engine state of `game`'s current snapshot (the game must have started)."""
    seq = game.current_seq

    def decode() -> engine.Game:
        raw = session.scalar(select(Snapshot.state).where(Snapshot.game_id == game.id, Snapshot.seq == seq))
        return engine.Game.from_dict(raw)

    return remembered(session, "state", (game.public_id, seq), decode)
