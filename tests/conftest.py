"""Shared fixtures: a fresh database per test (SQLite always, PostgreSQL when PBEM_TEST_DATABASE_URL is set),
a clock that only moves when told, and the application wired to both."""

from __future__ import annotations

import os
import random
import uuid
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, select, text
from sqlalchemy.engine import make_url

import engine
from pbem.clock import SettableClock
from pbem.config import Config
from pbem.db import Database, with_driver
from pbem.models import Base
from pbem.runtime import Runtime, build_runtime
from pbem.service.games import PlayerSpec

POSTGRES_URL = os.environ.get("PBEM_TEST_DATABASE_URL", "")
START = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)
TEST_SECRET = "test-secret-key-0123456789abcdef"
BASE_URL = "https://pbem.test"

BACKENDS = [
    "sqlite",
    pytest.param(
        "postgresql",
        marks=[pytest.mark.postgres, pytest.mark.skipif(not POSTGRES_URL, reason="PBEM_TEST_DATABASE_URL is not set")],
    ),
]


@pytest.fixture(scope="session")
def postgres_admin() -> Iterator[Engine]:
    engine = create_engine(with_driver(make_url(POSTGRES_URL)), isolation_level="AUTOCOMMIT")
    yield engine
    engine.dispose()


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database: a new SQLite file, or a new PostgreSQL schema that is dropped afterwards."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'pbem.sqlite3'}"
        return
    admin: Engine = request.getfixturevalue("postgres_admin")
    schema = f"test_{uuid.uuid4().hex[:16]}"
    with admin.connect() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(POSTGRES_URL).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))


@pytest.fixture
def database(database_url: str) -> Iterator[Database]:
    """The schema from the models (the migrations are proven equal to it in test_migrations.py)."""
    db = Database(database_url)
    Base.metadata.create_all(db.engine)
    yield db
    db.dispose()


@pytest.fixture
def clock() -> SettableClock:
    return SettableClock(START)


@pytest.fixture
def config(database: Database, tmp_path: Path) -> Config:
    return Config(
        mode="development",
        base_url=BASE_URL,
        secret_keys=(TEST_SECRET,),
        database_url=database.url.render_as_string(hide_password=False),
        instance_path=str(tmp_path / "instance"),
    )


@pytest.fixture
def runtime(config: Config, clock: SettableClock) -> Iterator[Runtime]:
    built = build_runtime(config, clock=clock)
    yield built
    built.close()


PEOPLE = (
    PlayerSpec("Ann", "ann@example.org"),
    PlayerSpec("Ben", "ben@example.org"),
    PlayerSpec("Cat", "cat@example.org"),
)


@pytest.fixture
def new_game(runtime: Runtime) -> Callable[..., str]:
    """Create (and by default start) a game; returns its public id."""

    def make(players: Sequence[PlayerSpec] = PEOPLE, *, start: bool = True, **options: Any) -> str:
        game_id = runtime.games.create_game(
            title="Test mine", players=players, host_email="host@example.org", **options
        )
        if start:
            runtime.games.start_game(game_id)
        return game_id

    return make


def random_move(runtime: Runtime, game_id: str, rng: random.Random) -> tuple[int, dict[str, Any], int]:
    """Whose turn it is, a legal move for them (the engine's random bot) and the current sequence number."""
    state, seq = runtime.games.engine_state(game_id)
    seat = engine.to_act(state)
    assert seat is not None, "the game is over"
    return seat, engine.bots.choose(state, seat, rng), seq


def play_moves(runtime: Runtime, game_id: str, count: int, rng: random.Random) -> None:
    for _ in range(count):
        seat, move, seq = random_move(runtime, game_id, rng)
        runtime.games.submit_move(game_id, seat, move, seq, f"test-{seq}")


def dump(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, to show that something changed nothing."""
    with db.read() as session:
        return {
            table.name: sorted(
                (tuple(repr(value) for value in row) for row in session.execute(select(table))), key=repr
            )
            for table in Base.metadata.sorted_tables
        }
