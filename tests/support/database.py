"""The database and the runtime: a database per test (SQLite always, PostgreSQL when PBEM_TEST_DATABASE_URL
is set) whose tables are built once per run, a clock that only moves when told, and the services wired to both."""

from __future__ import annotations

import os
import shutil
import uuid
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, event, select, text
from sqlalchemy.engine import make_url

from pbem.chance import SeededChance
from pbem.clock import SettableClock
from pbem.config import AccessConfig, Config
from pbem.db import Database, with_driver
from pbem.models import Base
from pbem.runtime import Runtime, build_runtime

POSTGRES_URL = os.environ.get("PBEM_TEST_DATABASE_URL", "")
START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
TEST_SECRET = "test-secret-key-0123456789abcdef"
BASE_URL = "https://pbem.test"
SEED_VARIABLE = "PBEM_TEST_SEED"  # set it to deal every test another game
NO_FLUSH_AT_COMMIT = "-csynchronous_commit=off"  # a test's data never has to outlive a crash of the server

BACKENDS = [
    "sqlite",
    pytest.param(
        "postgresql",
        marks=[pytest.mark.postgres, pytest.mark.skipif(not POSTGRES_URL, reason="PBEM_TEST_DATABASE_URL is not set")],
    ),
]


@pytest.fixture(scope="session")
def postgres_admin() -> Iterator[Engine]:
    engine = create_engine(with_driver(make_url(POSTGRES_URL)), isolation_level="AUTOCOMMIT",
                           connect_args={"options": NO_FLUSH_AT_COMMIT})
    yield engine
    engine.dispose()


def postgres_url(schema: str) -> str:
    """PBEM_TEST_DATABASE_URL with every connection working in `schema`, and not waiting at each commit for the
    server to write its log to disk."""
    options = f"-csearch_path={schema} {NO_FLUSH_AT_COMMIT}"
    url = make_url(POSTGRES_URL).update_query_dict({"options": options})
    return url.render_as_string(hide_password=False)


class PostgresSchemas:
    """PostgreSQL schemas holding the models' tables, each lent to one test at a time and emptied after it.

    Building the tables takes a few hundred milliseconds; deleting the few rows a test leaves takes a few. A
    schema comes back only if it still holds exactly the models' tables and empties within the lock timeout
    (a test that leaves a transaction open, or adds a table, costs a new schema instead)."""

    def __init__(self, admin: Engine) -> None:
        self.admin = admin
        self.free: list[str] = []
        self.made: set[str] = set()
        tables = Base.metadata.sorted_tables
        self.names = sorted(table.name for table in tables)
        self.empty_them = "; ".join(f'DELETE FROM "{table.name}"' for table in reversed(tables))

    def lend(self) -> str:
        if self.free:
            return self.free.pop()
        schema = f"test_{uuid.uuid4().hex[:16]}"
        with self.admin.connect() as connection:
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
        self.made.add(schema)
        db = Database(postgres_url(schema))
        Base.metadata.create_all(db.engine)
        db.dispose()
        return schema

    def give_back(self, schema: str) -> None:
        try:
            with self.admin.connect() as connection, connection.begin():
                tables = connection.scalars(
                    text("SELECT table_name FROM information_schema.tables WHERE table_schema = :schema"),
                    {"schema": schema},
                ).all()
                if sorted(tables) != self.names:
                    raise LookupError(f"schema {schema} holds other tables: {sorted(tables)}")
                connection.exec_driver_sql(
                    f"SET LOCAL lock_timeout = '2s'; SET LOCAL search_path = \"{schema}\"; {self.empty_them}"
                )
                connection.execute(  # ids start at 1 again, as in a new schema
                    text("SELECT setval(oid, 1, false) FROM pg_class WHERE relkind = 'S' "
                         "AND relnamespace = CAST(:schema AS regnamespace)"),
                    {"schema": schema},
                )
        except Exception:
            self.drop(schema)
            return
        self.free.append(schema)

    def drop(self, schema: str) -> None:
        self.made.discard(schema)
        with self.admin.connect() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))

    def drop_all(self) -> None:
        for schema in list(self.made):
            self.drop(schema)


@pytest.fixture(scope="session")
def postgres_schemas(postgres_admin: Engine) -> Iterator[PostgresSchemas]:
    schemas = PostgresSchemas(postgres_admin)
    yield schemas
    schemas.drop_all()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file holding the models' tables, built once and copied for each test that wants them."""
    path = tmp_path_factory.mktemp("schema") / "models.sqlite3"
    db = Database(f"sqlite:///{path}")
    Base.metadata.create_all(db.engine)
    db.dispose()
    return path


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database of this test's own: a new SQLite file, or a PostgreSQL schema no other test sees meanwhile.

    It is empty, unless the test uses the `database` fixture: then it holds the models' tables, empty, copied
    from a file built once (SQLite) or lent from schemas built once per run and emptied after each test."""
    with_tables = "database" in request.fixturenames
    if request.param == "sqlite":
        path = tmp_path / "pbem.sqlite3"
        if with_tables:
            shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        yield f"sqlite:///{path}"
        return
    if with_tables:
        schemas: PostgresSchemas = request.getfixturevalue("postgres_schemas")
        schema = schemas.lend()
        try:
            yield postgres_url(schema)
        finally:
            schemas.give_back(schema)
        return
    admin: Engine = request.getfixturevalue("postgres_admin")
    schema = f"test_{uuid.uuid4().hex[:16]}"
    with admin.connect() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield postgres_url(schema)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))


@pytest.fixture
def database(database_url: str) -> Iterator[Database]:
    """The schema from the models (the migrations are proven equal to it in test_migrations.py), empty."""
    db = Database(database_url)
    yield db
    db.dispose()


@pytest.fixture
def clock() -> SettableClock:
    return SettableClock(START)


@pytest.fixture
def chance(request: pytest.FixtureRequest) -> SeededChance:
    """Each test deals from its own seed, the same on every run; `PBEM_TEST_SEED` gives every test another one."""
    return SeededChance(seed_of_test(request.node.nodeid))


def seed_of_test(nodeid: str) -> int:
    return zlib.crc32(f"{os.environ.get(SEED_VARIABLE, '')}:{nodeid}".encode())


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
def runtime(config: Config, clock: SettableClock, chance: SeededChance) -> Iterator[Runtime]:
    built = build_runtime(config, clock=clock, chance=chance)
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
    return datetime(2026, 1, 5 + day, hour, minute, tzinfo=UTC)


def pytest_report_header() -> str:
    seed = os.environ.get(SEED_VARIABLE)
    if seed:
        return f"{SEED_VARIABLE}={seed}: every test deals another game"
    return f"{SEED_VARIABLE} unset: the usual deals"
