"""The chat's count of committed messages on each game, so a page can tell whether its chat changed (issue 12)

Revision ID: 0008_chat_version
Revises: 0007_host
Create Date: 2026-11-30 02:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0008_chat_version'
down_revision: str | None = '0007_host'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('games') as batch:
        batch.add_column(sa.Column('chat_version', sa.Integer(), server_default='0', nullable=False))
    # Games that already have a chat start from its number of messages.
    op.execute(
        "UPDATE games SET chat_version = "
        "(SELECT count(*) FROM chat_messages WHERE chat_messages.game_id = games.id)"
    )


def downgrade() -> None:
    with op.batch_alter_table('games') as batch:
        batch.drop_column('chat_version')
