"""The server's own moves (computer seats, timeouts) keep ids of their own: whatever id a player's form sends
cannot freeze a computer seat, break the host's skip or the deadline sweep. A server move that is refused is
never tried again by itself: it is logged, the host is told, and the host's skip moves the game on."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select

import engine
from pbem.clock import SettableClock
from pbem.errors import MoveRefused
from pbem.models import Game, Snapshot
from pbem.runtime import Runtime
from pbem.service.turns import bots, timeouts
from pbem.service.turns.bots import BOT_LEASE, due_bot_turns, start_demo
from pbem.service.turns.values import PlayerSpec
from tests.support.games import BOT_DELAY, PEOPLE, NewGame, play_bots, snapshot_count
from tests.support.mail import mailbox

DEADLINE = timedelta(hours=72)
HOST = "host@example.org"
NOT_A_MOVE: dict[str, Any] = {"type": "dance"}


def last_events(runtime: Runtime, game_id: str) -> list[dict[str, Any]]:
    with runtime.db.read() as session:
        return session.scalars(
            select(Snapshot.events).join(Game).where(Game.public_id == game_id).order_by(Snapshot.seq.desc()).limit(1)
        ).one()


def play_with_id(runtime: Runtime, game_id: str, submission_id: str) -> int:
    """The seat to act plays its first legal move with `submission_id`; returns the sequence number after it."""
    state, seq = runtime.games.engine_state(game_id)
    seat = engine.to_act(state)
    assert seat is not None
    return runtime.games.submit_move(game_id, seat, engine.legal_moves(state, seat)[0], seq, submission_id).seq


# -- a player's id cannot take the server's ----------------------------------------------------------------------


def test_a_player_sending_the_computers_next_id_does_not_freeze_the_computer_seat(
    runtime: Runtime, clock: SettableClock
) -> None:
    game_id = start_demo(runtime.games, name="Alex", email="you@localhost", bots=3)  # you open the game
    after = play_with_id(runtime, game_id, "bot-1")
    assert after == 1 and runtime.games.current_state(game_id).to_act == 1

    clock.advance(BOT_DELAY)
    assert play_bots(runtime) == 1

    assert runtime.games.current_state(game_id).seq == 2


def test_a_player_sending_the_next_timeout_id_does_not_break_the_hosts_skip(
    runtime: Runtime, new_game: NewGame
) -> None:
    game_id = new_game()
    play_with_id(runtime, game_id, "timeout-1")

    runtime.turn_controls.skip(game_id, actor_email=HOST)

    assert runtime.games.current_state(game_id).seq == 2
    assert last_events(runtime, game_id)[0]["type"] == "timed_out"


def test_a_player_sending_the_next_timeout_id_does_not_break_the_deadline_sweep(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game()
    play_with_id(runtime, game_id, "timeout-1")

    clock.advance(DEADLINE)
    result = runtime.sweep.run(digests=False)

    assert result.timeouts == 1
    assert runtime.games.current_state(game_id).seq == 2


def test_server_moves_carry_unguessable_ids_of_their_own(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game([PEOPLE[0], PlayerSpec("Bot 1", is_bot=True), PlayerSpec("Bot 2", is_bot=True)])
    while runtime.games.current_state(game_id).to_act != 0:
        clock.advance(BOT_DELAY)
        assert play_bots(runtime) == 1
    runtime.turn_controls.skip(game_id, actor_email=HOST)
    clock.advance(BOT_DELAY)
    play_bots(runtime)

    with runtime.db.read() as session:
        rows = session.execute(select(Snapshot.submission_id, Snapshot.source).where(Snapshot.seq > 0)).all()
    server_ids = [sid for sid, source in rows if source == "server"]
    assert len(server_ids) == len(rows) >= 2
    assert all(len(sid.split("-", 2)[2]) >= 16 for sid in server_ids)  # kind, sequence number, a random token


# -- a refused server move waits for the host --------------------------------------------------------------------


def test_a_refused_computer_move_is_not_retried_the_host_is_told_and_skip_moves_on(
    runtime: Runtime, clock: SettableClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = start_demo(runtime.games, name="Alex", email="you@localhost", bots=3)
    play_with_id(runtime, game_id, "you-0")
    monkeypatch.setattr(bots, "bot_move", lambda *args, **kwargs: NOT_A_MOVE)  # a computer player gone wrong

    clock.advance(BOT_DELAY)
    assert play_bots(runtime) == 0
    clock.advance(BOT_LEASE * 10)
    assert due_bot_turns(runtime.db, runtime.clock, BOT_DELAY) == []  # never tried again by itself
    assert play_bots(runtime) == 0

    [notice] = mailbox(runtime, "host_move_refused")
    assert notice.to_address == "you@localhost" and "Bot 1" in notice.body_text and "skip" in notice.body_text
    assert runtime.turn_controls.status(game_id).waiting_for_host
    assert snapshot_count(runtime, game_id) == 2

    runtime.turn_controls.skip(game_id, actor_email="you@localhost")

    timed_out = last_events(runtime, game_id)[0]
    assert (timed_out["type"], timed_out["seat"], timed_out["how"]) == ("timed_out", 1, "auto-pass")
    monkeypatch.undo()
    clock.advance(BOT_DELAY)
    assert play_bots(runtime) == 1  # the next computer seat plays as usual


def test_a_refused_timeout_move_holds_the_turn_for_the_host_instead_of_looping(
    runtime: Runtime, new_game: NewGame, clock: SettableClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = new_game()
    monkeypatch.setattr(timeouts, "timeout_move", lambda *args, **kwargs: NOT_A_MOVE)

    clock.advance(DEADLINE)
    first = runtime.sweep.run(digests=False)
    clock.advance(timedelta(days=3))
    again = runtime.sweep.run(digests=False)

    assert (first.timeouts, first.host_notices) == (0, 1)
    assert again.total == 0
    assert snapshot_count(runtime, game_id) == 1
    assert len(mailbox(runtime, "host_move_refused")) == 1
    assert runtime.turn_controls.status(game_id).waiting_for_host
    with pytest.raises(MoveRefused):
        runtime.turn_controls.skip(game_id, actor_email=HOST)  # refused again: a clear 409, nothing changed
    assert snapshot_count(runtime, game_id) == 1

    monkeypatch.undo()
    runtime.turn_controls.skip(game_id, actor_email=HOST)

    assert snapshot_count(runtime, game_id) == 2
