"""Reading a game's latest engine state.

Decoding a snapshot is the costly part of most reads, and a committed snapshot never changes, so the
decoded state is kept in the process's memo (pbem/memo.py), keyed by the game and its sequence number: the
turn page, state.json, the move that follows and the emails it composes decode each snapshot once.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from sqlalchemy import bindparam, select, tuple_
from sqlalchemy.orm import Session

import engine
from pbem import snapshot_codec
from pbem.db import in_chunks
from pbem.errors import GameNotStarted
from pbem.memo import recalled, remembered
from pbem.models import Game, Snapshot

# Built once, run on the session's connection: a plain statement for the one column (docs/performance.md).
STATE_AT = select(Snapshot.__table__.c.state).where(
    Snapshot.__table__.c.game_id == bindparam("game_id"), Snapshot.__table__.c.seq == bindparam("seq")
)


def latest_state(session: Session, game: Game, stored: bytes | None = None) -> engine.Game:
    """The engine state of `game`'s current snapshot (GameNotStarted before the first deal).

    `stored`: that snapshot's state column as its stored payload, when the caller read it along with the game (a
    move's lock, pbem/service/rows.py); it is decoded as the column's type decodes it (pbem/snapshot_codec.py)."""
    seq = game.current_seq
    if seq is None:
        raise GameNotStarted()

    def decode() -> engine.Game:
        if stored is not None:
            return engine.Game.from_dict(snapshot_codec.decode("state", stored))
        return state_at(session, game, seq)

    return remembered(session, "state", (game.public_id, seq), decode)


def state_at(session: Session, game: Game, seq: int) -> engine.Game:
    """The engine state of `game`'s snapshot number `seq`, which must exist, decoded anew for the caller."""
    return engine.Game.from_dict(session.connection().execute(STATE_AT, {"game_id": game.id, "seq": seq}).scalar_one())


def latest_states(session: Session, games: Sequence[Game]) -> dict[int, engine.Game]:
    """`latest_state` of each started game in `games`, keyed by the game's primary key: the states this process
    has not decoded yet are read together (one statement per `in_chunks` slice), for pages that list many games."""
    states: dict[int, engine.Game] = {}
    unread: dict[tuple[int, int], Game] = {}
    for game in games:
        if game.current_seq is None:
            continue
        state = recalled(session, "state", (game.public_id, game.current_seq))
        if state is not None:
            states[game.id] = state
        else:
            unread[(game.id, game.current_seq)] = game
    for keys in in_chunks(list(unread)):
        wanted = tuple_(Snapshot.game_id, Snapshot.seq).in_(keys)
        rows = session.execute(select(Snapshot.game_id, Snapshot.seq, Snapshot.state).where(wanted))
        for game_pk, seq, raw in rows:
            game = unread[(game_pk, seq)]
            states[game_pk] = remembered(session, "state", (game.public_id, seq), partial(engine.Game.from_dict, raw))
    return states


def seat_view(state: engine.Game, seat: int | None, names: Sequence[str]) -> engine.View:
    """`engine.view(state, seat)`, telling each seat by the name it has now.

    A seat that changes hands (the host replaces a player) keeps its place in the engine state, which still holds
    the name the seat was dealt with; pages and emails call it by its current name, as the log does."""
    view = engine.view(state, seat)
    if view["players"] == list(names):
        return view
    view["players"] = list(names)
    for row in view["seats"]:
        row["name"] = names[row["seat"]]
    if view.get("you"):
        view["you"]["name"] = names[view["you"]["seat"]]
    return view
