"""Trust: the sealed deal of each round (commitment, salt, record)

Revision ID: 0005_trust
Revises: 0004_chat
Create Date: 2026-11-29 21:00:31.812720

"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = '0005_trust'
down_revision: str | None = '0004_chat'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# JSONB on PostgreSQL, JSON elsewhere: the same type as pbem.models.base.JsonColumn.
JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table('round_commitments',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('round', sa.Integer(), nullable=False),
    sa.Column('dealt_seq', sa.Integer(), nullable=False),
    sa.Column('commitment', sa.String(length=64), nullable=False),
    sa.Column('salt', sa.String(length=64), nullable=False),
    sa.Column('record', JSON, nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_round_commitments_game_id_games')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_round_commitments')),
    sa.UniqueConstraint('game_id', 'round', name=op.f('uq_round_commitments_game_id_round'))
    )


def downgrade() -> None:
    op.drop_table('round_commitments')
