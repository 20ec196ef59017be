"""Shared fixtures: a fresh database per test (SQLite always, PostgreSQL when PBEM_TEST_DATABASE_URL is set),
a clock that only moves when told, and the application wired to both."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url

from pbem.clock import SettableClock
from pbem.config import Config
from pbem.db import Database, make_engine
from pbem.models import Base

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
    engine = create_engine(make_engine(make_url(POSTGRES_URL)).url, isolation_level="AUTOCOMMIT")
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
