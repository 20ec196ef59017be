"""Sessions and transactions: writes take SQLite's write lock up front; failures roll back."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from pbem.db import Database, make_engine
from pbem.models import HostAction
from tests.support.database import POSTGRES_URL


@pytest.fixture
def sqlite_pair(tmp_path) -> Iterator[tuple[Database, sqlite3.Connection]]:
    """Our database on a SQLite file, and a second plain connection that refuses to wait for locks."""
    path = tmp_path / "lock.sqlite3"
    db = Database(f"sqlite:///{path}")
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    yield db, other
    other.close()
    db.dispose()


def test_a_write_transaction_on_sqlite_holds_the_write_lock_from_its_first_statement(sqlite_pair) -> None:
    db, other = sqlite_pair

    with db.write() as session:
        session.execute(text("SELECT 1"))  # only a read, yet the write lock is already taken
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            other.execute("BEGIN IMMEDIATE")

    other.execute("BEGIN IMMEDIATE")
    other.execute("ROLLBACK")


def test_a_read_on_sqlite_does_not_take_the_write_lock(sqlite_pair) -> None:
    db, other = sqlite_pair

    with db.read() as session:
        session.execute(text("SELECT 1"))
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")


def test_a_failing_write_changes_nothing(database: Database, clock) -> None:
    with pytest.raises(RuntimeError), database.write() as session:
        session.add(HostAction(game_id=1, actor_email="a@b", action="x", details={}, created_at=clock.now()))
        raise RuntimeError("the request failed half-way")

    with database.read() as session:
        assert session.scalar(select(func.count()).select_from(HostAction)) == 0


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_an_unreachable_database_is_reported_not_raised(tmp_path, backend: str) -> None:
    url = (
        f"sqlite:///{tmp_path / 'no' / 'such' / 'folder' / 'db.sqlite3'}"
        if backend == "sqlite"
        else "postgresql+psycopg://nobody@127.0.0.1:1/nothing?connect_timeout=2"
    )
    db = Database(url)

    assert db.is_reachable() is False
    db.dispose()


def test_a_reachable_database_says_so(database: Database) -> None:
    assert database.is_reachable() is True


def test_postgresql_urls_use_psycopg_3() -> None:
    engine = make_engine(make_url("postgresql://pbem@db.internal/pbem"))

    assert engine.url.drivername == "postgresql+psycopg"
    engine.dispose()


@pytest.mark.postgres
@pytest.mark.skipif(not POSTGRES_URL, reason="PBEM_TEST_DATABASE_URL is not set")
def test_a_pooled_connection_the_server_ended_is_replaced_at_checkout() -> None:
    db = Database(POSTGRES_URL)
    with db.read() as session:
        first = session.scalar(text("SELECT pg_backend_pid()"))
    operator = create_engine(POSTGRES_URL, poolclass=NullPool)
    with operator.connect() as other:  # the server ends the pooled session (as a restart or an operator would)
        assert other.scalar(text("SELECT pg_terminate_backend(:pid, 5000)"), {"pid": first}) is True

    with db.read() as session:
        second = session.scalar(text("SELECT pg_backend_pid()"))

    assert second != first
    db.dispose()
    operator.dispose()


@pytest.mark.postgres
@pytest.mark.skipif(not POSTGRES_URL, reason="PBEM_TEST_DATABASE_URL is not set")
def test_a_pooled_connection_that_is_well_is_handed_out_as_it_is() -> None:
    db = Database(POSTGRES_URL)
    with db.read() as session:
        first = session.scalar(text("SELECT pg_backend_pid()"))

    with db.read() as session:
        second = session.scalar(text("SELECT pg_backend_pid()"))
    with db.write() as session:
        third = session.scalar(text("SELECT pg_backend_pid()"))

    assert first == second == third
    db.dispose()
