"""Many players pressing "play" at the same moment, from threads and from separate processes.

Every worker reads the same state, waits at a barrier, then submits a legal move built on it. Exactly
one submission wins each sequence number; every other one gets StaleTurn; nothing is lost or doubled.
"""

from __future__ import annotations

import multiprocessing
import random
import threading
from collections.abc import Callable
from typing import Any, Protocol

import pytest
from sqlalchemy import select

from pbem.config import Config
from pbem.errors import StaleTurn
from pbem.models import Snapshot
from pbem.runtime import Runtime, build_runtime
from tests.support.games import random_move

WORKERS = 6
ROUNDS = 5
BARRIER_TIMEOUT = 60

Outcome = tuple[int, str, int | None]  # (round, "won" | "stale", seq won)


class Barrier(Protocol):
    def wait(self, timeout: float | None = None) -> int: ...


def race(runtime: Runtime, game_id: str, worker: int, barrier: Barrier) -> list[Outcome]:
    """Each round: read, wait for everyone, submit on what was read, wait for everyone again."""
    rng = random.Random(worker)
    outcomes: list[Outcome] = []
    for round_number in range(ROUNDS):
        seat, move, seq = random_move(runtime, game_id, rng)
        barrier.wait(BARRIER_TIMEOUT)
        try:
            result = runtime.games.submit_move(game_id, seat, move, seq, f"w{worker}-r{round_number}")
            outcomes.append((round_number, "won", result.seq))
        except StaleTurn:
            outcomes.append((round_number, "stale", None))
        barrier.wait(BARRIER_TIMEOUT)
    return outcomes


def race_in_process(config: Config, game_id: str, worker: int, barrier: Barrier, results: Any) -> None:
    runtime = build_runtime(config)
    try:
        results.put((worker, race(runtime, game_id, worker, barrier)))
    finally:
        runtime.close()


def race_threads(runtime: Runtime, config: Config, game_id: str) -> dict[int, list[Outcome]]:
    barrier = threading.Barrier(WORKERS)
    results: dict[int, list[Outcome]] = {}

    def work(worker: int) -> None:
        results[worker] = race(runtime, game_id, worker, barrier)

    threads = [threading.Thread(target=work, args=(worker,)) for worker in range(WORKERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def race_processes(runtime: Runtime, config: Config, game_id: str) -> dict[int, list[Outcome]]:
    context = multiprocessing.get_context("spawn")  # no database connections inherited across fork
    barrier = context.Barrier(WORKERS)
    queue = context.Queue()
    processes = [
        context.Process(target=race_in_process, args=(config, game_id, worker, barrier, queue))
        for worker in range(WORKERS)
    ]
    for process in processes:
        process.start()
    results = dict(queue.get(timeout=BARRIER_TIMEOUT * (ROUNDS * 2 + 1)) for _ in processes)
    for process in processes:
        process.join()
        assert process.exitcode == 0
    return results


@pytest.mark.parametrize("racing", [race_threads, race_processes], ids=["threads", "processes"])
def test_simultaneous_moves_one_wins_each_turn_the_rest_are_stale(
    runtime: Runtime, config: Config, new_game: Callable[..., str], racing: Callable[..., dict[int, list[Outcome]]]
) -> None:
    game_id = new_game()

    results = racing(runtime, config, game_id)

    assert sorted(results) == list(range(WORKERS))
    winners: dict[int, str] = {}
    for round_number in range(ROUNDS):
        outcomes = {worker: results[worker][round_number] for worker in results}
        won = [worker for worker, (_, verdict, _) in outcomes.items() if verdict == "won"]
        assert len(won) == 1, f"round {round_number}: {outcomes}"
        assert outcomes[won[0]][2] == round_number + 1
        assert sum(verdict == "stale" for _, verdict, _ in outcomes.values()) == WORKERS - 1
        winners[round_number + 1] = f"w{won[0]}-r{round_number}"
    with runtime.db.read() as session:
        stored = session.execute(select(Snapshot.seq, Snapshot.submission_id).order_by(Snapshot.seq)).all()
    assert [seq for seq, _ in stored] == list(range(ROUNDS + 1))
    assert {seq: submission for seq, submission in stored if seq > 0} == winners
    assert runtime.games.current_state(game_id).seq == ROUNDS
