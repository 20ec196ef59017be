"""An outbox row may wait for its content: turn emails are composed when the deliverer takes them (issue 12)

Revision ID: 0009_compose_at_delivery
Revises: 0008_chat_version
Create Date: 2026-11-30 05:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0009_compose_at_delivery'
down_revision: str | None = '0008_chat_version'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CONTENT = (('subject', sa.String(length=300)), ('body_text', sa.Text()), ('body_html', sa.Text()))


def upgrade() -> None:
    with op.batch_alter_table('outbox') as batch:
        for name, type_ in CONTENT:
            batch.alter_column(name, existing_type=type_, nullable=True)


def downgrade() -> None:
    # Rows still waiting for their content can only be dropped: nothing was promised to anyone yet.
    op.execute(
        "UPDATE outbox SET subject = '', body_text = '', body_html = '', status = 'dropped', "
        "last_error = 'not sent: dropped by a downgrade before it was composed' WHERE body_text IS NULL"
    )
    with op.batch_alter_table('outbox') as batch:
        for name, type_ in CONTENT:
            batch.alter_column(name, existing_type=type_, nullable=False)
