"""A game step by step from its stored snapshots, seen through the right eyes.

While the game runs, a player's replay shows at every step exactly what their seat could see then:
`engine.view(state, seat)` and the events whose audience held that seat; a host's (or anyone else's) replay
shows the public view and public events. Once the game is over everything is open to everyone in it:
`engine.open_view(state)` (every hand, role and goal) and every event, told in the third person; but a dwarf
card given up to Swap Your Hats is never named, and with option `recap_private_moves` off no hand, unseen goal,
map result or face-down card is shown (`engine.tellable`).
`pbem/service/history/disclosure.py` says when a game is over.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from pbem.i18n import gettext
from pbem.models import Game, Snapshot
from pbem.service.events import SERVER_EVENTS, describe, describe_openly, visible_events
from pbem.service.history.disclosure import game_is_closed
from pbem.service.history.holders import handover_lines, names_at
from pbem.service.history.timeline import round_starts
from pbem.service.snapshots import state_at
from pbem.words.events import describe_openly as told_openly

# Moves of the same round shown before the current one, newest first.
LOG_LENGTH = 12


@dataclass(frozen=True)
class ReplayEntry:
    """One snapshot's move as the viewer may read it."""

    seq: int
    actor: str | None
    when: datetime
    lines: list[str]
    ended_round: int | None = None  # the round this move ended (its `round_ended` event is public)


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
    view: engine.View
    entry: ReplayEntry
    earlier: list[ReplayEntry]  # this round's moves before this step, newest first

    @property
    def round_start(self) -> int:
        return self.round_starts.get(self.round, 0)

    @property
    def ended_table(self) -> tuple[int, engine.FinalBoard] | None:
        """When this step's move ended a round and dealt the next: that round's number and its table as it
        ended (its result's `final_board`), so the step shows the winning move before the new deal."""
        ended = self.entry.ended_round
        if ended is None or self.view.get("round", 0) <= ended:
            return None  # no round ended here, or the table still lies as the round ended
        for result in self.view.get("results", []):
            if result.get("round") == ended and result.get("final_board"):
                return ended, result["final_board"]
        return None


@dataclass(frozen=True)
class Eyes:
    """Who is looking: a seat or nobody in particular, in a game that is over or not."""

    seat: int | None
    open: bool

    def view(self, state: engine.Game, secret: frozenset[int] = frozenset()) -> engine.View:
        """`secret`: the seats whose dwarf card now is one they will give up to Swap Your Hats."""
        if self.open:
            return engine.open_view(state, secret_roles=secret)
        return engine.view(state, self.seat)

    def lines(
        self, events: Sequence[engine.Event], names: list[str], options: dict[str, Any],
        secrets: Sequence[frozenset[int]],
    ) -> list[str]:
        """`secrets`: for each event, the seats whose dwarf card then stays unsaid (`engine.roles_given_up`)."""
        if self.open:
            return [
                _open_line(event, names, secret)
                for event, secret in zip(events, secrets, strict=False)
                if engine.tellable(event, options)
            ]
        return describe(visible_events(events, self.seat), names, self.seat)


def _open_line(event: engine.Event, names: list[str], secret: frozenset[int]) -> str:
    if event.get("type") in SERVER_EVENTS:
        return describe_openly(event, names)
    return told_openly(event, names, secret)


AFTER_MOVE = {"type": "after_move"}  # a marker: what is secret once a snapshot's events are done


@dataclass(frozen=True)
class Unsaid:
    """The dwarf cards that stay unsaid in a run of snapshots: per snapshot, per event and after its events."""

    events: dict[int, list[frozenset[int]]]
    after: dict[int, frozenset[int]]


def unsaid(moves: Sequence[tuple[int, list[engine.Event]]]) -> Unsaid:
    """Read from the snapshots' events in order (every later move of the round must be among them)."""
    flat: list[Mapping[str, Any]] = []  # the events, each snapshot's followed by AFTER_MOVE
    for _, events in moves:
        flat += [*events, AFTER_MOVE]
    secrets = engine.roles_given_up(flat)
    per_event: dict[int, list[frozenset[int]]] = {}
    after: dict[int, frozenset[int]] = {}
    at = 0
    for seq, events in moves:
        per_event[seq] = secrets[at:at + len(events)]
        after[seq] = secrets[at + len(events)]
        at += len(events) + 1
    return Unsaid(events=per_event, after=after)


def eyes_for(game: Game, seat: int | None) -> Eyes:
    return Eyes(seat=seat, open=game_is_closed(game))


def replay_step(session: Session, game: Game, eyes: Eyes, step: int) -> ReplayStep:
    """One step (0 .. the latest snapshot), with the moves of its round that came just before."""
    assert game.current_seq is not None
    step = min(max(step, 0), game.current_seq)
    starts = round_starts(session, game)
    round_number = _round_at(starts, step)
    since = max(starts.get(round_number, 0), step - LOG_LENGTH)
    until = min((first for first in starts.values() if first > step), default=game.current_seq + 1)
    rows = session.execute(
        select(Snapshot.seq, Snapshot.actor_seat, Snapshot.created_at, Snapshot.events)
        .where(Snapshot.game_id == game.id, Snapshot.seq >= since, Snapshot.seq <= (until if eyes.open else step))
        .order_by(Snapshot.seq)
    ).all()
    state = state_at(session, game, step)
    hidden = unsaid([(seq, events) for seq, _, _, events in rows])
    entries = [
        _entry(game, eyes, seq, actor, when, events, state.options, hidden.events[seq])
        for seq, actor, when, events in rows
        if seq <= step
    ]
    return _step(game, eyes, starts, state, entries, hidden.after[step])


def replay_all(session: Session, game: Game, eyes: Eyes) -> Iterator[ReplayStep]:
    """Every step in order, reading each snapshot once (for the offline replay file)."""
    starts = round_starts(session, game)
    earlier: list[ReplayEntry] = []
    # No yield_per: read sessions on PostgreSQL autocommit (pbem/db.py), and a server-side cursor needs a
    # transaction. A finished game is a few hundred snapshots of about a kilobyte each: read at once.
    rows = session.execute(
        select(Snapshot.seq, Snapshot.actor_seat, Snapshot.created_at, Snapshot.events, Snapshot.state)
        .where(Snapshot.game_id == game.id)
        .order_by(Snapshot.seq)
    ).all()
    hidden = unsaid([(seq, events) for seq, _, _, events, _ in rows])
    for seq, actor, when, events, stored in rows:
        if seq in starts.values():
            earlier = []
        state = engine.Game.from_dict(stored)
        entry = _entry(game, eyes, seq, actor, when, events, state.options, hidden.events[seq])
        earlier = [*earlier[-LOG_LENGTH:], entry]
        yield _step(game, eyes, starts, state, earlier, hidden.after[seq])


def _step(
    game: Game, eyes: Eyes, starts: dict[int, int], state: engine.Game, entries: Sequence[ReplayEntry],
    secret: frozenset[int],
) -> ReplayStep:
    entry = entries[-1]
    round_number = _round_at(starts, entry.seq)
    first = starts.get(round_number, 0)
    return ReplayStep(
        game_id=game.public_id,
        title=game.title,
        players=names_at(game, entry.seq),
        computer_seats=frozenset(seat.seat_index for seat in game.seats if seat.is_bot),
        seat=eyes.seat,
        open=eyes.open,
        step=entry.seq,
        last=game.current_seq if game.current_seq is not None else entry.seq,
        round=round_number,
        round_starts=dict(starts),
        view=eyes.view(state, secret),
        entry=entry,
        earlier=[e for e in reversed(entries[:-1]) if e.seq >= first][:LOG_LENGTH],
    )


def _entry(
    game: Game, eyes: Eyes, seq: int, actor: int | None, when: datetime, events: list[engine.Event],
    options: dict[str, Any], secrets: Sequence[frozenset[int]],
) -> ReplayEntry:
    names = names_at(game, seq)
    lines = eyes.lines(events, names, options, secrets) + handover_lines(game, seq)
    if seq == 0:
        lines = [gettext("The cards are dealt."), *lines]
    who = names[actor] if actor is not None and 0 <= actor < len(names) else None
    ended = next((event.get("round") for event in events if event.get("type") == "round_ended"), None)
    return ReplayEntry(seq=seq, actor=who, when=when, lines=lines, ended_round=ended)


def _round_at(starts: dict[int, int], seq: int) -> int:
    begun = [round_number for round_number, first in starts.items() if first <= seq]
    return max(begun) if begun else 1
