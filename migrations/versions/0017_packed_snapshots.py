"""Snapshots stored packed: state, move and events as payloads of pbem.snapshot_codec, keyed by game and seq

The table is built anew (its rows copied and encoded), so that PostgreSQL keeps no dead rows from the change
and lays the columns out without padding; the surrogate id and its index go, (game_id, seq) is the key.
Downgrading decodes every payload back into JSON (the state plain, which the older code reads as well).

Revision ID: 0017_packed_snapshots
Revises: 0016_deadlines_and_holders
Create Date: 2026-12-02 14:10:00
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

from pbem import snapshot_codec

revision: str = '0017_packed_snapshots'
down_revision: str | None = '0016_deadlines_and_holders'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
BATCH = 500
NEW = "snapshots_0017"
SOURCE_CHECK = "source IN ('player', 'server')"


def _packed_table(name: str, suffix: str) -> sa.Table:
    return op.create_table(
        name,
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('actor_seat', sa.Integer(), nullable=True),
        sa.Column('source', sa.String(length=8), server_default='server', nullable=False),
        sa.Column('submission_id', sa.String(length=64), nullable=True),
        sa.Column('state', sa.LargeBinary(), nullable=False),
        sa.Column('move', sa.LargeBinary(), nullable=True),
        sa.Column('events', sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f(f'fk_snapshots_game_id_games{suffix}')),
        sa.PrimaryKeyConstraint('game_id', 'seq', name=op.f(f'pk_snapshots{suffix}')),
        sa.UniqueConstraint('game_id', 'source', 'actor_seat', 'submission_id',
                            name=op.f(f'uq_snapshots_game_id_source_actor_seat_submission_id{suffix}')),
        sa.CheckConstraint(SOURCE_CHECK, name=op.f(f'ck_snapshots_source{suffix}')),
    )


def _json_table(name: str, suffix: str) -> sa.Table:
    return op.create_table(
        name,
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.Column('state', JSON, nullable=False),
        sa.Column('move', JSON, nullable=True),
        sa.Column('events', JSON, nullable=False),
        sa.Column('actor_seat', sa.Integer(), nullable=True),
        sa.Column('submission_id', sa.String(length=64), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('source', sa.String(length=8), server_default='server', nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f(f'fk_snapshots_game_id_games{suffix}')),
        sa.PrimaryKeyConstraint('id', name=op.f(f'pk_snapshots{suffix}')),
        sa.UniqueConstraint('game_id', 'seq', name=op.f(f'uq_snapshots_game_id_seq{suffix}')),
        sa.UniqueConstraint('game_id', 'source', 'actor_seat', 'submission_id',
                            name=op.f(f'uq_snapshots_game_id_source_actor_seat_submission_id{suffix}')),
        sa.CheckConstraint(SOURCE_CHECK, name=op.f(f'ck_snapshots_source{suffix}')),
    )


def _stored_json(value: Any) -> Any:
    """A JSON column's value as revision 0016 left it: a state maybe deflated (`{"zlib": "<base64>"}`, as
    the models wrote it since 2026-11-29)."""
    if isinstance(value, dict) and len(value) == 1 and isinstance(value.get("zlib"), str):
        value = json.loads(zlib.decompress(base64.b64decode(value["zlib"])))
    return value


def _old(stored: Any) -> sa.TableClause:
    """The table being replaced, its payload columns of type `stored`."""
    return sa.table(
        "snapshots", sa.column("game_id", sa.Integer()), sa.column("seq", sa.Integer()),
        sa.column("created_at", sa.DateTime(timezone=True)), sa.column("actor_seat", sa.Integer()),
        sa.column("source", sa.String()), sa.column("submission_id", sa.String()),
        sa.column("state", stored), sa.column("move", stored), sa.column("events", stored),
    )


def _rows(bind: sa.Connection, old: sa.TableClause) -> Iterator[Sequence[sa.Row[Any]]]:
    """The old table's rows in slices, by key."""
    c = old.c
    after = (-1, -1)
    while True:
        rows = bind.execute(
            sa.select(old)
            .where(sa.or_(c.game_id > after[0], sa.and_(c.game_id == after[0], c.seq > after[1])))
            .order_by(c.game_id, c.seq)
            .limit(BATCH)
        ).all()
        if not rows:
            return
        yield rows
        after = (rows[-1].game_id, rows[-1].seq)


def _rebuild(make: Callable[[str, str], sa.Table], stored: Any, convert: Callable[[sa.Row[Any]], dict[str, Any]]
             ) -> None:
    """Copy every snapshot into a table made by `make`, converted, and put it in the old one's place.

    PostgreSQL names indexes per schema, so the new table's constraints take a suffix until the old table is
    gone; SQLite has no such names (and cannot rename a constraint), so they are final from the start."""
    bind = op.get_bind()
    postgres = bind.dialect.name == "postgresql"
    suffix = "_0017" if postgres else ""
    table = make(NEW, suffix)
    for rows in _rows(bind, _old(stored)):
        bind.execute(table.insert(), [convert(row) for row in rows])
    op.drop_table("snapshots")
    op.rename_table(NEW, "snapshots")
    if postgres:
        for constraint in (
            "fk_snapshots_game_id_games", "pk_snapshots", "uq_snapshots_game_id_seq",
            "uq_snapshots_game_id_source_actor_seat_submission_id", "ck_snapshots_source",
        ):
            if constraint == "uq_snapshots_game_id_seq" and make is _packed_table:
                continue
            op.execute(f'ALTER TABLE snapshots RENAME CONSTRAINT "{constraint}{suffix}" TO "{constraint}"')
        if make is _json_table:
            op.execute(f"ALTER SEQUENCE {NEW}_id_seq RENAME TO snapshots_id_seq")
            op.execute("SELECT setval('snapshots_id_seq', coalesce((SELECT max(id) FROM snapshots), 0) + 1, false)")


def upgrade() -> None:
    def packed(row: sa.Row[Any]) -> dict[str, Any]:
        move = _stored_json(row.move)
        return {
            "game_id": row.game_id, "seq": row.seq, "created_at": row.created_at, "actor_seat": row.actor_seat,
            "source": row.source, "submission_id": row.submission_id,
            "state": snapshot_codec.encode("state", _stored_json(row.state)),
            "move": None if move is None else snapshot_codec.encode("move", move),
            "events": snapshot_codec.encode("events", _stored_json(row.events)),
        }

    _rebuild(_packed_table, JSON, packed)


def downgrade() -> None:
    counter = iter(range(1, 1 << 62))

    def plain(row: sa.Row[Any]) -> dict[str, Any]:
        return {
            "id": next(counter), "game_id": row.game_id, "seq": row.seq, "created_at": row.created_at,
            "actor_seat": row.actor_seat, "source": row.source, "submission_id": row.submission_id,
            "state": snapshot_codec.decode("state", row.state),
            "move": None if row.move is None else snapshot_codec.decode("move", row.move),
            "events": snapshot_codec.decode("events", row.events),
        }

    _rebuild(_json_table, sa.LargeBinary(), plain)
