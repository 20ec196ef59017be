"""Two schedulers sweeping at the same moment (threads, and separate processes; SQLite and PostgreSQL) never
send a reminder twice or apply a deadline twice: each due clock is claimed by a conditional update."""

from __future__ import annotations

import multiprocessing
import threading
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

import engine
from pbem.clock import SettableClock
from pbem.config import Config
from pbem.models import Game, OutboxMessage, Snapshot
from pbem.runtime import Runtime, build_runtime
from pbem.service.sweep import SweepResult
from tests.support.games import NewGame

GAMES = 6
REMINDER_DUE = datetime(2026, 1, 6, 9, 30, tzinfo=UTC)  # a day after START: each game's first reminder
DEADLINE_DUE = datetime(2026, 1, 8, 9, 30, tzinfo=UTC)  # past each game's 72-hour deadline


def counts(runtime: Runtime) -> tuple[int, int, dict[int, int]]:
    """(reminders queued, warnings queued, snapshots per game beyond the first)."""
    with runtime.db.read() as session:
        reminders = session.scalar(select(func.count()).where(OutboxMessage.kind == "turn_reminder"))
        warnings = session.scalar(select(func.count()).where(OutboxMessage.kind == "deadline_warning"))
        moves = dict(session.execute(
            select(Snapshot.game_id, func.count()).where(Snapshot.seq > 0).group_by(Snapshot.game_id)
        ).all())
    return reminders or 0, warnings or 0, moves


def sweep_in_threads(config: Config, when: datetime, schedulers: int = 2) -> list[SweepResult]:
    """`schedulers` runtimes (each its own connection pool, as separate schedulers have) sweeping at once."""
    runtimes = [build_runtime(config, clock=SettableClock(when)) for _ in range(schedulers)]
    barrier = threading.Barrier(schedulers)
    results: list[SweepResult] = []

    def sweep(runtime: Runtime) -> None:
        barrier.wait()
        results.append(runtime.sweep.run(digests=False))

    threads = [threading.Thread(target=sweep, args=(runtime,)) for runtime in runtimes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for runtime in runtimes:
        runtime.close()
    return results


def test_two_sweeps_in_threads_at_the_same_moment_send_each_reminder_once_and_apply_each_deadline_once(
    runtime: Runtime, new_game: NewGame, config: Config
) -> None:
    games = [new_game() for _ in range(GAMES)]

    reminded = sweep_in_threads(config, REMINDER_DUE)
    timed_out = sweep_in_threads(config, DEADLINE_DUE)

    assert sum(result.reminders for result in reminded) == GAMES
    assert sum(result.timeouts for result in timed_out) == GAMES
    reminders, _, moves = counts(runtime)
    assert reminders == GAMES
    assert sorted(moves.values()) == [1] * GAMES
    assert len(games) == GAMES


def _sweep_in_process(config: Config, when: str, barrier: object, results: object) -> None:
    runtime = build_runtime(config, clock=SettableClock(datetime.fromisoformat(when)))
    try:
        barrier.wait()  # type: ignore[attr-defined]
        result = runtime.sweep.run(digests=False)
        results.put((result.reminders, result.warnings, result.timeouts))  # type: ignore[attr-defined]
    finally:
        runtime.close()


def sweep_in_processes(config: Config, when: datetime, schedulers: int = 2) -> list[tuple[int, int, int]]:
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(schedulers)
    results = context.Queue()
    processes = [
        context.Process(target=_sweep_in_process, args=(config, when.isoformat(), barrier, results))
        for _ in range(schedulers)
    ]
    for process in processes:
        process.start()
    collected = [results.get(timeout=120) for _ in processes]
    for process in processes:
        process.join(timeout=60)
        assert process.exitcode == 0
    return collected


def test_two_scheduler_processes_sweeping_at_the_same_moment_send_nothing_twice(
    runtime: Runtime, new_game: NewGame, config: Config
) -> None:
    for _ in range(GAMES):
        new_game()

    reminded = sweep_in_processes(config, REMINDER_DUE)
    timed_out = sweep_in_processes(config, DEADLINE_DUE)

    assert sum(reminders for reminders, _, _ in reminded) == GAMES
    assert sum(timeouts for _, _, timeouts in timed_out) == GAMES
    reminders, _, moves = counts(runtime)
    assert reminders == GAMES
    assert sorted(moves.values()) == [1] * GAMES


def test_a_sweep_that_read_a_clock_before_another_handled_it_loses_its_claim(
    runtime: Runtime, new_game: NewGame, config: Config, clock: SettableClock
) -> None:
    new_game()
    clock.set(DEADLINE_DUE)
    other = build_runtime(config, clock=clock)
    try:
        stale = runtime.sweep.due(clock.now())  # read, then overtaken

        done = other.sweep.run(digests=False)
        late = SweepResult()
        for game_pk, version in stale:
            runtime.sweep.handle(game_pk, version, clock.now(), late)
    finally:
        other.close()

    assert (done.timeouts, late.timeouts, late.lost_claims) == (1, 0, 1)
    assert sorted(counts(runtime)[2].values()) == [1]


def test_a_sweep_that_read_a_clock_before_a_move_loses_its_claim(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    """A move rewrites the clock without reading it: its version still moves on, so the sweep cannot act."""
    game_id = new_game()
    clock.set(DEADLINE_DUE)
    stale = runtime.sweep.due(clock.now())
    state, seq = runtime.games.engine_state(game_id)
    seat = engine.to_act(state)
    assert seat is not None
    runtime.games.submit_move(game_id, seat, {"type": "pass", "cards": [state.hands[seat][0]]}, seq, "in-time")

    late = SweepResult()
    for game_pk, version in stale:
        runtime.sweep.handle(game_pk, version, clock.now(), late)

    assert (late.timeouts, late.lost_claims) == (0, 1)
    assert sorted(counts(runtime)[2].values()) == [1]  # the player's move, and no timeout after it


def test_a_restarted_scheduler_after_an_outage_applies_each_overdue_deadline_once(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    for _ in range(GAMES):
        new_game()
    clock.set(DEADLINE_DUE + timedelta(days=10))

    first = runtime.sweep.run()
    again = runtime.sweep.run()

    # Each game's first seat times out once; the next seats' turns began just now and are not due.
    assert (first.timeouts, again.timeouts) == (GAMES, 0)
    with runtime.db.read() as session:
        assert session.scalar(select(func.count()).select_from(Game).where(Game.current_seq == 1)) == GAMES


def test_a_game_whose_timeout_fails_is_tried_again_later_and_does_not_hold_up_the_others(
    runtime: Runtime, new_game: NewGame, clock: SettableClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken, fine = new_game(), new_game()
    real = runtime.games.apply_timeout

    def apply_timeout(session, game, choose):  # type: ignore[no-untyped-def]
        if game.public_id == broken:
            raise RuntimeError("a bug in one game")
        return real(session, game, choose)

    monkeypatch.setattr(runtime.games, "apply_timeout", apply_timeout)
    clock.set(DEADLINE_DUE)

    result = runtime.sweep.run()

    assert result.timeouts == 1
    assert runtime.games.current_state(fine).seq == 1 and runtime.games.current_state(broken).seq == 0
    assert runtime.sweep.run().timeouts == 0  # not retried at once
    monkeypatch.undo()
    clock.advance(timedelta(hours=1))
    assert runtime.sweep.run().timeouts == 1
