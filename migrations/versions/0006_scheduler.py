"""Scheduler: turn clocks (reminders, warnings, deadlines) and each seat's quiet hours, away time and timeouts

Revision ID: 0006_scheduler
Revises: 0005_trust
Create Date: 2026-11-29 23:10:00

"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0006_scheduler'
down_revision: str | None = '0005_trust'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('turn_clocks',
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=True),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('due_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('deadline_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('reminders_sent', sa.Integer(), nullable=False),
    sa.Column('last_reminder_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('warned', sa.Boolean(), server_default=sa.false(), nullable=False),
    sa.Column('timed_out', sa.Boolean(), server_default=sa.false(), nullable=False),
    sa.Column('paused_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('paused_seconds', sa.Integer(), nullable=False),
    sa.Column('extended_seconds', sa.Integer(), nullable=False),
    sa.Column('away_from', sa.DateTime(timezone=True), nullable=True),
    sa.Column('away_seconds', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_turn_clocks_game_id_games')),
    sa.PrimaryKeyConstraint('game_id', name=op.f('pk_turn_clocks'))
    )
    op.create_index(op.f('ix_turn_clocks_due_at'), 'turn_clocks', ['due_at'], unique=False)
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('quiet_hours', sa.String(length=11), nullable=True))
        batch_op.add_column(sa.Column('away_until', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('away_used_seconds', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('timeouts_in_row', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('absent', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column('auto_pass', sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column('timeout_card', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('nudged_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index('ix_seats_notify_mode', ['notify_mode'], unique=False)
    # Games already running get a clock that is due at once: the first sweep plans it (its seq matches no snapshot).
    op.execute(
        "INSERT INTO turn_clocks (game_id, seq, seat, started_at, version, due_at, reminders_sent, warned, timed_out,"
        " paused_seconds, extended_seconds, away_seconds)"
        " SELECT id, -1, to_act_seat, COALESCE(turn_started_at, updated_at), 0, updated_at, 0, false, false, 0, 0, 0"
        " FROM games WHERE status = 'active'"
    )


def downgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_index('ix_seats_notify_mode')
        batch_op.drop_column('nudged_at')
        batch_op.drop_column('timeout_card')
        batch_op.drop_column('auto_pass')
        batch_op.drop_column('absent')
        batch_op.drop_column('timeouts_in_row')
        batch_op.drop_column('away_used_seconds')
        batch_op.drop_column('away_until')
        batch_op.drop_column('quiet_hours')
    op.drop_index(op.f('ix_turn_clocks_due_at'), table_name='turn_clocks')
    op.drop_table('turn_clocks')
