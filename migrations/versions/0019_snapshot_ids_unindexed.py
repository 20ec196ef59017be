"""Snapshots without the unique index on (game, source, seat, submission id)

The key (game_id, seq) already refuses a second move on the same table, a retried submission among them; the
retry then finds its first attempt by that key, as the snapshot after the table its form showed. The index cost
PostgreSQL about 75 B a stored turn (docs/performance.md, Storage per turn). Downgrading builds it again, which
fails if a seat has since used one id on two tables.

Revision ID: 0019_snapshot_ids_unindexed
Revises: 0018_notifications
Create Date: 2026-12-02 17:40:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = '0019_snapshot_ids_unindexed'
down_revision: str | None = '0018_notifications'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UNIQUE = 'uq_snapshots_game_id_source_actor_seat_submission_id'
COLUMNS = ['game_id', 'source', 'actor_seat', 'submission_id']


def upgrade() -> None:
    with op.batch_alter_table('snapshots', schema=None) as batch_op:
        batch_op.drop_constraint(UNIQUE, type_='unique')


def downgrade() -> None:
    with op.batch_alter_table('snapshots', schema=None) as batch_op:
        batch_op.create_unique_constraint(UNIQUE, COLUMNS)
