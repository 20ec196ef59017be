"""A player's home across games: sign-in, preferences, spectators

Revision ID: 0014_player_home
Revises: 0013_invites_and_rematches
Create Date: 2026-12-01 15:40:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0014_player_home'
down_revision: str | None = '0013_invites_and_rematches'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('player_sign_ins',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('nonce_hash', sa.String(length=64), nullable=False),
    sa.Column('email', sa.String(length=320), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('used_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_player_sign_ins')),
    sa.UniqueConstraint('nonce_hash', name=op.f('uq_player_sign_ins_nonce_hash'))
    )
    op.create_table('player_sessions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('email', sa.String(length=320), nullable=False),
    sa.Column('mailbox', sa.String(length=320), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_player_sessions')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_player_sessions_token_hash'))
    )
    with op.batch_alter_table('player_sessions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_player_sessions_mailbox'), ['mailbox'], unique=False)
    op.create_table('player_preferences',
    sa.Column('mailbox', sa.String(length=320), nullable=False),
    sa.Column('email', sa.String(length=320), nullable=False),
    sa.Column('timezone', sa.String(length=64), nullable=False),
    sa.Column('quiet_hours', sa.String(length=11), nullable=True),
    sa.Column('notify_mode', sa.String(length=16), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("notify_mode IN ('turn', 'daily')", name=op.f('ck_player_preferences_notify_mode')),
    sa.PrimaryKeyConstraint('mailbox', name=op.f('pk_player_preferences'))
    )
    with op.batch_alter_table('player_preferences', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_player_preferences_notify_mode'), ['notify_mode'], unique=False)
    op.create_table('spectator_links',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('token', sa.String(length=64), nullable=False),
    sa.Column('show_chat', sa.Boolean(), server_default=sa.false(), nullable=False),
    sa.Column('created_by', sa.String(length=320), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_spectator_links_game_id_games')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_spectator_links')),
    sa.UniqueConstraint('token', name=op.f('uq_spectator_links_token'))
    )
    with op.batch_alter_table('spectator_links', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_spectator_links_game_id'), ['game_id'], unique=False)
    op.create_table('spectator_subscriptions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('link_id', sa.Integer(), nullable=False),
    sa.Column('email', sa.String(length=320), nullable=False),
    sa.Column('mailbox', sa.String(length=320), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['link_id'], ['spectator_links.id'],
                            name=op.f('fk_spectator_subscriptions_link_id_spectator_links')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_spectator_subscriptions')),
    sa.UniqueConstraint('link_id', 'mailbox', name=op.f('uq_spectator_subscriptions_link_id_mailbox'))
    )
    with op.batch_alter_table('spectator_subscriptions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_spectator_subscriptions_link_id'), ['link_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('spectator_subscriptions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_spectator_subscriptions_link_id'))
    op.drop_table('spectator_subscriptions')
    with op.batch_alter_table('spectator_links', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_spectator_links_game_id'))
    op.drop_table('spectator_links')
    with op.batch_alter_table('player_preferences', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_player_preferences_notify_mode'))
    op.drop_table('player_preferences')
    with op.batch_alter_table('player_sessions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_player_sessions_mailbox'))
    op.drop_table('player_sessions')
    op.drop_table('player_sign_ins')
