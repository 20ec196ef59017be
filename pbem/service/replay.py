"""A game step by step from its stored snapshots, seen through the right eyes.

While the game runs, a player's replay shows at every step exactly what their seat could see then:
`engine.view(state, seat)` and the events whose audience held that seat; a host's (or anyone else's) replay
shows the public view and public events. Once the game is over everything is open to everyone in it:
`engine.open_view(state)` (every hand, role and goal) and every event, told in the third person.
`pbem/service/disclosure.py` says when a game is over.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from pbem.models import Game, Snapshot
from pbem.service.disclosure import game_is_closed
from pbem.service.events import describe, describe_openly, visible_events
from pbem.service.timeline import round_starts

# Moves of the same round shown before the current one, newest first.
LOG_LENGTH = 12


@dataclass(frozen=True)
class ReplayEntry:
    """One snapshot's move as the viewer may read it."""

    seq: int
    actor: str | None
    when: datetime
    lines: list[str]


@dataclass(frozen=True)
class ReplayStep:
    game_id: str
    title: str
    players: list[str]
    computer_seats: frozenset[int]
    seat: int | None  # whose eyes: a seat, or None for the public view
    open: bool  # the game is over: everything is shown
    step: int
    last: int
    round: int
    round_starts: dict[int, int]
    view: dict[str, Any]
    entry: ReplayEntry
    earlier: list[ReplayEntry]  # this round's moves before this step, newest first

    @property
    def round_start(self) -> int:
        return self.round_starts.get(self.round, 0)


@dataclass(frozen=True)
class Eyes:
    """Who is looking: a seat or nobody in particular, in a game that is over or not."""

    seat: int | None
    open: bool

    def view(self, state: engine.Game) -> dict[str, Any]:
        if self.open:
            return engine.open_view(state)
        return engine.view(state, self.seat)

    def lines(self, events: Iterable[dict[str, Any]], names: list[str]) -> list[str]:
        if self.open:
            return [describe_openly(event, names) for event in events]
        return describe(visible_events(events, self.seat), names)


def eyes_for(game: Game, seat: int | None) -> Eyes:
    return Eyes(seat=seat, open=game_is_closed(game))


def replay_step(session: Session, game: Game, eyes: Eyes, step: int) -> ReplayStep:
    """One step (0 .. the latest snapshot), with the moves of its round that came just before."""
    assert game.current_seq is not None
    step = min(max(step, 0), game.current_seq)
    starts = round_starts(session, game)
    round_number = _round_at(starts, step)
    since = max(starts.get(round_number, 0), step - LOG_LENGTH)
    rows = session.execute(
        select(Snapshot.seq, Snapshot.actor_seat, Snapshot.created_at, Snapshot.events)
        .where(Snapshot.game_id == game.id, Snapshot.seq >= since, Snapshot.seq <= step)
        .order_by(Snapshot.seq)
    ).all()
    state = engine.Game.from_dict(
        session.scalar(select(Snapshot.state).where(Snapshot.game_id == game.id, Snapshot.seq == step))
    )
    entries = [_entry(game, eyes, seq, actor, when, events) for seq, actor, when, events in rows]
    return _step(game, eyes, starts, state, entries)


def replay_all(session: Session, game: Game, eyes: Eyes) -> Iterator[ReplayStep]:
    """Every step in order, reading each snapshot once (for the offline replay file)."""
    starts = round_starts(session, game)
    earlier: list[ReplayEntry] = []
    rows = session.execute(
        select(Snapshot.seq, Snapshot.actor_seat, Snapshot.created_at, Snapshot.events, Snapshot.state)
        .where(Snapshot.game_id == game.id)
        .order_by(Snapshot.seq)
        # No yield_per: read sessions on PostgreSQL autocommit (pbem/db.py), and a server-side cursor needs a
        # transaction. A finished game is a few hundred snapshots of about a kilobyte each: read at once.
    )
    for seq, actor, when, events, state in rows:
        if seq in starts.values():
            earlier = []
        entry = _entry(game, eyes, seq, actor, when, events)
        earlier = [*earlier[-LOG_LENGTH:], entry]
        yield _step(game, eyes, starts, engine.Game.from_dict(state), earlier)


def _step(
    game: Game, eyes: Eyes, starts: dict[int, int], state: engine.Game, entries: Sequence[ReplayEntry]
) -> ReplayStep:
    entry = entries[-1]
    round_number = _round_at(starts, entry.seq)
    first = starts.get(round_number, 0)
    return ReplayStep(
        game_id=game.public_id,
        title=game.title,
        players=game.names,
        computer_seats=frozenset(seat.seat_index for seat in game.seats if seat.is_bot),
        seat=eyes.seat,
        open=eyes.open,
        step=entry.seq,
        last=game.current_seq if game.current_seq is not None else entry.seq,
        round=round_number,
        round_starts=dict(starts),
        view=eyes.view(state),
        entry=entry,
        earlier=[e for e in reversed(entries[:-1]) if e.seq >= first][:LOG_LENGTH],
    )


def _entry(
    game: Game, eyes: Eyes, seq: int, actor: int | None, when: datetime, events: list[dict[str, Any]]
) -> ReplayEntry:
    names = game.names
    lines = eyes.lines(events, names)
    if seq == 0:
        lines = ["The cards are dealt.", *lines]
    who = names[actor] if actor is not None and 0 <= actor < len(names) else None
    return ReplayEntry(seq=seq, actor=who, when=when, lines=lines)


def _round_at(starts: dict[int, int], seq: int) -> int:
    begun = [round_number for round_number, first in starts.items() if first <= seq]
    return max(begun) if begun else 1
