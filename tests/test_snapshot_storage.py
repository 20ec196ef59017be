"""A snapshot's engine state is stored deflated and always reads back whole, older plain rows included."""

from __future__ import annotations

import json
import random

from sqlalchemy import select, text

import engine
from pbem.models import Snapshot
from pbem.models.base import CompressedJson, unpack_json
from pbem.service.turns.games import PlayerSpec
from tests.support.games import play_moves

TEN = [PlayerSpec(name, f"{name.lower()}@example.org") for name in "Ann Ben Cat Dan Eve Fay Gus Hal Ivy Jon".split()]


def stored_column(runtime, seq: int) -> dict:
    """The state column as the database holds it, past the model's type."""
    with runtime.db.read() as session:
        raw = session.execute(text("SELECT state FROM snapshots WHERE seq = :seq"), {"seq": seq}).scalar_one()
    return json.loads(raw) if isinstance(raw, str) else raw


def test_a_ten_player_state_is_stored_in_well_under_its_json_and_reads_back_whole(runtime, new_game) -> None:
    game_id = new_game(TEN)
    play_moves(runtime, game_id, 60, random.Random(3))
    state, seq = runtime.games.engine_state(game_id)

    stored = stored_column(runtime, seq)
    with runtime.db.read() as session:
        read = session.scalar(select(Snapshot.state).where(Snapshot.seq == seq))

    assert set(stored) == {CompressedJson.KEY}
    assert len(json.dumps(stored)) < 0.6 * len(json.dumps(state.to_dict()))
    assert read == state.to_dict() == unpack_json(stored)


def test_a_state_stored_plain_before_compression_still_reads_as_it_is(runtime, new_game) -> None:
    game_id = new_game()
    plain = engine.new_game(["Ann", "Ben", "Cat"], seed=5).to_dict()
    with runtime.db.write() as session:
        value = ":state" if runtime.db.is_sqlite else "CAST(:state AS jsonb)"
        session.execute(text(f"UPDATE snapshots SET state = {value} WHERE seq = 0"), {"state": json.dumps(plain)})
    runtime.db.memo.clear()  # the row was rewritten behind the app's back, as no code of its own ever does

    state, _ = runtime.games.engine_state(game_id)

    assert state.to_dict() == plain
