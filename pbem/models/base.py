"""Declarative base shared by every model module.

The naming convention gives every constraint and index a predictable name, so Alembic migrations can
refer to them (batch mode on SQLite recreates tables and needs the names) and stay stable.
"""

from __future__ import annotations

import base64
import json
import zlib
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, MetaData
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.types import TypeDecorator

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# JSON everywhere, JSONB on PostgreSQL (indexable, compact, compared by value).
JsonColumn = JSON().with_variant(JSONB(), "postgresql")


class CompressedJson(TypeDecorator[dict[str, Any]]):
    """A JSON document stored deflated, for the engine state of every snapshot (one per turn).

    A state barely changes from turn to turn and deflates well (sizes: docs/performance.md, Storage per turn).
    It is kept as `{"zlib": "<base64>"}` in the same JSON column; a plain document stored there reads back as it
    is. Reading gives the full state again: every reader gets it through this one type.
    """

    impl = JSON
    cache_ok = True
    KEY = "zlib"

    def load_dialect_impl(self, dialect: Dialect) -> Any:
        return dialect.type_descriptor(JSONB() if dialect.name == "postgresql" else JSON())

    def process_bind_param(self, value: dict[str, Any] | None, dialect: Dialect) -> dict[str, Any] | None:
        if value is None:
            return None
        packed = zlib.compress(json.dumps(value, separators=(",", ":")).encode("utf-8"))
        return {self.KEY: base64.b64encode(packed).decode("ascii")}

    def process_result_value(self, value: Any, dialect: Dialect) -> dict[str, Any] | None:
        return unpack_json(value)


def unpack_json(value: Any) -> Any:
    """A stored document as it was written: deflated ones unpacked, plain ones as they are."""
    if isinstance(value, dict) and len(value) == 1 and isinstance(value.get(CompressedJson.KEY), str):
        return json.loads(zlib.decompress(base64.b64decode(value[CompressedJson.KEY])))
    return value


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
