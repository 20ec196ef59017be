"""Bytes on disk per turn: what one snapshot and one finished game cost, on PostgreSQL and SQLite.

Plays `--games` complete 10-player games (3 rounds) through `GameService.submit_move` with the engine's
random bot, then measures what they stored:

  PostgreSQL  pg_column_size of each snapshot's state, move and events (JSONB, after TOAST compression),
              and pg_total_relation_size of the snapshots table (rows, indexes, TOAST) and of every table
  SQLite      length of each snapshot's stored JSON text, and the file's pages in use (dbstat-free: the
              page count times the page size, minus the free list)

and prints bytes per snapshot (mean and largest) and per finished game. The goal is at most 2 KB per turn.

    .venv/bin/python -m bench.storage_bench [--games 2] [--postgres postgresql+psycopg://postgres@127.0.0.1:5432/test]
        [--no-postgres] [--short]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
from pathlib import Path
from typing import Any

import engine
from bench.pg_schemas import scratch_schema
from bench.short import parse_args
from pbem.clock import SystemClock
from pbem.config import Config
from pbem.models import Base
from pbem.runtime import build_runtime
from pbem.service.turns.games import PlayerSpec

DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
TEN = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")
GOAL_BYTES_PER_TURN = 2048


def play_games(runtime: Any, count: int) -> list[str]:
    players = [PlayerSpec(name, f"{name.lower()}@example.org") for name in TEN]
    played = []
    for number in range(count):
        rng = random.Random(number)
        game_id = runtime.games.create_game(title=f"Storage {number}", players=players, host_email="h@example.org")
        runtime.games.start_game(game_id)
        while True:
            state, seq = runtime.games.engine_state(game_id)
            seat = engine.to_act(state)
            if seat is None:
                break
            runtime.games.submit_move(game_id, seat, engine.bots.choose(state, seat, rng), seq, f"s-{seq}")
        played.append(game_id)
    return played


def measure(runtime: Any, label: str, games: int) -> dict[str, float]:
    from sqlalchemy import text

    postgres = runtime.db.engine.dialect.name == "postgresql"
    with runtime.db.engine.connect() as connection:
        if postgres:
            rows = connection.execute(text(
                "SELECT pg_column_size(state), coalesce(pg_column_size(move), 0), pg_column_size(events)"
                " FROM snapshots")).all()
            table = connection.execute(text("SELECT pg_total_relation_size('snapshots')")).scalar_one()
            names = connection.execute(text(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")).scalars().all()
            everything = sum(connection.execute(text(f"SELECT pg_total_relation_size('\"{name}\"')")).scalar_one()
                             for name in names)
        else:
            rows = connection.execute(text(
                "SELECT length(CAST(state AS BLOB)), coalesce(length(CAST(move AS BLOB)), 0),"
                " length(CAST(events AS BLOB)) FROM snapshots")).all()
            page = connection.execute(text("PRAGMA page_size")).scalar_one()
            pages = connection.execute(text("PRAGMA page_count")).scalar_one()
            free = connection.execute(text("PRAGMA freelist_count")).scalar_one()
            everything = (pages - free) * page
            table = sum(sum(row) for row in rows)  # no per-table size without dbstat: the stored JSON alone
    states = [row[0] for row in rows]
    per_row = [sum(row) for row in rows]
    figures = {
        "snapshots": len(rows),
        "state_mean": statistics.mean(states),
        "state_max": max(states),
        "row_json_mean": statistics.mean(per_row),
        "snapshots_table_per_turn": table / len(rows),
        "snapshots_table_per_game": table / games,
        "database_per_game": everything / games,
    }
    print(f"{label}: {games} finished games of ten, {len(rows)} snapshots ({len(rows) / games:.0f} per game)")
    print(f"  state per snapshot      mean {figures['state_mean']:7.0f} B   largest {figures['state_max']:7.0f} B")
    print(f"  state+move+events       mean {figures['row_json_mean']:7.0f} B per snapshot")
    what = "snapshots table (rows, indexes, TOAST)" if postgres else "snapshots' stored JSON"
    print(f"  {what:<38} {figures['snapshots_table_per_turn']:7.0f} B per turn, "
          f"{figures['snapshots_table_per_game'] / 1024:7.1f} KB per game")
    print(f"  whole database (mail, seals, ...)      {figures['database_per_game'] / 1024:7.1f} KB per game")
    verdict = "met" if figures["snapshots_table_per_turn"] <= GOAL_BYTES_PER_TURN else "NOT met"
    print(f"  goal <= {GOAL_BYTES_PER_TURN} B per turn: {verdict}")
    return figures


def run(database_url: str, label: str, games: int, instance: Path) -> dict[str, float]:
    config = Config(base_url="http://bench.invalid", secret_keys=("bench-secret-key-0123456789",),
                    database_url=database_url, instance_path=str(instance))
    runtime = build_runtime(config, clock=SystemClock())
    Base.metadata.create_all(runtime.db.engine)
    try:
        play_games(runtime, games)
        if runtime.db.engine.dialect.name == "postgresql":
            with runtime.db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
                connection.exec_driver_sql("VACUUM ANALYZE")
        return measure(runtime, label, games)
    finally:
        runtime.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--postgres", default=DEFAULT_POSTGRES, help="PostgreSQL URL; a scratch schema is used")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    args = parse_args(parser, games=1)
    with tempfile.TemporaryDirectory() as scratch:
        run(f"sqlite:///{Path(scratch) / 'storage.sqlite3'}", "SQLite", args.games, Path(scratch))
        if not args.no_postgres:
            with scratch_schema(args.postgres) as url:
                run(url, "PostgreSQL", args.games, Path(scratch))


if __name__ == "__main__":
    main()
