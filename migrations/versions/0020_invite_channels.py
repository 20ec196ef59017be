"""A game joined by link keeps the table's channel its host gave until it starts

Revision ID: 0020_invite_channels
Revises: 0019_snapshot_ids_unindexed
Create Date: 2026-12-02 17:40:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0020_invite_channels'
down_revision: str | None = '0019_snapshot_ids_unindexed'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('invites', schema=None) as batch_op:
        batch_op.add_column(sa.Column('channel_url', sa.Text(), nullable=True))
        batch_op.add_column(sa.Column('channel_shown_as', sa.String(length=200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('invites', schema=None) as batch_op:
        batch_op.drop_column('channel_shown_as')
        batch_op.drop_column('channel_url')
