"""The database and the runtime: a fresh database per test (SQLite always, PostgreSQL when
PBEM_TEST_DATABASE_URL is set), a clock that only moves when told, and the services wired to both."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, event, select, text
from sqlalchemy.engine import make_url

from pbem.clock import SettableClock
from pbem.config import AccessConfig, Config
from pbem.db import Database, with_driver
from pbem.models import Base
from pbem.runtime import Runtime, build_runtime

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
        # Most tests sign in whoever they like as a host; the default (admins only) has tests of its own.
        access=AccessConfig(game_creators="anyone"),
    )


@pytest.fixture
def runtime(config: Config, clock: SettableClock) -> Iterator[Runtime]:
    built = build_runtime(config, clock=clock)
    yield built
    built.close()


def dump(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, to show that something changed nothing."""
    with db.read() as session:
        return {
            table.name: sorted(
                (tuple(repr(value) for value in row) for row in session.execute(select(table))), key=repr
            )
            for table in Base.metadata.sorted_tables
        }


TRANSACTION_CONTROL = ("BEGIN", "SAVEPOINT", "RELEASE", "COMMIT", "ROLLBACK")


@contextmanager
def counted(runtime: Runtime) -> Iterator[list[str]]:
    """The statements sent to the database inside the block (transaction control left out)."""
    statements: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if not statement.lstrip().upper().startswith(TRANSACTION_CONTROL):
            statements.append(statement)

    event.listen(runtime.db.engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        event.remove(runtime.db.engine, "before_cursor_execute", record)


def at(day: int, hour: int, minute: int = 0) -> datetime:
    """A moment of the test week: day 0 is Monday 5 January 2026 (START is 09:00 that day), UTC."""
    return datetime(2026, 1, 5 + day, hour, minute, tzinfo=timezone.utc)
