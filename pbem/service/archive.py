"""The whole record of a finished game as one JSON document: every snapshot, move, event and host action,
and every round's sealed deal with what opens it.

For the players once the game is over (their turn page offers it) and for the host's pages. A snapshot is
the engine's full state (`engine.Game.from_dict` reads it back), so the archive holds every secret of the
game: it is only ever built for a game that is over. Email addresses are left out unless asked for (the
host's own pages may show them; the players' download does not).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.models import Game, HostAction, Snapshot
from pbem.service.disclosure import Disclosure
from pbem.service.fairness import sealed_rounds

FORMAT = "saboteur-pbem-archive-1"


def game_archive(session: Session, game: Game, *, include_emails: bool = False) -> dict[str, Any]:
    """Everything stored about `game` (the caller checks that it is over)."""
    snapshots = session.execute(
        select(Snapshot.seq, Snapshot.created_at, Snapshot.actor_seat, Snapshot.move, Snapshot.events, Snapshot.state)
        .where(Snapshot.game_id == game.id)
        .order_by(Snapshot.seq)
    )
    actions = session.scalars(select(HostAction).where(HostAction.game_id == game.id).order_by(HostAction.id))
    sealed = sealed_rounds(session, game, Disclosure(closed=True, ended_rounds=frozenset()))
    return {
        "format": FORMAT,
        "game": {
            "id": game.public_id,
            "title": game.title,
            "variant": game.variant,
            "options": game.options,
            "policies": game.policies,
            "status": game.status,
            "created_at": game.created_at.isoformat(),
            "host_email": game.host_email if include_emails else None,
        },
        "seats": [
            {
                "seat": seat.seat_index,
                "name": seat.display_name,
                "is_bot": seat.is_bot,
                "email": seat.email if include_emails else None,
            }
            for seat in game.seats
        ],
        "snapshots": [
            {
                "seq": seq,
                "created_at": created_at.isoformat(),
                "actor": actor,
                "move": move,
                "events": events,
                "state": state,
            }
            for seq, created_at, actor, move, events, state in snapshots
        ],
        "host_actions": [
            {
                "created_at": action.created_at.isoformat(),
                "action": action.action,
                "details": action.details,
                "actor_email": action.actor_email if include_emails else None,
            }
            for action in actions
        ],
        "sealed_deals": [
            {
                "round": seal.round,
                "sealed_at": seal.sealed_at.isoformat(),
                "dealt_seq": seal.dealt_seq,
                "commitment": seal.commitment,
                "salt": seal.opening.salt if seal.opening else None,
                "deal": seal.opening.record if seal.opening else None,
            }
            for seal in sealed
        ],
    }
