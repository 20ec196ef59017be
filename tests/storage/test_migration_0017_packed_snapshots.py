"""Migration 0017 packs every stored snapshot and its downgrade gives the same JSON back, on both databases."""

from __future__ import annotations

import base64
import json
import random
import zlib
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import command

import engine
from pbem import snapshot_codec
from pbem.db import Database
from pbem.migrate import alembic_config, upgrade
from tests.support.migrations import a_game_row

BEFORE = "0016_deadlines_and_holders"
PACKED = "0017_packed_snapshots"
WHEN = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


def bot_snapshots(players: int, variant: str, seed: int) -> list[tuple[dict[str, Any], Any, list[Any]]]:
    """(state, move, events) of each snapshot of a game the random bot plays to the end."""
    state = engine.new_game([f"P{seat}" for seat in range(players)], seed=seed, variant=variant)
    rng = random.Random(seed)
    rows: list[tuple[dict[str, Any], Any, list[Any]]] = [(state.to_dict(), None, [])]
    while (seat := engine.to_act(state)) is not None:
        move = engine.bots.choose(state, seat, rng)
        state, events = engine.apply_move(state, seat, move)
        rows.append((state.to_dict(), move, events))
    return rows


def old_snapshots(stored: Any) -> sa.TableClause:
    return sa.table(
        "snapshots", sa.column("game_id", sa.Integer()), sa.column("seq", sa.Integer()),
        sa.column("state", stored), sa.column("move", stored), sa.column("events", stored),
        sa.column("actor_seat", sa.Integer()), sa.column("submission_id", sa.String()),
        sa.column("source", sa.String()), sa.column("created_at", sa.DateTime(timezone=True)),
    )


def deflated(state: dict[str, Any]) -> dict[str, str]:
    """A state as the models wrote it from 2026-11-29 until this revision."""
    return {"zlib": base64.b64encode(zlib.compress(json.dumps(state).encode())).decode()}


def test_upgrading_packs_every_snapshot_and_downgrading_restores_the_json(database_url: str) -> None:
    games = bot_snapshots(6, "saboteur2", 4)[:40] + bot_snapshots(3, "base", 5)[:40]
    upgrade(database_url, BEFORE)
    db = Database(database_url)
    json_type = sa.JSON().with_variant(sa.dialects.postgresql.JSONB(), "postgresql")
    try:
        with db.engine.begin() as connection:
            game_pk = a_game_row(connection)
            connection.execute(old_snapshots(json_type).insert(), [
                {"game_id": game_pk, "seq": seq, "state": deflated(state) if seq % 2 else state, "move": move,
                 "events": events, "actor_seat": None if move is None else 0,
                 "submission_id": None if move is None else f"s-{seq}", "source": "player", "created_at": WHEN}
                for seq, (state, move, events) in enumerate(games)
            ])

        upgrade(database_url, PACKED)
        with db.engine.connect() as connection:
            packed = connection.execute(sa.text("SELECT seq, state, move, events FROM snapshots ORDER BY seq")).all()
        assert [seq for seq, *_ in packed] == list(range(len(games)))
        for (_seq, state, move, events), (want_state, want_move, want_events) in zip(packed, games, strict=True):
            assert bytes(state)[0] == snapshot_codec.WHOLE_STATE
            assert snapshot_codec.decode("state", state) == want_state
            assert (None if move is None else snapshot_codec.decode("move", move)) == want_move
            assert snapshot_codec.decode("events", events) == want_events

        command.downgrade(alembic_config(database_url), BEFORE)
        with db.engine.connect() as connection:
            plain = connection.execute(sa.select(old_snapshots(json_type)).order_by(sa.text("seq"))).all()
            ids = connection.execute(sa.text("SELECT id FROM snapshots ORDER BY seq")).scalars().all()
        assert [(row.state, row.move, row.events) for row in plain] == games
        assert plain[1].submission_id == "s-1"
        assert plain[1].created_at.replace(tzinfo=plain[1].created_at.tzinfo or UTC) == WHEN  # SQLite keeps no zone
        assert sorted(ids) == list(range(1, len(games) + 1))

        upgrade(database_url, PACKED)  # and up again, from what the downgrade left
        with db.engine.connect() as connection:
            again = connection.execute(sa.text("SELECT state FROM snapshots ORDER BY seq")).scalars().all()
        assert [snapshot_codec.decode("state", state) for state in again] == [state for state, _, _ in games]
    finally:
        db.dispose()
