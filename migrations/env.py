"""Alembic environment: the URL comes from pbem's configuration, batch mode keeps SQLite migratable."""

from __future__ import annotations

from typing import Any, Literal

from alembic import context
from sqlalchemy.engine import make_url

from pbem.config import load_config
from pbem.db import make_engine
from pbem.models import Base
from pbem.models.base import UtcDateTime

config = context.config
target_metadata = Base.metadata


def database_url() -> str:
    # `pbem db upgrade` passes the URL it already resolved; a bare `alembic` call loads the configuration.
    return config.attributes.get("database_url") or load_config().database_url


def render_item(type_: str, obj: Any, autogen_context: Any) -> str | Literal[False]:
    """Write pbem's column types as plain SQLAlchemy types, so revisions do not import application code."""
    if type_ == "type" and isinstance(obj, UtcDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def run_migrations_offline() -> None:
    url = make_url(database_url())
    context.configure(
        url=url,
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=url.get_backend_name() == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    engine = make_engine(make_url(database_url()))
    try:
        with engine.connect() as connection:
            context.configure(
                connection=connection,
                target_metadata=target_metadata,
                render_as_batch=connection.dialect.name == "sqlite",
                compare_type=True,
                render_item=render_item,
            )
            with context.begin_transaction():
                context.run_migrations()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
