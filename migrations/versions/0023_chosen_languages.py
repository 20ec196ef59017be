"""Languages chosen ahead of a seat: a player's for all games (My games) and a joiner's (the join form)

Revision ID: 0023_chosen_languages
Revises: 0022_notices_instead
Create Date: 2026-12-03 09:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0023_chosen_languages'
down_revision: str | None = '0022_notices_instead'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('player_preferences', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sa.String(length=8), nullable=True))
    with op.batch_alter_table('invite_joiners', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sa.String(length=8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('invite_joiners', schema=None) as batch_op:
        batch_op.drop_column('language')
    with op.batch_alter_table('player_preferences', schema=None) as batch_op:
        batch_op.drop_column('language')
