"""What a sweep costs as the number of running games grows while what is due stays the same.

For 1,000 / 10,000 / 50,000 active games, of which a fixed number (`--due`, default 50) have work due (most a
reminder, some a deadline), one sweep is timed (reminders queued, timeouts applied through the game service,
daily digests looked for), then an idle sweep with nothing due. The due games are made by the game service;
the other games are bulk-inserted rows (a game, three seats, a turn clock due days later) that the sweep must
never touch. Each size is measured `--repeat` times on fresh databases (median shown). Prints each time and its
ratio to the 1,000-game case: it should stay near 1 (the sweep reads the
index on `turn_clocks.due_at`, not the games).

    .venv/bin/python -m bench.sweep_bench [--due 50] [--sizes 1000 10000 50000] \
        [--postgres postgresql+psycopg://postgres@127.0.0.1:5432/test] [--short]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import insert, text

from bench.pg_schemas import scratch_schema
from bench.short import parse_args
from pbem.clock import SettableClock
from pbem.config import Config
from pbem.models import Base, Game, Seat, TurnClock
from pbem.models.games import new_public_id
from pbem.runtime import build_runtime
from pbem.service.turns.values import PlayerSpec

START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
PLAYERS = [PlayerSpec(name, f"{name.lower()}@example.org") for name in ("Ann", "Bo", "Cy")]
CHUNK = 5_000


def fill(runtime: object, count: int, now: datetime) -> None:
    """`count` running games whose turn clocks fall due between 2 and 30 days from `now`."""
    db = runtime.db  # type: ignore[attr-defined]
    with db.engine.begin() as connection:
        first = connection.execute(text("SELECT COALESCE(MAX(id), 0) FROM games")).scalar_one() + 1
        for offset in range(0, count, CHUNK):
            ids = range(first + offset, first + min(offset + CHUNK, count))
            connection.execute(
                insert(Game),
                [
                    {
                        "id": pk,
                        "public_id": new_public_id(),
                        "title": f"Filler {pk}",
                        "variant": "base",
                        "options": {},
                        "policies": {},
                        "status": "active",
                        "paused": False,
                        "is_demo": False,
                        "host_email": "h@example.org",
                        "created_at": now,
                        "updated_at": now,
                        "current_seq": 5,
                        "to_act_seat": pk % 3,
                        "turn_started_at": now,
                    }
                    for pk in ids
                ],
            )
            connection.execute(
                insert(Seat),
                [
                    {
                        "game_id": pk,
                        "seat_index": index,
                        "display_name": name,
                        "email": f"p{pk}-{index}@example.org",
                        "token_version": 1,
                        "is_bot": False,
                        "notify_mode": "turn",
                        "timezone": "UTC",
                    }
                    for pk in ids
                    for index, name in enumerate(("Ann", "Bo", "Cy"))
                ],
            )
            connection.execute(
                insert(TurnClock),
                [
                    {
                        "game_id": pk,
                        "seq": 5,
                        "seat": pk % 3,
                        "started_at": now,
                        "version": 1,
                        "due_at": now + timedelta(days=2 + pk % 28),
                        "deadline_at": now + timedelta(days=3 + pk % 28),
                        "reminders_sent": 0,
                        "warned": False,
                        "timed_out": False,
                        "paused_seconds": 0,
                        "extended_seconds": 0,
                        "away_seconds": 0,
                    }
                    for pk in ids
                ],
            )
    # Settle the bulk insert before timing (statistics, the write-ahead log), so the sweep does not pay for it.
    if db.engine.dialect.name == "postgresql":
        with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(text("VACUUM ANALYZE"))
            connection.execute(text("CHECKPOINT"))
    else:
        with db.engine.connect() as connection:
            connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")


def measure(database_url: str, games: int, due: int, instance: Path) -> tuple[float, float, str]:
    """(seconds of the sweep with `due` games due, seconds of an idle sweep, what the sweep did)."""
    clock = SettableClock(START)
    config = Config(
        base_url="http://bench.invalid",
        secret_keys=("bench-secret-key-0123456789",),
        database_url=database_url,
        instance_path=str(instance),
    )
    runtime = build_runtime(config, clock=clock)
    Base.metadata.create_all(runtime.db.engine)
    try:
        deadlines = max(due // 5, 1)
        for number in range(due):
            # Most due games have waited a day (a reminder); a fifth have waited three (their deadline).
            deadline = number < deadlines
            clock.set(START - timedelta(days=2) if deadline else START)
            game_id = runtime.games.create_game(
                title=f"Due {number}",
                players=PLAYERS,
                host_email="h@example.org",
                policies={"reminder_count": 0, "warning_hours": 0} if deadline else None,
            )
            runtime.games.start_game(game_id)
        fill(runtime, games - due, START)
        clock.set(START + timedelta(hours=12))
        assert runtime.sweep.run().total == 0  # warm-up: a scheduler sweeps every minute, nothing due yet
        clock.set(START + timedelta(days=1, minutes=1))
        began = time.perf_counter()
        result = runtime.sweep.run()
        busy = time.perf_counter() - began
        began = time.perf_counter()
        idle_result = runtime.sweep.run()
        idle = time.perf_counter() - began
        assert idle_result.total == 0, idle_result
        done = f"{result.reminders} reminders, {result.warnings} warnings, {result.timeouts} timeouts"
        return busy, idle, done
    finally:
        runtime.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--due", type=int, default=50)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 50_000])
    parser.add_argument("--repeat", type=int, default=3, help="fresh databases per size; the median is shown")
    parser.add_argument("--postgres", default="", help="a PostgreSQL URL: a scratch schema is used and dropped")
    args = parse_args(parser, due=5, sizes=[100, 200], repeat=1)
    backends = ["sqlite"] + (["postgresql"] if args.postgres else [])
    for backend in backends:
        base: tuple[float, float] | None = None
        print(f"{backend}: {args.due} games due")
        for size in args.sizes:
            runs = []
            for _ in range(args.repeat):
                with tempfile.TemporaryDirectory() as folder:
                    if backend == "sqlite":
                        runs.append(measure(f"sqlite:///{folder}/bench.sqlite3", size, args.due, Path(folder)))
                    else:
                        with scratch_schema(args.postgres) as url:
                            runs.append(measure(url, size, args.due, Path(folder)))
            busy = statistics.median(run[0] for run in runs)
            idle = statistics.median(run[1] for run in runs)
            done = runs[0][2]
            base = base or (busy, idle)
            print(
                f"  {size:>6} games: sweep {busy * 1000:7.1f} ms ({busy / base[0]:.2f}x), "
                f"idle sweep {idle * 1000:6.1f} ms ({idle / base[1]:.2f}x); {done}"
            )


if __name__ == "__main__":
    main()
