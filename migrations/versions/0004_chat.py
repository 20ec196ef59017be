"""Table talk: chat messages, inbound mail, seats' chat settings, bounces without a game

Revision ID: 0004_chat
Revises: 0003_mail
Create Date: 2026-11-29 20:59:31.746310
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0004_chat'
down_revision: str | None = '0003_mail'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('chat_messages',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('sender_kind', sa.String(length=16), nullable=False),
    sa.Column('sender_seat', sa.Integer(), nullable=True),
    sa.Column('sender_name', sa.String(length=80), nullable=True),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('source', sa.String(length=16), nullable=False),
    sa.Column('system_kind', sa.String(length=40), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("(sender_kind = 'seat') = (sender_seat IS NOT NULL)",
                       name=op.f('ck_chat_messages_seat_names_its_seat')),
    sa.CheckConstraint("sender_kind IN ('seat', 'host', 'system')", name=op.f('ck_chat_messages_sender_kind')),
    sa.CheckConstraint("source IN ('page', 'email', 'system')", name=op.f('ck_chat_messages_source')),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_chat_messages_game_id_games')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_chat_messages'))
    )
    with op.batch_alter_table('chat_messages', schema=None) as batch_op:
        batch_op.create_index('ix_chat_messages_game_id_id', ['game_id', 'id'], unique=False)

    op.create_table('inbound_mail',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('message_id', sa.String(length=255), nullable=False),
    sa.Column('sender', sa.String(length=320), nullable=False),
    sa.Column('outcome', sa.String(length=16), nullable=False),
    sa.Column('reason', sa.String(length=200), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('chat_message_id', sa.Integer(), nullable=True),
    sa.Column('received_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("outcome IN ('posted', 'rejected', 'ignored')", name=op.f('ck_inbound_mail_outcome')),
    sa.ForeignKeyConstraint(['chat_message_id'], ['chat_messages.id'],
                            name=op.f('fk_inbound_mail_chat_message_id_chat_messages')),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_inbound_mail_game_id_games')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_inbound_mail')),
    sa.UniqueConstraint('message_id', name=op.f('uq_inbound_mail_message_id'))
    )
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.alter_column('game_id',
               existing_type=sa.INTEGER(),
               nullable=True)

    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('chat_emails', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column('chat_read_upto', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('chat_mailed_at', sa.DateTime(timezone=True), nullable=True))



def downgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('chat_mailed_at')
        batch_op.drop_column('chat_read_upto')
        batch_op.drop_column('chat_emails')

    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.alter_column('game_id',
               existing_type=sa.INTEGER(),
               nullable=False)

    op.drop_table('inbound_mail')
    with op.batch_alter_table('chat_messages', schema=None) as batch_op:
        batch_op.drop_index('ix_chat_messages_game_id_id')

    op.drop_table('chat_messages')
