"""Languages: the one a seat chose, the one its browser asked for, and its game's

Revision ID: 0021_languages
Revises: 0020_invite_channels
Create Date: 2026-12-02 17:45:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0021_languages'
down_revision: str | None = '0020_invite_channels'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sa.String(length=8), nullable=True))
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sa.String(length=8), nullable=True))
        batch_op.add_column(sa.Column('browser_language', sa.String(length=8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('browser_language')
        batch_op.drop_column('language')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('language')
