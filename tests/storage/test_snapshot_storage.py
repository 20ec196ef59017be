"""A snapshot's state, move and events are stored packed, each payload decoding alone, and read back whole."""

from __future__ import annotations

import json
import random

from sqlalchemy import select, text

from pbem import snapshot_codec
from pbem.models import Snapshot
from pbem.service.turns.values import PlayerSpec
from tests.support.games import play_moves

TEN = [PlayerSpec(name, f"{name.lower()}@example.org") for name in "Ann Ben Cat Dan Eve Fay Gus Hal Ivy Jon".split()]


def stored_columns(runtime, seq: int) -> tuple[bytes, bytes | None, bytes]:
    """The state, move and events columns as the database holds them, past the model's type."""
    with runtime.db.read() as session:
        row = session.execute(text("SELECT state, move, events FROM snapshots WHERE seq = :seq"), {"seq": seq}).one()
    return bytes(row.state), None if row.move is None else bytes(row.move), bytes(row.events)


def test_a_ten_player_turn_is_stored_in_a_small_part_of_its_json_and_reads_back_whole(runtime, new_game) -> None:
    game_id = new_game(TEN)
    play_moves(runtime, game_id, 60, random.Random(3))
    state, seq = runtime.games.engine_state(game_id)

    stored_state, stored_move, stored_events = stored_columns(runtime, seq)
    with runtime.db.read() as session:
        read = session.execute(select(Snapshot.state, Snapshot.move, Snapshot.events).where(Snapshot.seq == seq)).one()

    assert stored_state[0] == snapshot_codec.WHOLE_STATE
    assert stored_move is not None
    as_json = len(json.dumps(read.state)) + len(json.dumps(read.move)) + len(json.dumps(read.events))
    assert len(stored_state) + len(stored_move) + len(stored_events) < 0.25 * as_json
    assert read.state == state.to_dict() == snapshot_codec.decode("state", stored_state)
    assert read.move == snapshot_codec.decode("move", stored_move)
    assert read.events == snapshot_codec.decode("events", stored_events)


def test_a_move_that_builds_on_a_state_this_process_never_decoded_reads_it_from_its_lock(runtime, new_game) -> None:
    game_id = new_game()
    play_moves(runtime, game_id, 3, random.Random(4))
    before, seq = runtime.games.engine_state(game_id)
    runtime.db.memo.clear()  # as in another worker: the lock brings the stored payload along

    play_moves(runtime, game_id, 1, random.Random(5))

    with runtime.db.read() as session:
        previous = session.scalar(select(Snapshot.state).where(Snapshot.seq == seq))
    assert previous == before.to_dict()
    assert runtime.games.engine_state(game_id)[1] == seq + 1
