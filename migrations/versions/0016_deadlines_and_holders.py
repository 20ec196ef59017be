"""Deadlines that say when they moved, and who held a seat before a replacement

Revision ID: 0016_deadlines_and_holders
Revises: 0015_turn_page_comforts
Create Date: 2026-12-02 05:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = '0016_deadlines_and_holders'
down_revision: str | None = '0015_turn_page_comforts'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# JSONB on PostgreSQL, JSON elsewhere: the same type as pbem.models.base.JSON.
JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("turn_clocks") as batch:
        batch.add_column(sa.Column("first_deadline_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("kept_deadline_base", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("former_holders", JSON, server_default="[]", nullable=False))
    # A running turn's first deadline is the one it has now: nothing moved it since this column existed.
    op.execute("UPDATE turn_clocks SET first_deadline_at = deadline_at")


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("former_holders")
    with op.batch_alter_table("turn_clocks") as batch:
        batch.drop_column("kept_deadline_base")
        batch.drop_column("first_deadline_at")
