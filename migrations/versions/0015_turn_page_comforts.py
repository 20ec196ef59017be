"""Turn page comforts: rounds seen, a hand in turn emails

Revision ID: 0015_turn_page_comforts
Revises: 0014_player_home
Create Date: 2026-12-01 15:40:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa  # noqa: F401
from alembic import op  # noqa: F401

revision: str = '0015_turn_page_comforts'
down_revision: str | None = '0014_player_home'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
