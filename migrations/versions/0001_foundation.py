"""Foundation: games, seats, snapshots, host actions, outbox

Revision ID: 0001_foundation
Revises:
Create Date: 2026-11-29 19:28:25.792781
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = '0001_foundation'
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# JSONB on PostgreSQL, JSON elsewhere: the same type as pbem.models.base.JsonColumn.
JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table('games',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('public_id', sa.String(length=32), nullable=False),
    sa.Column('title', sa.String(length=200), nullable=False),
    sa.Column('variant', sa.String(length=32), nullable=False),
    sa.Column('options', JSON, nullable=False),
    sa.Column('policies', JSON, nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('paused', sa.Boolean(), nullable=False),
    sa.Column('is_demo', sa.Boolean(), nullable=False),
    sa.Column('host_email', sa.String(length=320), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('current_seq', sa.Integer(), nullable=True),
    sa.Column('to_act_seat', sa.Integer(), nullable=True),
    sa.Column('turn_started_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('bot_lease_until', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("status IN ('created', 'active', 'finished', 'abandoned')", name=op.f('ck_games_status')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_games')),
    sa.UniqueConstraint('public_id', name=op.f('uq_games_public_id'))
    )
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.create_index('ix_games_status_turn_started_at', ['status', 'turn_started_at'], unique=False)

    op.create_table('host_actions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('actor_email', sa.String(length=320), nullable=False),
    sa.Column('action', sa.String(length=64), nullable=False),
    sa.Column('details', JSON, nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_host_actions_game_id_games')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_host_actions'))
    )
    with op.batch_alter_table('host_actions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_host_actions_game_id'), ['game_id'], unique=False)

    op.create_table('seats',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seat_index', sa.Integer(), nullable=False),
    sa.Column('display_name', sa.String(length=80), nullable=False),
    sa.Column('email', sa.String(length=320), nullable=True),
    sa.Column('token_version', sa.Integer(), nullable=False),
    sa.Column('is_bot', sa.Boolean(), nullable=False),
    sa.Column('notify_mode', sa.String(length=16), nullable=False),
    sa.Column('timezone', sa.String(length=64), nullable=False),
    sa.Column('last_seen_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("notify_mode IN ('turn', 'digest')", name=op.f('ck_seats_notify_mode')),
    sa.CheckConstraint('is_bot OR email IS NOT NULL', name=op.f('ck_seats_human_has_email')),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_seats_game_id_games')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_seats')),
    sa.UniqueConstraint('game_id', 'display_name', name=op.f('uq_seats_game_id_display_name')),
    sa.UniqueConstraint('game_id', 'seat_index', name=op.f('uq_seats_game_id_seat_index'))
    )
    op.create_table('snapshots',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('state', JSON, nullable=False),
    sa.Column('move', JSON, nullable=True),
    sa.Column('events', JSON, nullable=False),
    sa.Column('actor_seat', sa.Integer(), nullable=True),
    sa.Column('submission_id', sa.String(length=64), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_snapshots_game_id_games')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_snapshots')),
    sa.UniqueConstraint('game_id', 'seq', name=op.f('uq_snapshots_game_id_seq')),
    sa.UniqueConstraint('game_id', 'submission_id', name=op.f('uq_snapshots_game_id_submission_id'))
    )
    op.create_table('outbox',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seat_id', sa.Integer(), nullable=True),
    sa.Column('to_address', sa.String(length=320), nullable=False),
    sa.Column('kind', sa.String(length=40), nullable=False),
    sa.Column('dedupe_key', sa.String(length=200), nullable=False),
    sa.Column('message_id', sa.String(length=255), nullable=False),
    sa.Column('subject', sa.String(length=300), nullable=False),
    sa.Column('body_text', sa.Text(), nullable=False),
    sa.Column('body_html', sa.Text(), nullable=False),
    sa.Column('headers', JSON, nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('next_attempt_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_error', sa.Text(), nullable=True),
    sa.Column('claimed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("status IN ('queued', 'sending', 'sent', 'failed', 'dropped')", name=op.f('ck_outbox_status')),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_outbox_game_id_games')),
    sa.ForeignKeyConstraint(['seat_id'], ['seats.id'], name=op.f('fk_outbox_seat_id_seats')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_outbox')),
    sa.UniqueConstraint('dedupe_key', name=op.f('uq_outbox_dedupe_key')),
    sa.UniqueConstraint('message_id', name=op.f('uq_outbox_message_id'))
    )
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_outbox_game_id'), ['game_id'], unique=False)
        batch_op.create_index('ix_outbox_status_next_attempt_at', ['status', 'next_attempt_at'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_index('ix_outbox_status_next_attempt_at')
        batch_op.drop_index(batch_op.f('ix_outbox_game_id'))

    op.drop_table('outbox')
    op.drop_table('snapshots')
    op.drop_table('seats')
    with op.batch_alter_table('host_actions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_host_actions_game_id'))

    op.drop_table('host_actions')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index('ix_games_status_turn_started_at')

    op.drop_table('games')
