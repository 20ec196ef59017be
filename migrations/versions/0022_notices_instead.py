"""A seat (and a player for all games) may choose notifications instead of turn emails: notify_mode 'notices'

Revision ID: 0022_notices_instead
Revises: 0021_languages
Create Date: 2026-12-02 18:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = '0022_notices_instead'
down_revision: str | None = '0021_languages'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_seats_notify_mode'), type_='check')
        batch_op.create_check_constraint(op.f('ck_seats_notify_mode'), "notify_mode IN ('turn', 'digest', 'notices')")
    with op.batch_alter_table('player_preferences', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_player_preferences_notify_mode'), type_='check')
        batch_op.create_check_constraint(op.f('ck_player_preferences_notify_mode'),
                                         "notify_mode IN ('turn', 'daily', 'notices')")


def downgrade() -> None:
    # Back to turn emails: the choice is not known before this revision.
    op.execute("UPDATE seats SET notify_mode = 'turn' WHERE notify_mode = 'notices'")
    op.execute("UPDATE player_preferences SET notify_mode = 'turn' WHERE notify_mode = 'notices'")
    with op.batch_alter_table('player_preferences', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_player_preferences_notify_mode'), type_='check')
        batch_op.create_check_constraint(op.f('ck_player_preferences_notify_mode'), "notify_mode IN ('turn', 'daily')")
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_seats_notify_mode'), type_='check')
        batch_op.create_check_constraint(op.f('ck_seats_notify_mode'), "notify_mode IN ('turn', 'digest')")
