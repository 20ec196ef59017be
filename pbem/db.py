"""The one place that makes database engines and sessions, for web requests, the CLI and the scheduler.

Writes go through `Database.write()`: one transaction that commits on success and rolls back on any
error. On SQLite that transaction starts with `BEGIN IMMEDIATE`, taking the write lock before the first
read, so two writers never both read the same latest snapshot and race to build on it (pysqlite's own
transaction handling is switched off, per SQLAlchemy's documented recipe, so that SQLAlchemy emits
BEGIN itself). PostgreSQL is reached through psycopg 3.

Inside `Database.shared_reads()` (the web app opens one per request) every `read()` uses one session, so a
page that asks several services pays for one connection checkout and one transaction, and a lookup cached in
`session.info` (the game row, the latest state) is made once. A `write()` closes that session first, so what
is read after a write sees it.

`Database.backup(path)` copies a live database without stopping anything: SQLite through its online backup API
(one consistent copy while writers go on), PostgreSQL through `pg_dump --format=custom` (restored with
`pg_restore`; README, Backups).

Both kinds of session carry the process's `Memo` (pbem/memo.py) of what was derived from committed snapshots:
read sessions add to it as they read, a write transaction only what it set aside, once it has committed.
"""

from __future__ import annotations

import os
import select
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import psycopg
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import DisconnectionError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from pbem.memo import MEMO, MEMO_FILLS, Memo, store_committed

SQLITE_BUSY_TIMEOUT_SECONDS = 30
# PostgreSQL unreachable (a host down, a partition): a request fails with 503 after this long instead of hanging.
POSTGRES_CONNECT_TIMEOUT_SECONDS = 10
# Values bound in one IN list, far below what SQLite (32,766) and PostgreSQL (65,535) take in one statement.
IN_LIST_LIMIT = 500
T = TypeVar("T")
_WRITE_OPTION = "pbem_write"


@dataclass
class _SharedReads:
    """The session that `read()` hands out inside `shared_reads()`, opened on first use."""

    session: Session | None = None
    depth: int = 0  # read() blocks currently open on it


class Database:
    def __init__(self, url: str | URL, *, echo: bool = False) -> None:
        self.url = make_url(url)
        self.engine = make_engine(self.url, echo=echo)
        self.memo = Memo()
        self._read_sessions = sessionmaker(
            _read_bind(self.engine), expire_on_commit=False, info={MEMO: self.memo, MEMO_FILLS: True}
        )
        self._write_sessions = sessionmaker(
            self.engine.execution_options(**{_WRITE_OPTION: True}), expire_on_commit=False, info={MEMO: self.memo}
        )
        self._shared: ContextVar[_SharedReads | None] = ContextVar("pbem_shared_reads", default=None)

    @property
    def is_sqlite(self) -> bool:
        return self.url.get_backend_name() == "sqlite"

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A write transaction: committed when the block ends, rolled back if it raises."""
        self._close_shared_reads()
        with self._write_sessions() as session:
            with session.begin():
                yield session
            store_committed(session)
        # A read made while writing (a page's first word looks up its reader's language) began before the commit;
        # on SQLite its snapshot would hide the write from the request's reads after it.
        self._close_shared_reads()

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A unit of work that only reads: closing it rolls back, and loaded objects stay readable.

        Inside `shared_reads()` this is the scope's one session, closed when the scope ends."""
        shared = self._shared.get()
        if shared is None:
            with self._read_sessions() as session:
                yield session
            return
        if shared.session is None:
            shared.session = self._read_sessions()
        shared.depth += 1
        try:
            yield shared.session
        finally:
            shared.depth -= 1

    @contextmanager
    def shared_reads(self) -> Iterator[None]:
        """Every `read()` inside uses one session (one connection, one transaction): one web request."""
        shared = _SharedReads()
        token = self._shared.set(shared)
        try:
            yield
        finally:
            self._shared.reset(token)
            if shared.session is not None:
                shared.session.close()

    def _close_shared_reads(self) -> None:
        """Around a write: end the shared read transaction, so later reads start afresh and see the write."""
        shared = self._shared.get()
        if shared is not None and shared.session is not None and shared.depth == 0:
            shared.session.close()
            shared.session = None

    def is_reachable(self) -> bool:
        try:
            with self.engine.connect() as connection:
                connection.execute(text("SELECT 1"))
        except SQLAlchemyError:
            return False
        return True

    def dispose(self) -> None:
        self.engine.dispose()

    def backup(self, target: Path) -> None:
        """A consistent copy of the whole database in `target` (a new file, readable by its owner only), taken
        while the server runs."""
        if self.is_sqlite:
            _sqlite_backup(self.url, target)
        else:
            _pg_dump(self.url, target)


class BackupError(Exception):
    """A backup could not be made; the message says why."""


def _create_private(target: Path) -> None:
    """Create `target` empty and readable by its owner only, before a byte of the database is written into it; a
    file already there is never touched."""
    try:
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        raise BackupError(f"{target} exists already; choose a new file name") from None
    except OSError as exc:
        raise BackupError(f"cannot create {target}: {exc.strerror}") from None


def _sqlite_backup(url: URL, target: Path) -> None:
    if url.database in (None, "", ":memory:"):
        raise BackupError("an in-memory database has nothing to back up")
    if not Path(url.database).is_file():
        raise BackupError(f"there is no database file at {url.database}")
    _create_private(target)
    source = sqlite3.connect(url.database, timeout=SQLITE_BUSY_TIMEOUT_SECONDS)
    try:
        # SQLite takes the empty file as a new database, and gives its journal the file's permissions.
        with closing(source), closing(sqlite3.connect(target)) as copy:
            source.backup(copy)
    except sqlite3.Error as exc:
        target.unlink(missing_ok=True)
        raise BackupError(f"SQLite backup failed: {exc}") from None


def _pg_dump(url: URL, target: Path) -> None:
    """pg_dump of the database the URL names (its password through the environment, not the command line)."""
    program = shutil.which("pg_dump")
    if program is None:
        raise BackupError("pg_dump is not installed (Debian: postgresql-client)")
    libpq = url.set(drivername="postgresql", password=None).render_as_string(hide_password=False)
    env = {**os.environ, **({"PGPASSWORD": str(url.password)} if url.password else {})}
    _create_private(target)  # pg_dump writes into the file it finds, keeping its permissions
    result = subprocess.run(
        [program, "--format=custom", "--no-owner", f"--file={target}", f"--dbname={libpq}"],
        env=env, capture_output=True, text=True, umask=0o077,
    )
    if result.returncode != 0:
        target.unlink(missing_ok=True)
        raise BackupError(f"pg_dump failed: {result.stderr.strip()}")


def in_chunks(values: Sequence[T]) -> Iterator[Sequence[T]]:
    """`values` in slices of at most IN_LIST_LIMIT, each small enough for the IN list of one statement."""
    for start in range(0, len(values), IN_LIST_LIMIT):
        yield values[start:start + IN_LIST_LIMIT]


def with_driver(url: URL) -> URL:
    """PostgreSQL is always reached through psycopg 3, whatever driver the URL names."""
    if url.get_backend_name() == "postgresql":
        return url.set(drivername="postgresql+psycopg")
    return url


def _read_bind(engine: Engine) -> Engine:
    """What read sessions run on. PostgreSQL: autocommit. Under READ COMMITTED every statement sees its own
    snapshot even inside a transaction, so a read-only transaction buys nothing there but a BEGIN and a
    ROLLBACK, two round trips per request. SQLite keeps its transaction: there it is one consistent snapshot.
    (So no server-side cursors, `yield_per` or `stream_results`, in read sessions: PostgreSQL wants a
    transaction for those.)"""
    if engine.dialect.name == "postgresql":
        return engine.execution_options(isolation_level="AUTOCOMMIT")
    return engine


def make_engine(url: URL, *, echo: bool = False) -> Engine:
    if url.get_backend_name() == "sqlite":
        return _sqlite_engine(url, echo=echo)
    engine = create_engine(
        with_driver(url), echo=echo, connect_args={"connect_timeout": POSTGRES_CONNECT_TIMEOUT_SECONDS},
    )
    event.listen(engine, "checkout", _alive_at_checkout)
    return engine


def _alive_at_checkout(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
    """A pooled PostgreSQL connection that died (the server restarted, or ended the session) is replaced at
    checkout, not handed out, without a round trip for the connections that are well: an idle connection has
    nothing to read, and a server that ends a session first sends it an error and closes it. Only a connection
    with something waiting is pinged; DisconnectionError makes the pool take another."""
    if dbapi_connection.closed or dbapi_connection.broken:
        raise DisconnectionError()
    waiting, _, _ = select.select([dbapi_connection.fileno()], [], [], 0)
    if not waiting:
        return
    try:
        dbapi_connection.execute("SELECT 1")
        if not dbapi_connection.autocommit:
            dbapi_connection.rollback()
    except psycopg.Error:
        raise DisconnectionError() from None


def _sqlite_engine(url: URL, *, echo: bool) -> Engine:
    engine = create_engine(
        url,
        echo=echo,
        connect_args={"timeout": SQLITE_BUSY_TIMEOUT_SECONDS, "check_same_thread": False},
    )

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Hand transaction control to SQLAlchemy (the documented pysqlite recipe).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys = ON")
        if url.database not in (None, "", ":memory:"):
            # Readers do not block the writer and the writer does not block readers.
            cursor.execute("PRAGMA journal_mode = WAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection: Any) -> None:
        if connection.get_execution_options().get(_WRITE_OPTION):
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            connection.exec_driver_sql("BEGIN")

    return engine
