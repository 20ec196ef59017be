"""Turn page comforts: rounds seen, a hand in turn emails

Revision ID: 0015_turn_page_comforts
Revises: 0014_player_home
Create Date: 2026-12-01 15:40:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0015_turn_page_comforts'
down_revision: str | None = '0014_player_home'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("hand_in_email", sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("hand_in_email")
