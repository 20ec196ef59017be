"""What a replay costs: one step of the replay page, the offline replay file and the JSON archive, for the
longest games there are, against the turn page of the same game measured in the same run.

A 12-player Saboteur 2 game played to its end by random computer players (one-card passes, so the piles last)
holds about 310 snapshots, the most a three-round game can; to see how cost grows with history, the same
game is also stored twice over, back to back, as one synthetic history of about 620 snapshots. For each:

- the turn page, GET /table/<game> (the baseline);
- a replay step, GET /table/<game>/replay?step=N, for 40 steps spread over the game: through a player's eyes
  while the game runs, and with everything open once it is over;
- the offline replay file (every step in one HTML file): time to build, size, size gzipped;
- the JSON archive: time to build, size.

    .venv/bin/python -m bench.replay_bench [--postgres postgresql+psycopg://postgres@127.0.0.1/test] [--players 12]
        [--moves N] [--steps 40] [--short]
"""

from __future__ import annotations

import argparse
import gzip
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from flask.testing import FlaskClient
from sqlalchemy import select

import engine
from bench.pg_schemas import scratch_schema
from bench.short import parse_args
from pbem import create_app
from pbem.clock import SettableClock
from pbem.config import Config
from pbem.models import Base, Game, Seat, Snapshot
from pbem.runtime import Runtime
from pbem.service.turns.values import PlayerSpec
from pbem.web.app_context import EXTENSION_KEY

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kai", "Lu"]


def long_game(runtime: Runtime, seats: int, length: int) -> str:
    """A Saboteur 2 game of `seats` players through the game service, played with one-card passes to its end, or
    to snapshot `length` if that is more than 0 (the benchmark then marks it over all the same)."""
    # Computer players all: the game is played here, move by move, and nobody needs an email.
    players = [PlayerSpec(name, is_bot=True) for name in NAMES[:seats]]
    game_id = runtime.games.create_game(title="Long mine", players=players, host_email="h@example.org",
                                        variant="saboteur2")
    runtime.games.start_game(game_id)
    rng = random.Random(7)
    while True:
        state, seq = runtime.games.engine_state(game_id)
        seat = engine.to_act(state)
        if seat is None or seq >= length > 0:
            return game_id
        moves = engine.legal_moves(state, seat)
        short = [m for m in moves if m["type"] != "pass" or len(m["cards"]) == 1]
        runtime.games.submit_move(game_id, seat, rng.choice(short), seq, f"b-{seq}")


def doubled(runtime: Runtime, game_id: str) -> str:
    """A copy of the game whose history is the original's, twice over (a synthetic ~620-snapshot record)."""
    with runtime.db.write() as session:
        real = session.scalars(select(Game).where(Game.public_id == game_id)).one()
        rows = session.scalars(select(Snapshot).where(Snapshot.game_id == real.id).order_by(Snapshot.seq)).all()
        copy = Game(**{column: getattr(real, column) for column in (
            "title", "variant", "options", "policies", "status", "paused", "is_demo", "host_email", "created_at",
            "updated_at", "to_act_seat", "turn_started_at")})
        copy.seats = [Seat(seat_index=s.seat_index, display_name=s.display_name, email=s.email, is_bot=s.is_bot)
                      for s in real.seats]
        session.add(copy)
        session.flush()
        length = len(rows)
        for lap in range(2):
            for row in rows:
                session.add(Snapshot(game_id=copy.id, seq=lap * length + row.seq, state=row.state, move=row.move,
                                     events=row.events, actor_seat=row.actor_seat, created_at=row.created_at))
        copy.current_seq = 2 * length - 1
        return copy.public_id


def timed(action: Callable[[], object], repeat: int = 1) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = action()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def get(client: FlaskClient, path: str) -> bytes:
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return response.data


def measure(runtime: Runtime, client: FlaskClient, game_id: str, label: str, measured_steps: int) -> None:
    with runtime.db.write() as session:
        game = session.scalars(select(Game).where(Game.public_id == game_id)).one()
        last, status = game.current_seq, game.status
        token = runtime.games.invites(game_id)[0].link.rsplit("/", 1)[1]
    client.get(f"/play/{token}")
    baseline, _ = timed(lambda: get(client, f"/table/{game_id}"), repeat=15)
    print(f"\n{label}: {last + 1} snapshots")
    print(f"  turn page (baseline)                 {baseline * 1e3:7.1f} ms")
    for state in ("active", "finished"):
        with runtime.db.write() as session:
            session.scalars(select(Game).where(Game.public_id == game_id)).one().status = state
        steps = [round(k * last / (measured_steps - 1)) for k in range(measured_steps)]
        times = [timed(lambda s=s: get(client, f"/table/{game_id}/replay?step={s}"))[0] for s in steps]
        eyes = "a player's eyes, game running" if state == "active" else "everything open, game over"
        print(f"  replay step, {eyes:<31} median {statistics.median(times) * 1e3:7.1f} ms "
              f"(max {max(times) * 1e3:6.1f})  {statistics.median(times) / baseline:4.2f}x the turn page")
    seconds, body = timed(lambda: get(client, f"/table/{game_id}/replay.html"))
    assert isinstance(body, bytes)
    print(f"  offline replay file                  {seconds * 1e3:7.0f} ms  {seconds / baseline:5.0f}x the turn page  "
          f"{len(body) / 1e6:5.2f} MB ({len(gzip.compress(body)) / 1e6:4.2f} MB gzipped), "
          f"{len(body) / (last + 1) / 1e3:4.1f} kB per step")
    seconds, body = timed(lambda: get(client, f"/table/{game_id}/archive.json"))
    assert isinstance(body, bytes)
    print(f"  JSON archive                         {seconds * 1e3:7.0f} ms  {seconds / baseline:5.0f}x the turn page  "
          f"{len(body) / 1e6:5.2f} MB ({len(gzip.compress(body)) / 1e6:4.2f} MB gzipped)")
    with runtime.db.write() as session:
        session.scalars(select(Game).where(Game.public_id == game_id)).one().status = status


def run(database_url: str, instance: Path, seats: int, length: int, measured_steps: int) -> None:
    config = Config(mode="development", base_url="http://bench.invalid", secret_keys=("bench-secret-key-0123456789",),
                    database_url=database_url, instance_path=str(instance))
    app = create_app(config, clock=SettableClock(datetime(2026, 1, 5, 9, tzinfo=UTC)))
    runtime: Runtime = app.extensions[EXTENSION_KEY]
    Base.metadata.create_all(runtime.db.engine)
    try:
        game_id = long_game(runtime, seats, length)
        measure(runtime, app.test_client(), game_id, f"A {seats}-player Saboteur 2 game", measured_steps)
        measure(runtime, app.test_client(), doubled(runtime, game_id), "The same history twice over", measured_steps)
    finally:
        runtime.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", default="", help="PostgreSQL URL; a scratch schema is created and dropped")
    parser.add_argument("--players", type=int, default=12, choices=range(2, len(NAMES) + 1), metavar="2..12",
                        help="seats of the game played (default 12)")
    parser.add_argument("--moves", type=int, default=0,
                        help="stop after about this many moves (default 0: play the game to its end)")
    parser.add_argument("--steps", type=int, default=40, help="replay steps measured per game (default 40)")
    args = parse_args(parser, players=3, moves=30, steps=3)
    if args.steps < 2:
        parser.error("--steps must be at least 2 (the first and the last)")
    with tempfile.TemporaryDirectory() as scratch:
        print("SQLite file")
        run(f"sqlite:///{Path(scratch) / 'bench.sqlite3'}", Path(scratch), args.players, args.moves, args.steps)
        if args.postgres:
            with scratch_schema(args.postgres) as url:
                print("\nPostgreSQL")
                run(url, Path(scratch), args.players, args.moves, args.steps)


if __name__ == "__main__":
    main()
