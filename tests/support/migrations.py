"""Rows written as an older revision has its tables, for the tests of one migration each."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa

WHEN = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


def a_game_row(connection: sa.Connection) -> int:
    """A `games` row as the database's revision has the table: every required column given a plain value."""
    games = sa.Table("games", sa.MetaData(), autoload_with=connection)
    values: dict[str, Any] = {}
    for column in games.columns:
        if column.nullable or column.server_default is not None or column.primary_key:
            continue
        python = column.type.python_type if not isinstance(column.type, sa.JSON) else dict
        values[column.name] = {int: 0, str: "x", bool: False, dict: {}, list: [], datetime: WHEN}[python]
    values.update(status="active", variant="saboteur2")
    return int(connection.execute(games.insert().values(values).returning(games.c.id)).scalar_one())
