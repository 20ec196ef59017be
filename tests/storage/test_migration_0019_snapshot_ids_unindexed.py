"""Migration 0019 drops the unique index on the snapshots' submission ids and keeps every row; its downgrade
builds the index again."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command

from pbem.db import Database
from pbem.migrate import alembic_config, upgrade
from tests.support.migrations import a_game_row

BEFORE = "0018_notifications"
AFTER = "0019_snapshot_ids_unindexed"
WHEN = datetime(2026, 12, 2, 17, 0, tzinfo=UTC)


def snapshot(game_pk: int, seq: int, submission_id: str | None) -> dict[str, Any]:
    return {"game_id": game_pk, "seq": seq, "state": b"\x02", "move": None, "events": b"\x02",
            "actor_seat": 0, "submission_id": submission_id, "source": "player", "created_at": WHEN}


def snapshots(connection: sa.Connection) -> sa.Table:
    return sa.Table("snapshots", sa.MetaData(), autoload_with=connection)


def test_upgrading_keeps_the_rows_and_lets_an_id_come_again_downgrading_refuses_it_again(
    database_url: str,
) -> None:
    upgrade(database_url, BEFORE)
    db = Database(database_url)
    try:
        with db.engine.begin() as connection:
            game_pk = a_game_row(connection)
            connection.execute(snapshots(connection).insert(), [snapshot(game_pk, 0, None), snapshot(game_pk, 1, "a")])

        upgrade(database_url, AFTER)
        with db.engine.begin() as connection:
            table = snapshots(connection)
            assert connection.execute(sa.select(table.c.seq, table.c.submission_id).order_by(table.c.seq)
                                      ).all() == [(0, None), (1, "a")]
            connection.execute(table.insert(), [snapshot(game_pk, 2, "a")])
            connection.execute(table.delete().where(table.c.seq == 2))

        command.downgrade(alembic_config(database_url), BEFORE)
        with pytest.raises(sa.exc.IntegrityError), db.engine.begin() as connection:
            connection.execute(snapshots(connection).insert(), [snapshot(game_pk, 2, "a")])
        with db.engine.connect() as connection:
            assert len(connection.execute(sa.select(snapshots(connection))).all()) == 2
    finally:
        db.dispose()
