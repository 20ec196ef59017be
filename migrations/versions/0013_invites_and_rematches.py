"""Invite links with open seats, rematches, host notes

Revision ID: 0013_invites_and_rematches
Revises: 0012_mail_abuse_limits
Create Date: 2026-12-01 15:40:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa  # noqa: F401
from alembic import op  # noqa: F401

revision: str = '0013_invites_and_rematches'
down_revision: str | None = '0012_mail_abuse_limits'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
