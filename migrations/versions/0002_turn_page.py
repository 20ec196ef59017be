"""Turn page: database-kept rate limit counters (fresh-link requests)

Revision ID: 0002_turn_page
Revises: 0001_foundation
Create Date: 2026-11-29 20:10:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0002_turn_page'
down_revision: str | None = '0001_foundation'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('rate_limit_hits',
    sa.Column('key', sa.String(length=120), nullable=False),
    sa.Column('window_start', sa.DateTime(timezone=True), nullable=False),
    sa.Column('hits', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('key', 'window_start', name=op.f('pk_rate_limit_hits'))
    )
    with op.batch_alter_table('rate_limit_hits', schema=None) as batch_op:
        batch_op.create_index('ix_rate_limit_hits_window_start', ['window_start'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('rate_limit_hits', schema=None) as batch_op:
        batch_op.drop_index('ix_rate_limit_hits_window_start')

    op.drop_table('rate_limit_hits')
