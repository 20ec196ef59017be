"""Bytes on disk per turn: what one snapshot and one finished game cost, on PostgreSQL and SQLite.

For each configuration (a number of players and a variant), plays `--games` complete games (3 rounds) through
`GameService.submit_move` with the engine's random bot, each move with a submission id as the turn page makes
one, in a database of its own, then measures what the games stored:

  SQLite      the stored bytes of each snapshot (state, move and events columns); and the pages of the
              snapshots table with its indexes (dbstat), per snapshot
  PostgreSQL  pg_column_size of each snapshot's state, move and events, and pg_total_relation_size of the
              snapshots table (rows, indexes, TOAST, free-space and visibility maps) per snapshot

and the whole database per finished game. A table of a few games is mostly the pages every table and index
has however small (PostgreSQL's maps, index metapages): with `--scale N` the played games are copied under new
game ids, their snapshots interleaved as concurrent games write them, until the table holds N snapshots, and
the table is measured again, as a server with many games holds it.

    .venv/bin/python -m bench.storage_bench [--players 3 6 10] [--variant base saboteur2] [--all] [--games 2]
        [--scale 20000] [--postgres postgresql+psycopg://postgres@127.0.0.1:5432/test] [--no-postgres] [--short]

`--all` runs the six configurations (3, 6 and 10 players of both variants). The goal is at most 400 B per turn.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, text

import engine
from bench.pg_schemas import scratch_schema
from bench.short import parse_args
from pbem import snapshot_codec
from pbem.clock import SystemClock
from pbem.config import Config
from pbem.models import Base
from pbem.runtime import build_runtime
from pbem.service.turns.values import PlayerSpec
from pbem.web.turn_page import new_submission_id

DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")
GOAL_BYTES_PER_TURN = 400
ALL = [(players, variant) for players in (3, 6, 10) for variant in ("base", "saboteur2")]


@dataclass
class Figures:
    label: str
    snapshots: int
    games: int
    row_mean: float  # state + move + events as stored
    state_mean: float
    state_max: int
    table_per_turn: float  # PostgreSQL: the whole relation; SQLite: dbstat's pages, or the stored bytes
    database_per_game: float
    scaled_rows: int = 0
    scaled_per_turn: float = 0.0

    @property
    def per_turn(self) -> float:
        """The goal's figure: SQLite's stored bytes, PostgreSQL's table (at scale when measured)."""
        if self.label == "SQLite":
            return self.row_mean
        return self.scaled_per_turn or self.table_per_turn


def play_games(runtime: Any, count: int, players: int, variant: str) -> None:
    seats = [PlayerSpec(name, f"{name.lower()}@example.org") for name in NAMES[:players]]
    for number in range(count):
        rng = random.Random(number)
        game_id = runtime.games.create_game(title=f"Storage {number}", players=seats, host_email="h@example.org",
                                            variant=variant)
        runtime.games.start_game(game_id)
        while True:
            state, seq = runtime.games.engine_state(game_id)
            seat = engine.to_act(state)
            if seat is None:
                break
            runtime.games.submit_move(game_id, seat, engine.bots.choose(state, seat, rng), seq, new_submission_id())


def column_sizes(connection: Connection, postgres: bool) -> list[tuple[int, int, int]]:
    if postgres:
        query = "SELECT pg_column_size(state), coalesce(pg_column_size(move), 0), pg_column_size(events) FROM snapshots"
    else:
        query = "SELECT length(state), coalesce(length(move), 0), length(events) FROM snapshots"
    return [(int(a), int(b), int(c)) for a, b, c in connection.execute(text(query)).all()]


def table_bytes(connection: Connection, postgres: bool) -> tuple[int, dict[str, int]]:
    """The snapshots table's bytes on disk, and how they divide."""
    if postgres:
        parts = {
            "rows": "pg_relation_size('snapshots')",
            "free-space and visibility maps":
                "pg_relation_size('snapshots', 'fsm') + pg_relation_size('snapshots', 'vm')",
            "indexes": "pg_indexes_size('snapshots')",
            "TOAST": "pg_total_relation_size('snapshots') - pg_relation_size('snapshots')"
                     " - pg_indexes_size('snapshots') - pg_relation_size('snapshots', 'fsm')"
                     " - pg_relation_size('snapshots', 'vm')",
        }
        sizes = {name: int(connection.execute(text(f"SELECT {sql}")).scalar_one()) for name, sql in parts.items()}
        return int(connection.execute(text("SELECT pg_total_relation_size('snapshots')")).scalar_one()), sizes
    names = connection.execute(text("SELECT name FROM sqlite_master WHERE tbl_name = 'snapshots'")).scalars().all()
    sizes = {}
    for name in names:
        kind = "rows" if name == "snapshots" else "indexes"
        sizes[kind] = sizes.get(kind, 0) + int(connection.execute(
            text("SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name = :name"), {"name": name}).scalar_one())
    return sum(sizes.values()), sizes


def database_bytes(connection: Connection, postgres: bool) -> int:
    if postgres:
        names = connection.execute(text(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")).scalars().all()
        return sum(int(connection.execute(text(f"SELECT pg_total_relation_size('\"{name}\"')")).scalar_one())
                   for name in names)
    page = connection.execute(text("PRAGMA page_size")).scalar_one()
    pages = connection.execute(text("PRAGMA page_count")).scalar_one()
    free = connection.execute(text("PRAGMA freelist_count")).scalar_one()
    return int((pages - free) * page)


def codec_times(connection: Connection) -> dict[str, float]:
    """Median microseconds to encode and to decode one snapshot's three columns (pbem/snapshot_codec/), and
    for comparison the JSON text and deflate without dictionary that a state cost before the codec."""
    payloads = connection.execute(text("SELECT state, move, events FROM snapshots")).all()
    values = [(snapshot_codec.decode("state", state), None if move is None else snapshot_codec.decode("move", move),
               snapshot_codec.decode("events", events)) for state, move, events in payloads]

    def median(work: Any, items: Any) -> float:
        times = []
        for item in items:
            start = time.perf_counter()
            work(item)
            times.append(time.perf_counter() - start)
        return statistics.median(times) * 1e6

    def encode(turn: Any) -> None:
        state, move, events = turn
        snapshot_codec.encode("state", state)
        if move is not None:
            snapshot_codec.encode("move", move)
        snapshot_codec.encode("events", events)

    def decode(row: Any) -> None:
        state, move, events = row
        snapshot_codec.decode("state", state)
        if move is not None:
            snapshot_codec.decode("move", move)
        snapshot_codec.decode("events", events)

    plain = [zlib.compress(json.dumps(state, separators=(",", ":")).encode()) for state, _, _ in values]
    return {
        "encode": median(encode, values),
        "decode": median(decode, payloads),
        "state from_dict": median(lambda turn: engine.Game.from_dict(turn[0]), values),
        "json+deflate state encode": median(
            lambda turn: zlib.compress(json.dumps(turn[0], separators=(",", ":")).encode()), values),
        "json+deflate state decode": median(lambda packed: json.loads(zlib.decompress(packed)), plain),
    }


def compact(runtime: Any) -> None:
    if runtime.db.engine.dialect.name == "postgresql":
        with runtime.db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.exec_driver_sql("VACUUM ANALYZE")


def copy_games(runtime: Any, rows: int) -> int:
    """Copy the played games (game rows and snapshots) under new ids until the snapshots table holds `rows`;
    each copy's snapshots are written interleaved with the others', by sequence number, as concurrent games
    write them. The number of snapshots in the table after."""
    games = Base.metadata.tables["games"]
    columns = [column.name for column in games.columns if column.name not in ("id", "public_id")]
    snapshot_columns = [column.name for column in Base.metadata.tables["snapshots"].columns
                        if column.name not in ("id", "game_id")]
    with runtime.db.engine.begin() as connection:
        have = int(connection.execute(text("SELECT count(*) FROM snapshots")).scalar_one())
        copies = max(0, -(-rows // max(have, 1)) - 1)
        if copies == 0:
            return have
        original = int(connection.execute(text("SELECT max(id) FROM games")).scalar_one())
        connection.execute(text("CREATE TEMPORARY TABLE copy_map (old_id INTEGER, new_id INTEGER)"))
        for copy in range(1, copies + 1):
            connection.execute(text(
                f"INSERT INTO games (public_id, {', '.join(columns)}) "
                f"SELECT public_id || '-{copy}', {', '.join(columns)} FROM games WHERE id <= :original"
            ), {"original": original})
            connection.execute(text(
                "INSERT INTO copy_map (old_id, new_id) SELECT old.id, new.id FROM games AS old "
                f"JOIN games AS new ON new.public_id = old.public_id || '-{copy}' WHERE old.id <= :original"
            ), {"original": original})
        names = ", ".join(snapshot_columns)
        chosen = ", ".join(f"s.{name}" for name in snapshot_columns)
        connection.execute(text(
            f"INSERT INTO snapshots (game_id, {names}) SELECT m.new_id, {chosen} FROM snapshots AS s "
            "JOIN copy_map AS m ON m.old_id = s.game_id ORDER BY s.seq, m.new_id"))
        return int(connection.execute(text("SELECT count(*) FROM snapshots")).scalar_one())


def run(database_url: str, label: str, games: int, players: int, variant: str, scale: int, instance: Path
        ) -> Figures:
    config = Config(base_url="http://bench.invalid", secret_keys=("bench-secret-key-0123456789",),
                    database_url=database_url, instance_path=str(instance))
    runtime = build_runtime(config, clock=SystemClock())
    Base.metadata.create_all(runtime.db.engine)
    postgres = runtime.db.engine.dialect.name == "postgresql"
    try:
        play_games(runtime, games, players, variant)
        compact(runtime)
        with runtime.db.engine.connect() as connection:
            rows = column_sizes(connection, postgres)
            table, parts = table_bytes(connection, postgres)
            everything = database_bytes(connection, postgres)
        states = [row[0] for row in rows]
        figures = Figures(label, len(rows), games, statistics.mean(sum(row) for row in rows), statistics.mean(states),
                          max(states), table / len(rows), everything / games)
        print(f"{label}: {games} finished games of {players} ({variant}), {len(rows)} snapshots "
              f"({len(rows) / games:.0f} per game)")
        print(f"  state per snapshot      mean {figures.state_mean:7.0f} B   largest {figures.state_max:7.0f} B")
        print(f"  state+move+events       mean {figures.row_mean:7.0f} B per snapshot (stored)")
        what = "snapshots table (rows, indexes, TOAST)" if postgres else "snapshots table and indexes (pages)"
        print(f"  {what:<38} {figures.table_per_turn:7.0f} B per turn, "
              f"{table / games / 1024:7.1f} KB per game")
        print("    of which " + ", ".join(f"{name} {size / len(rows):.0f} B" for name, size in parts.items()))
        print(f"  whole database (mail, seals, ...)      {figures.database_per_game / 1024:7.1f} KB per game")
        if not postgres:
            with runtime.db.engine.connect() as connection:
                times = codec_times(connection)
            print("  per snapshot, median: " + ", ".join(f"{name} {value:.0f} us" for name, value in times.items()))
        if scale:
            figures.scaled_rows = copy_games(runtime, scale)
            compact(runtime)
            with runtime.db.engine.connect() as connection:
                table, parts = table_bytes(connection, postgres)
            figures.scaled_per_turn = table / figures.scaled_rows
            print(f"  at scale: {figures.scaled_rows} snapshots (the games copied), table "
                  f"{figures.scaled_per_turn:7.0f} B per turn")
            print("    of which " + ", ".join(f"{name} {size / figures.scaled_rows:.0f} B"
                                              for name, size in parts.items()))
        verdict = "met" if figures.per_turn <= GOAL_BYTES_PER_TURN else "NOT met"
        print(f"  goal <= {GOAL_BYTES_PER_TURN} B per turn: {verdict} ({figures.per_turn:.0f} B)")
        return figures
    finally:
        runtime.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games played in each configuration")
    parser.add_argument("--players", type=int, nargs="+", default=[10], choices=range(3, 11), metavar="N")
    parser.add_argument("--variant", nargs="+", default=["base"], choices=sorted(engine.VARIANTS))
    parser.add_argument("--all", action="store_true", help="3, 6 and 10 players of both variants")
    parser.add_argument("--scale", type=int, default=20000, help="snapshots to copy the games up to (0: none)")
    parser.add_argument("--postgres", default=DEFAULT_POSTGRES, help="PostgreSQL URL; a scratch schema is used")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    args = parse_args(parser, games=1, scale=1000)
    configurations = ALL if args.all else [(p, v) for p in args.players for v in args.variant]
    summary = []
    with tempfile.TemporaryDirectory() as scratch:
        for number, (players, variant) in enumerate(configurations):
            path = Path(scratch) / f"storage-{number}.sqlite3"
            figures = [run(f"sqlite:///{path}", "SQLite", args.games, players, variant, args.scale, Path(scratch))]
            if not args.no_postgres:
                with scratch_schema(args.postgres) as url:
                    figures.append(run(url, "PostgreSQL", args.games, players, variant, args.scale, Path(scratch)))
            summary.append((players, variant, figures))
    print("\nbytes per turn (SQLite: stored; PostgreSQL: the table with indexes and TOAST, played / at scale)")
    for players, variant, figures in summary:
        cells = []
        for figure in figures:
            if figure.label == "SQLite":
                cells.append(f"SQLite {figure.row_mean:5.0f} B")
            else:
                cells.append(f"PostgreSQL {figure.table_per_turn:5.0f} B / {figure.scaled_per_turn:5.0f} B")
        print(f"  {players:2} players {variant:<9}  " + "   ".join(cells))


if __name__ == "__main__":
    main()
