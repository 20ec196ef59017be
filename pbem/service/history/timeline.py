"""Where each round of a game begins among its snapshots, for replays ("jump to round start") and recaps.

Round 1 begins with the first snapshot; a later round with the move whose events hold `round_started`
(the move that completed the last round's payouts also deals the next round).
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from pbem.models import Game, Snapshot

ROUND_STARTED = "round_started"


def round_starts(session: Session, game: Game) -> dict[int, int]:
    """Round number -> sequence number of the snapshot that dealt it (empty before the game starts)."""
    first = session.scalar(select(Snapshot.state).where(Snapshot.game_id == game.id, Snapshot.seq == 0))
    if first is None:
        return {}
    starts = {engine.Game.from_dict(first).round: 0}
    rows = session.execute(
        select(Snapshot.seq, Snapshot.events)
        .where(Snapshot.game_id == game.id, Snapshot.seq > 0)
        .order_by(Snapshot.seq)
    )
    for seq, events in rows:
        for event in events:
            if event.get("type") == ROUND_STARTED:
                starts[event["round"]] = seq
    return starts


def round_span(starts: dict[int, int], round_number: int, last_seq: int) -> tuple[int, int]:
    """The first and last sequence numbers of the snapshots holding a round's events: from its deal to the
    move that dealt the next round (that move ends this round first), or to the latest snapshot."""
    first = starts[round_number]
    later = [seq for seq in starts.values() if seq > first]
    return first, (min(later) if later else last_seq)
