"""The whole record of a finished game as one JSON document: every snapshot, move, event and host action,
and every round's sealed deal with what opens it.

For the players once the game is over (their turn page offers it) and for the host's pages. It holds only
what may be shown once the game is over, as the engine says: each snapshot as `engine.open_view` (every hand,
role and goal, but never a dwarf card given up to Swap Your Hats nor the leftovers that would give it away),
its events as `engine.open_event` and its move as `engine.open_move` (with option `recap_private_moves` off,
no hand, unseen goal, map result or face-down card), and each sealed deal as opened (`fairness.Opening`: a
withheld part only by its digest). Never the engine's raw state. Email addresses are left out unless asked
for (the host's own pages may show them; the players' download does not).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from pbem.models import Game, HostAction, Snapshot
from pbem.service.history.disclosure import Disclosure
from pbem.service.history.fairness import SealedRound, sealed_rounds
from pbem.service.history.holders import former_holders_of, names_at
from pbem.service.history.replay import unsaid

# 3: snapshots as open views with their events and moves as everyone may read them; deals opened in parts;
# each snapshot names who held its actor's seat then, and each seat lists its earlier holders.
FORMAT = "saboteur-pbem-archive-3"


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
                "former_holders": [
                    {"name": entry["name"], "upto_seq": entry["upto_seq"]}
                    for entry in former_holders_of(game, seat.seat_index)
                ],
            }
            for seat in game.seats
        ],
        "snapshots": _shown_snapshots(game, snapshots.tuples().all()),
        "host_actions": [
            {
                "created_at": action.created_at.isoformat(),
                "action": action.action,
                "details": action.details,
                "actor_email": action.actor_email if include_emails else None,
            }
            for action in actions
        ],
        "sealed_deals": [_opened_deal(seal) for seal in sealed],
    }


SnapshotRow = tuple[int, datetime, int | None, dict[str, Any] | None, list[engine.Event], dict[str, Any]]


def _shown_snapshots(game: Game, rows: Sequence[SnapshotRow]) -> list[dict[str, Any]]:
    """Each snapshot as everyone may see it once the game is over."""
    hidden = unsaid([(seq, events) for seq, _, _, _, events, _ in rows])
    shown = []
    for seq, created_at, actor, move, events, stored in rows:
        state = engine.Game.from_dict(stored)
        told = (
            engine.open_event(event, state.options, secret)
            for event, secret in zip(events, hidden.events[seq], strict=False)
        )
        shown.append(
            {
                "seq": seq,
                "created_at": created_at.isoformat(),
                "actor": actor,
                "actor_name": names_at(game, seq)[actor] if actor is not None else None,
                "move": engine.open_move(move, state.options),
                "events": [event for event in told if event is not None],
                "view": engine.open_view(state, secret_roles=hidden.after[seq]),
            }
        )
    return shown


def _opened_deal(seal: SealedRound) -> dict[str, Any]:
    """A round's seal with what opens it: the whole record and salt of a first-format seal, else the opening
    (each part with its salt, or a withheld part's digest) and the deal as it shows."""
    opening = seal.opening
    return {
        "round": seal.round,
        "sealed_at": seal.sealed_at.isoformat(),
        "dealt_seq": seal.dealt_seq,
        "commitment": seal.commitment,
        "salt": opening.salt if opening else None,
        "deal": opening.record if opening else None,
        "opening": json.loads(opening.sealed_text) if opening and not opening.whole else None,
        "withheld": list(opening.withheld) if opening else [],
    }
