"""Applying Alembic migrations from code (`pbem db upgrade`, tests), with pbem's database URL."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy.engine import make_url

from pbem.paths import MIGRATIONS_DIR


def alembic_config(database_url: str) -> AlembicConfig:
    config = AlembicConfig(str(MIGRATIONS_DIR / "alembic.ini"))
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    # Passed as an attribute, not an ini option: URLs may hold '%' that configparser would interpolate.
    config.attributes["database_url"] = database_url
    return config


def upgrade(database_url: str, revision: str = "head") -> None:
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        # SQLite creates the database file but not the folder it lives in (instance/ on a fresh clone).
        Path(url.database).parent.mkdir(parents=True, exist_ok=True)
    command.upgrade(alembic_config(database_url), revision)
