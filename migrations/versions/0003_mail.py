"""Mail: delivery claims, stale turn mail, conversation roots

Revision ID: 0003_mail
Revises: 0001_foundation
Create Date: 2026-11-29 19:59:43.091255

"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0003_mail'
down_revision: str | None = '0002_turn_page'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('mail_threads',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('recipient', sa.String(length=40), nullable=False),
    sa.Column('address', sa.String(length=320), nullable=False),
    sa.Column('root_message_id', sa.String(length=255), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_mail_threads_game_id_games')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_mail_threads')),
    sa.UniqueConstraint('game_id', 'recipient', 'address', name=op.f('uq_mail_threads_game_id_recipient_address'))
    )
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('claim_token', sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column('game_seq', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('drop_when_stale', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.create_index(batch_op.f('ix_outbox_seat_id'), ['seat_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_outbox_seat_id'))
        batch_op.drop_column('drop_when_stale')
        batch_op.drop_column('game_seq')
        batch_op.drop_column('claim_token')

    op.drop_table('mail_threads')
