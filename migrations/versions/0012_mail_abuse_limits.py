"""Inbound replies keyed safely, bounce and invitation limits

Revision ID: 0012_mail_abuse_limits
Revises: 0011_host_seat_and_sessions
Create Date: 2026-12-01 15:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0012_mail_abuse_limits'
down_revision: str | None = '0011_host_seat_and_sessions'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('confirmed_mailboxes',
    sa.Column('mailbox', sa.String(length=320), nullable=False),
    sa.Column('confirmed_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('mailbox', name=op.f('pk_confirmed_mailboxes'))
    )
    # Inbound mail is handled once per receipt key (Message-ID, reply token, sender), no longer per Message-ID.
    with op.batch_alter_table('inbound_mail', schema=None) as batch_op:
        batch_op.add_column(sa.Column('receipt_key', sa.String(length=255), nullable=True))
    op.execute("UPDATE inbound_mail SET receipt_key = message_id")  # earlier records keep their old key
    with op.batch_alter_table('inbound_mail', schema=None) as batch_op:
        batch_op.alter_column('receipt_key', existing_type=sa.String(length=255), nullable=False)
        batch_op.drop_constraint(batch_op.f('uq_inbound_mail_message_id'), type_='unique')
        batch_op.create_unique_constraint(batch_op.f('uq_inbound_mail_receipt_key'), ['receipt_key'])


def downgrade() -> None:
    # Several records may share a Message-ID now: keep the first of each, as the old unique key allows.
    op.execute(
        "DELETE FROM inbound_mail WHERE id NOT IN (SELECT MIN(id) FROM inbound_mail GROUP BY message_id)"
    )
    with op.batch_alter_table('inbound_mail', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_inbound_mail_receipt_key'), type_='unique')
        batch_op.create_unique_constraint(batch_op.f('uq_inbound_mail_message_id'), ['message_id'])
        batch_op.drop_column('receipt_key')

    op.drop_table('confirmed_mailboxes')
