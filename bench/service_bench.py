"""What a move costs once it is a transaction: `GameService.submit_move` against the bare engine.

Plays complete random 5-player games through `engine.apply_move` alone (the baseline, measured in the
same run) and through the game service (lock, stale check, engine, snapshot insert, outbox
email, commit) on a SQLite file, and on PostgreSQL when a URL is given. Prints moves per second and the
median move time as a ratio to the baseline, so figures from a busy machine stay comparable.

    .venv/bin/python -m bench.service_bench [--games 3] [--postgres postgresql+psycopg://postgres@127.0.0.1/test]
        [--short]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

import engine
from bench.pg_schemas import scratch_schema
from bench.short import parse_args
from pbem.clock import SystemClock
from pbem.config import Config
from pbem.models import Base
from pbem.runtime import build_runtime
from pbem.service.turns.values import PlayerSpec

PLAYERS = [PlayerSpec(name, f"{name.lower()}@example.org") for name in ("Ann", "Bo", "Cy", "Di", "Ed")]


def engine_only(count: int) -> list[float]:
    """Time of each `apply_move` over `count` complete random games."""
    times = []
    for number in range(count):
        rng = random.Random(number)
        game = engine.new_game([p.name for p in PLAYERS], seed=number)
        while (seat := engine.to_act(game)) is not None:
            move = engine.bots.choose(game, seat, rng)
            start = time.perf_counter()
            game, _ = engine.apply_move(game, seat, move)
            times.append(time.perf_counter() - start)
    return times


def through_service(database_url: str, count: int, instance: Path) -> list[float]:
    """Time of each `submit_move` over `count` complete random games (the service deals its own seeds)."""
    config = Config(base_url="http://bench.invalid", secret_keys=("bench-secret-key-0123456789",),
                    database_url=database_url, instance_path=str(instance))
    runtime = build_runtime(config, clock=SystemClock())
    Base.metadata.create_all(runtime.db.engine)
    times = []
    try:
        for number in range(count):
            game_id = runtime.games.create_game(title=f"Bench {number}", players=PLAYERS, host_email="h@example.org")
            runtime.games.start_game(game_id)
            rng = random.Random(number)
            while True:
                state, seq = runtime.games.engine_state(game_id)
                seat = engine.to_act(state)
                if seat is None:
                    break
                move = engine.bots.choose(state, seat, rng)
                start = time.perf_counter()
                runtime.games.submit_move(game_id, seat, move, seq, f"bench-{seq}")
                times.append(time.perf_counter() - start)
    finally:
        runtime.close()
    return times


def report(label: str, times: list[float], baseline: float) -> None:
    median = statistics.median(times)
    print(f"{label:<28} {len(times):>6} moves  {len(times) / sum(times):>9.0f} moves/s  "
          f"median {median * 1e3:7.2f} ms  ({median / baseline:,.0f}x engine alone)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--postgres", default="", help="PostgreSQL URL; a scratch schema is created and dropped")
    args = parse_args(parser, games=1)

    baseline_times = engine_only(args.games)
    baseline = statistics.median(baseline_times)
    report("engine.apply_move alone", baseline_times, baseline)

    with tempfile.TemporaryDirectory() as scratch:
        sqlite_url = f"sqlite:///{Path(scratch) / 'bench.sqlite3'}"
        report("submit_move, SQLite file", through_service(sqlite_url, args.games, Path(scratch)), baseline)

        if args.postgres:
            with scratch_schema(args.postgres) as url:
                report("submit_move, PostgreSQL", through_service(url, args.games, Path(scratch)), baseline)


if __name__ == "__main__":
    main()
