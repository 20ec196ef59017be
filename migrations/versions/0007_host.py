"""Host sign-in: one-use host links (issue 7)

Revision ID: 0007_host
Revises: 0006_scheduler
Create Date: 2026-11-29 23:20:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0007_host'
down_revision: str | None = '0006_scheduler'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('host_sign_ins',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('nonce_hash', sa.String(length=64), nullable=False),
    sa.Column('email', sa.String(length=320), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('used_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_host_sign_ins')),
    sa.UniqueConstraint('nonce_hash', name=op.f('uq_host_sign_ins_nonce_hash'))
    )


def downgrade() -> None:
    op.drop_table('host_sign_ins')
