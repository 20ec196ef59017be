"""Declarative base shared by every model module.

The naming convention gives every constraint and index a predictable name, so Alembic migrations can
refer to them (batch mode on SQLite recreates tables and needs the names) and stay stable.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, LargeBinary, MetaData
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.types import TypeDecorator

from pbem import snapshot_codec

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# JSON everywhere, JSONB on PostgreSQL (indexable, compact, compared by value).
JsonColumn = JSON().with_variant(JSONB(), "postgresql")


class Packed(TypeDecorator[Any]):
    """A snapshot column (state, move or events) stored as its payload (`pbem.snapshot_codec`): bytes that
    decode alone. Reading gives the JSON value back; every reader gets it through this one type."""

    impl = LargeBinary
    cache_ok = True

    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind

    def process_bind_param(self, value: Any, dialect: Dialect) -> bytes | None:
        return None if value is None else snapshot_codec.encode(self.kind, value)

    def process_result_value(self, value: Any, dialect: Dialect) -> Any:
        return None if value is None else snapshot_codec.decode(self.kind, value)


class UtcDateTime(TypeDecorator[datetime]):
    """Stores aware UTC datetimes and always gives aware UTC datetimes back (SQLite forgets the zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetimes are not stored; use the clock (pbem.clock)")
        return value.astimezone(UTC)

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


def one_of(column: str, values: tuple[str, ...]) -> str:
    """SQL for a CHECK constraint that keeps a status-like column within its known values."""
    return f"{column} IN ({', '.join(repr(value) for value in values)})"


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {datetime: UtcDateTime(), dict[str, Any]: JsonColumn, list[Any]: JsonColumn}
