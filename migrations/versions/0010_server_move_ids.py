"""Server moves keep their own ids apart from players'; a replayed round gets its own seal

Revision ID: 0010_server_move_ids
Revises: 0009_compose_at_delivery
Create Date: 2026-12-01 15:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0010_server_move_ids'
down_revision: str | None = '0009_compose_at_delivery'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('snapshots') as batch:
        batch.add_column(sa.Column('source', sa.String(length=8), server_default='server', nullable=False))
    # Moves that came with an id from a form were players'; the server's own ids began "bot-" or "timeout-".
    op.execute(
        "UPDATE snapshots SET source = 'player' WHERE submission_id IS NOT NULL "
        "AND submission_id NOT LIKE 'bot-%' AND submission_id NOT LIKE 'timeout-%'"
    )
    with op.batch_alter_table('snapshots') as batch:
        batch.drop_constraint('uq_snapshots_game_id_submission_id', type_='unique')
        batch.create_unique_constraint(
            op.f('uq_snapshots_game_id_source_actor_seat_submission_id'),
            ['game_id', 'source', 'actor_seat', 'submission_id'],
        )
        batch.create_check_constraint(op.f('ck_snapshots_source'), "source IN ('player', 'server')")
    with op.batch_alter_table('round_commitments') as batch:
        batch.drop_constraint('uq_round_commitments_game_id_round', type_='unique')
        batch.create_unique_constraint(op.f('uq_round_commitments_game_id_dealt_seq'), ['game_id', 'dealt_seq'])


def downgrade() -> None:
    # A round dealt twice (a game rolled back across a round end before this revision) keeps its newest seal.
    op.execute(
        "DELETE FROM round_commitments WHERE EXISTS (SELECT 1 FROM round_commitments AS newer "
        "WHERE newer.game_id = round_commitments.game_id AND newer.round = round_commitments.round "
        "AND newer.dealt_seq > round_commitments.dealt_seq)"
    )
    with op.batch_alter_table('round_commitments') as batch:
        batch.drop_constraint('uq_round_commitments_game_id_dealt_seq', type_='unique')
        batch.create_unique_constraint(op.f('uq_round_commitments_game_id_round'), ['game_id', 'round'])
    # Ids become one namespace per game again: of two equal ids in a game, the later one is dropped.
    op.execute(
        "UPDATE snapshots SET submission_id = NULL WHERE EXISTS (SELECT 1 FROM snapshots AS other "
        "WHERE other.game_id = snapshots.game_id AND other.submission_id = snapshots.submission_id "
        "AND other.id < snapshots.id)"
    )
    with op.batch_alter_table('snapshots') as batch:
        batch.drop_constraint(op.f('ck_snapshots_source'), type_='check')
        batch.drop_constraint('uq_snapshots_game_id_source_actor_seat_submission_id', type_='unique')
        batch.create_unique_constraint(op.f('uq_snapshots_game_id_submission_id'), ['game_id', 'submission_id'])
        batch.drop_column('source')
