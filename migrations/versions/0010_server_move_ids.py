"""Server moves keep their own ids apart from players'; a replayed round gets its own seal

Revision ID: 0010_server_move_ids
Revises: 0009_compose_at_delivery
Create Date: 2026-12-01 15:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa  # noqa: F401
from alembic import op  # noqa: F401

revision: str = '0010_server_move_ids'
down_revision: str | None = '0009_compose_at_delivery'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
