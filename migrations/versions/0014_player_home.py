"""A player's home across games: sign-in, preferences, spectators

Revision ID: 0014_player_home
Revises: 0013_invites_and_rematches
Create Date: 2026-12-01 15:40:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa  # noqa: F401
from alembic import op  # noqa: F401

revision: str = '0014_player_home'
down_revision: str | None = '0013_invites_and_rematches'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
