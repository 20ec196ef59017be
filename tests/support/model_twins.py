"""The twin check of the service model: a copy of the whole database in which one game's stored snapshots differ
only in what one seat (or, for None, everyone at the table) cannot know, read through a runtime of its own.

Everything else stays as it was (seats, names, clocks, table talk, host actions, spectator links), so the copy
shows that seat, a spectator and the host exactly what the real service shows them, or something they were shown
depends on what they may not know. The scrambling is that of tests/support/twins.py: the engine state as in the
engine's own property test (`scramble_hidden`) and every event the seat may not see filled with other values.
"""

from __future__ import annotations

import dataclasses
import random
import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import select, update

import engine
from pbem.clock import SettableClock
from pbem.config import Config
from pbem.errors import PbemError
from pbem.models import Game, RoundCommitment, Snapshot
from pbem.runtime import Runtime, build_runtime
from pbem.service.host.host_access import HostSession
from tests.support.tables import scramble_hidden
from tests.support.twins import audience_holds, junk, scramble_event


def copy_database(source: Path, target: Path) -> None:
    """A consistent copy of a live SQLite file (the backup API, so nothing half-written is copied)."""
    with sqlite3.connect(source) as live, sqlite3.connect(target) as copy:
        live.backup(copy)
    copy.close()
    live.close()


def scramble_game(runtime: Runtime, game_id: str, seat: int | None, rnd: random.Random) -> None:
    """Rewrite the game's snapshots as a twin for `seat` would store them, and the seals, as far as they belong to
    rounds not yet over: their states, the events of their moves, the seals' salt and record."""
    with runtime.db.write() as session:
        game = session.scalars(select(Game).where(Game.public_id == game_id)).one()
        snapshots = list(session.scalars(select(Snapshot).where(Snapshot.game_id == game.id)
                                         .order_by(Snapshot.seq)))
        latest = engine.Game.from_dict(snapshots[-1].state)
        finished = {result["round"] for result in engine.view(latest, None).get("results", [])}
        played_in = None  # the round of the state before each snapshot's move: its events belong to that round
        for snapshot in snapshots:  # (a statement of its own: the ORM refuses to rewrite history, rightly)
            state = engine.Game.from_dict(snapshot.state)
            events = snapshot.events
            if played_in not in finished:  # once a round is over, what it hid is told to all (disclosure.py)
                events = [event if event["audience"] == "public" or seat is not None and audience_holds(event, seat)
                          else scramble_event(event, rnd) for event in events]
            played_in = state.round
            if state.round not in finished:
                state = scramble_hidden(state, seat, rnd)
            session.execute(update(Snapshot).where(Snapshot.game_id == game.id, Snapshot.seq == snapshot.seq)
                            .values(state=state.to_dict(), events=events)
                            .execution_options(synchronize_session=False))
        for seal in session.scalars(select(RoundCommitment).where(RoundCommitment.game_id == game.id)):
            if seal.round not in finished:
                seal.salt, seal.record = f"{rnd.getrandbits(256):064x}", junk(seal.record, rnd)


def what_a_seat_is_shown(runtime: Runtime, game_id: str, seat: int) -> dict[str, Any]:
    return {
        "state": runtime.games.current_state(game_id, seat),
        "history": runtime.games.history(game_id, seat),
        "replay": runtime.chronicle.replay_step(game_id, seat),
        "profile": runtime.seats.profile(game_id, seat),
    }


def what_onlookers_are_shown(runtime: Runtime, game_id: str, spectator_tokens: list[str],
                             host: HostSession) -> dict[str, Any]:
    spectators: list[object] = []
    for token in spectator_tokens:
        try:
            spectators.append(runtime.spectators.view(token))
        except PbemError as refused:
            spectators.append(refused.message)
    detail = runtime.hosting.detail(game_id, host)
    return {
        "spectators": spectators,
        "public replay": runtime.chronicle.replay_step(game_id, None),
        "seals": runtime.chronicle.seals(game_id),
        "host page": dataclasses.replace(detail, actions=[]),
        "host actions": [(action.action, action.details, action.created_at) for action in detail.actions],
    }


class TwinCheck:
    """Compares what the real service shows with what a scrambled copy of its database shows."""

    def __init__(self, config: Config, database: Path, workdir: Path, clock: SettableClock) -> None:
        self.config, self.database, self.workdir, self.clock = config, database, workdir, clock
        self.copies = 0

    def twin(self, game_id: str, seat: int | None, rnd: random.Random) -> Runtime:
        self.copies += 1
        path = self.workdir / f"{self.database.stem}-twin-{self.copies}.sqlite3"
        copy_database(self.database, path)
        twin = build_runtime(dataclasses.replace(self.config, database_url=f"sqlite:///{path}"),
                             clock=SettableClock(self.clock.now()))
        scramble_game(twin, game_id, seat, rnd)
        return twin

    def differences(self, real: Runtime, game_id: str, seats: int, spectator_tokens: list[str],
                    host: HostSession, rnd: random.Random) -> list[str]:
        """Who is shown what differently in a twin: 'seat 1: history', 'spectators (twin for seat 0)'..."""
        found = []
        onlookers = what_onlookers_are_shown(real, game_id, spectator_tokens, host)
        for seat in [None, *range(seats)]:
            twin = self.twin(game_id, seat, rnd)
            try:
                if seat is not None:
                    mine, theirs = what_a_seat_is_shown(real, game_id, seat), what_a_seat_is_shown(
                        twin, game_id, seat)
                    found += [f"seat {seat}: {key}" for key in mine if mine[key] != theirs[key]]
                seen = what_onlookers_are_shown(twin, game_id, spectator_tokens, host)
                found += [f"{key} (twin for seat {seat})" for key in onlookers if onlookers[key] != seen[key]]
            finally:
                twin.close()
                (self.workdir / f"{self.database.stem}-twin-{self.copies}.sqlite3").unlink(missing_ok=True)
        return found
