"""The migrations build exactly the schema the models describe, on SQLite and PostgreSQL."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect

from pbem.db import Database
from pbem.migrate import alembic_config, upgrade
from pbem.models import Base


def head_revision() -> str | None:
    """The newest revision on disk, so the test follows new migrations without naming them."""
    return ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()


def test_upgrading_to_head_yields_the_models_schema(database_url: str) -> None:
    upgrade(database_url)

    db = Database(database_url)
    try:
        with db.engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            differences = compare_metadata(context, Base.metadata)
            tables = set(inspect(connection).get_table_names())
    finally:
        db.dispose()

    assert differences == []
    assert tables == set(Base.metadata.tables) | {"alembic_version"}


def test_upgrading_twice_is_harmless(database_url: str) -> None:
    upgrade(database_url)
    upgrade(database_url)

    db = Database(database_url)
    try:
        with db.engine.connect() as connection:
            assert MigrationContext.configure(connection).get_current_revision() == head_revision()
    finally:
        db.dispose()
