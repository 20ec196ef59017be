"""Notifications beside email: players' addresses, a game's channel, the notification outbox

Revision ID: 0018_notifications
Revises: 0017_packed_snapshots
Create Date: 2026-12-02 15:05:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0018_notifications'
down_revision: str | None = '0017_packed_snapshots'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('notices_wanted', sa.Boolean(), server_default=sa.false(), nullable=False))
    op.create_table('notification_addresses',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('mailbox', sa.String(length=320), nullable=False),
    sa.Column('url', sa.Text(), nullable=False),
    sa.Column('shown_as', sa.String(length=200), nullable=False),
    sa.Column('turns', sa.Boolean(), server_default=sa.true(), nullable=False),
    sa.Column('results', sa.Boolean(), server_default=sa.false(), nullable=False),
    sa.Column('failures', sa.Integer(), nullable=False),
    sa.Column('last_error', sa.Text(), nullable=True),
    sa.Column('switched_off_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_notification_addresses'))
    )
    with op.batch_alter_table('notification_addresses', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_notification_addresses_mailbox'), ['mailbox'], unique=False)
    op.create_table('game_channels',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('url', sa.Text(), nullable=False),
    sa.Column('shown_as', sa.String(length=200), nullable=False),
    sa.Column('failures', sa.Integer(), nullable=False),
    sa.Column('last_error', sa.Text(), nullable=True),
    sa.Column('switched_off_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_game_channels_game_id_games')),
    sa.PrimaryKeyConstraint('game_id', name=op.f('pk_game_channels'))
    )
    op.create_table('notices',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('address_id', sa.Integer(), nullable=True),
    sa.Column('channel_game_id', sa.Integer(), nullable=True),
    sa.Column('kind', sa.String(length=40), nullable=False),
    sa.Column('dedupe_key', sa.String(length=200), nullable=False),
    sa.Column('title', sa.String(length=300), nullable=False),
    sa.Column('body', sa.Text(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_error', sa.Text(), nullable=True),
    sa.Column('claimed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('claim_token', sa.String(length=32), nullable=True),
    sa.Column('game_seq', sa.Integer(), nullable=True),
    sa.Column('drop_when_stale', sa.Boolean(), server_default=sa.false(), nullable=False),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("status IN ('queued', 'sending', 'sent', 'failed', 'dropped')", name=op.f('ck_notices_status')),
    sa.CheckConstraint('(address_id IS NULL) <> (channel_game_id IS NULL)', name=op.f('ck_notices_one_target')),
    sa.ForeignKeyConstraint(['address_id'], ['notification_addresses.id'],
                            name=op.f('fk_notices_address_id_notification_addresses'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['channel_game_id'], ['game_channels.game_id'],
                            name=op.f('fk_notices_channel_game_id_game_channels'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_notices_game_id_games')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_notices')),
    sa.UniqueConstraint('dedupe_key', name=op.f('uq_notices_dedupe_key'))
    )
    with op.batch_alter_table('notices', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_notices_address_id'), ['address_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_notices_game_id'), ['game_id'], unique=False)
        batch_op.create_index('ix_notices_status_next_attempt_at', ['status', 'next_attempt_at'], unique=False)


def downgrade() -> None:
    op.drop_table('notices')
    op.drop_table('game_channels')
    op.drop_table('notification_addresses')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('notices_wanted')
