"""A game records whether its host holds a seat; host sessions live on the server

Revision ID: 0011_host_seat_and_sessions
Revises: 0010_server_move_ids
Create Date: 2026-12-01 15:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from pbem.addresses import mailbox_key

revision: str = '0011_host_seat_and_sessions'
down_revision: str | None = '0010_server_move_ids'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('host_plays', sa.Boolean(), server_default=sa.false(), nullable=False))
    _record_playing_hosts()
    op.create_table('host_sessions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('email', sa.String(length=320), nullable=False),
    sa.Column('mailbox', sa.String(length=320), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_host_sessions')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_host_sessions_token_hash'))
    )
    with op.batch_alter_table('host_sessions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_host_sessions_mailbox'), ['mailbox'], unique=False)
    op.create_table('address_changes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('nonce_hash', sa.String(length=64), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seat_index', sa.Integer(), nullable=False),
    sa.Column('old_email', sa.String(length=320), nullable=False),
    sa.Column('new_email', sa.String(length=320), nullable=False),
    sa.Column('requested_by', sa.String(length=320), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('confirmed_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_address_changes_game_id_games')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_address_changes')),
    sa.UniqueConstraint('nonce_hash', name=op.f('uq_address_changes_nonce_hash'))
    )
    with op.batch_alter_table('address_changes', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_address_changes_game_id'), ['game_id'], unique=False)


def _record_playing_hosts() -> None:
    """Games that exist already: the host plays if their address's mailbox is a seat's now."""
    bind = op.get_bind()
    games = sa.table('games', sa.column('id', sa.Integer), sa.column('host_email', sa.String),
                     sa.column('host_plays', sa.Boolean))
    seats = sa.table('seats', sa.column('game_id', sa.Integer), sa.column('email', sa.String))
    hosts = dict(bind.execute(sa.select(games.c.id, games.c.host_email)).all())
    playing = {
        game_id for game_id, email in bind.execute(sa.select(seats.c.game_id, seats.c.email)).all()
        if email is not None and game_id in hosts and mailbox_key(email) == mailbox_key(hosts[game_id])
    }
    if playing:
        bind.execute(sa.update(games).where(games.c.id.in_(sorted(playing))).values(host_plays=True))


def downgrade() -> None:
    with op.batch_alter_table('address_changes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_address_changes_game_id'))
    op.drop_table('address_changes')
    with op.batch_alter_table('host_sessions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_host_sessions_mailbox'))
    op.drop_table('host_sessions')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('host_plays')
