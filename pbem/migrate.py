"""Applying Alembic migrations from code (`pbem db upgrade`, tests), with pbem's database URL."""

from __future__ import annotations

from alembic import command
from alembic.config import Config as AlembicConfig

from pbem.paths import MIGRATIONS_DIR


def alembic_config(database_url: str) -> AlembicConfig:
    config = AlembicConfig(str(MIGRATIONS_DIR / "alembic.ini"))
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    # Passed as an attribute, not an ini option: URLs may hold '%' that configparser would interpolate.
    config.attributes["database_url"] = database_url
    return config


def upgrade(database_url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(database_url), revision)
