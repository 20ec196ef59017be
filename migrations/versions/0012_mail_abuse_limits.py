"""Inbound replies keyed safely, bounce and invitation limits

Revision ID: 0012_mail_abuse_limits
Revises: 0011_host_seat_and_sessions
Create Date: 2026-12-01 15:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa  # noqa: F401
from alembic import op  # noqa: F401

revision: str = '0012_mail_abuse_limits'
down_revision: str | None = '0011_host_seat_and_sessions'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
