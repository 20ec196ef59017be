"""Invite links with open seats, rematches, host notes

Revision ID: 0013_invites_and_rematches
Revises: 0012_mail_abuse_limits
Create Date: 2026-12-01 15:40:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = '0013_invites_and_rematches'
down_revision: str | None = '0012_mail_abuse_limits'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


# JSONB on PostgreSQL, JSON elsewhere: the same type as pbem.models.base.JsonColumn.
JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table('invites',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('public_id', sa.String(length=32), nullable=False),
    sa.Column('host_email', sa.String(length=320), nullable=False),
    sa.Column('title', sa.String(length=200), nullable=False),
    sa.Column('variant', sa.String(length=32), nullable=False),
    sa.Column('options', JSON, nullable=False),
    sa.Column('policies', JSON, nullable=False),
    sa.Column('places', sa.Integer(), nullable=False),
    sa.Column('bots', sa.Integer(), nullable=False),
    sa.Column('seat_order', sa.String(length=16), nullable=False),
    sa.Column('auto_start', sa.Boolean(), nullable=False),
    sa.Column('players_may_rematch', sa.Boolean(), server_default=sa.false(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.CheckConstraint("seat_order IN ('joined', 'shuffled')", name=op.f('ck_invites_seat_order')),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_invites_game_id_games')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_invites')),
    sa.UniqueConstraint('game_id', name=op.f('uq_invites_game_id')),
    sa.UniqueConstraint('public_id', name=op.f('uq_invites_public_id'))
    )
    with op.batch_alter_table('invites', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_invites_host_email'), ['host_email'], unique=False)

    op.create_table('invite_joiners',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('invite_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('email', sa.String(length=320), nullable=False),
    sa.Column('mailbox', sa.String(length=320), nullable=False),
    sa.Column('timezone', sa.String(length=64), nullable=False),
    sa.Column('nonce_hash', sa.String(length=64), nullable=False),
    sa.Column('joined_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('confirmed_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['invite_id'], ['invites.id'], name=op.f('fk_invite_joiners_invite_id_invites')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_invite_joiners')),
    sa.UniqueConstraint('invite_id', 'mailbox', name=op.f('uq_invite_joiners_invite_id_mailbox')),
    sa.UniqueConstraint('nonce_hash', name=op.f('uq_invite_joiners_nonce_hash'))
    )
    with op.batch_alter_table('invite_joiners', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_invite_joiners_invite_id'), ['invite_id'], unique=False)

    op.create_table('rematches',
    sa.Column('previous_game_id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('requested_by', sa.String(length=320), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_rematches_game_id_games')),
    sa.ForeignKeyConstraint(['previous_game_id'], ['games.id'], name=op.f('fk_rematches_previous_game_id_games')),
    sa.PrimaryKeyConstraint('previous_game_id', name=op.f('pk_rematches')),
    sa.UniqueConstraint('game_id', name=op.f('uq_rematches_game_id'))
    )
    op.create_table('rematch_permissions',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('granted_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_rematch_permissions_game_id_games')),
    sa.PrimaryKeyConstraint('game_id', name=op.f('pk_rematch_permissions'))
    )


def downgrade() -> None:
    op.drop_table('rematch_permissions')
    op.drop_table('rematches')
    with op.batch_alter_table('invite_joiners', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_invite_joiners_invite_id'))
    op.drop_table('invite_joiners')
    with op.batch_alter_table('invites', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_invites_host_email'))
    op.drop_table('invites')
