"""A game records whether its host holds a seat; host sessions live on the server

Revision ID: 0011_host_seat_and_sessions
Revises: 0010_server_move_ids
Create Date: 2026-12-01 15:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa  # noqa: F401
from alembic import op  # noqa: F401

revision: str = '0011_host_seat_and_sessions'
down_revision: str | None = '0010_server_move_ids'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
