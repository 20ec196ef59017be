"""A game read again under the same row versions is a copy of what this process read before; any change to the
game, a seat or the clock is read at once; write transactions, and SQLite, always read the rows themselves."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from sqlalchemy import inspect

from pbem.errors import GameNotFound
from pbem.models import Game
from pbem.runtime import Runtime
from pbem.service.row_versions import KIND
from pbem.service.rows import find_game
from tests.support.database import counted
from tests.support.games import play_moves


def read(runtime: Runtime, game_id: str) -> tuple[Game, list[str]]:
    """The game as a fresh read session finds it, and the statements that took."""
    with counted(runtime) as statements, runtime.db.read() as session:
        game = find_game(session, game_id)
        assert inspect(game).session is session
        _ = [seat.game for seat in game.seats], game.clock  # all of it readable, no statement after
    return game, statements


def seen(game: Game) -> tuple[object, ...]:
    """What a page reads of the game, its seats and its clock."""
    clock = game.clock
    return (game.title, game.status, game.paused, game.current_seq, game.options, game.policies,
            tuple((seat.display_name, seat.notify_mode, seat.timezone, seat.last_seen_at) for seat in game.seats),
            None if clock is None else (clock.seq, clock.seat, clock.due_at, clock.extended_seconds))


def is_postgres(runtime: Runtime) -> bool:
    return not runtime.db.is_sqlite


def test_a_game_read_again_under_the_same_versions_is_a_copy_in_one_short_statement(
    runtime: Runtime, new_game: Callable[..., str]
) -> None:
    game_id = new_game()
    first, _ = read(runtime, game_id)

    again, statements = read(runtime, game_id)

    assert seen(again) == seen(first)
    assert again is not first and all(a is not b for a, b in zip(again.seats, first.seats, strict=True))
    assert all(seat.game is again for seat in again.seats)
    assert len(statements) == 1
    if is_postgres(runtime):
        assert "xmin" in statements[0] and "JOIN" not in statements[0].upper()
    else:  # SQLite keeps no row versions: the game is read joined with its seats and clock every time
        assert "JOIN" in statements[0].upper()


def test_a_change_to_a_seat_the_game_or_the_clock_is_read_at_once(
    runtime: Runtime, new_game: Callable[..., str]
) -> None:
    game_id = new_game()
    read(runtime, game_id)

    runtime.seats.set_notify_mode(game_id, 1, "digest")
    after_seat, _ = read(runtime, game_id)
    runtime.turn_controls.pause(game_id, actor_email="host@example.org")
    after_pause, _ = read(runtime, game_id)
    with runtime.db.write() as session:
        clock = find_game(session, game_id).clock
        assert clock is not None
        clock.extended_seconds = 3600
    after_clock, _ = read(runtime, game_id)

    assert after_seat.seats[1].notify_mode == "digest"
    assert after_pause.paused and not after_seat.paused
    assert after_clock.clock is not None and after_clock.clock.extended_seconds == 3600


def test_each_move_is_read_at_once_by_every_later_read(runtime: Runtime, new_game: Callable[..., str]) -> None:
    game_id = new_game()
    rng = random.Random(3)
    for _ in range(4):
        before, _ = read(runtime, game_id)
        play_moves(runtime, game_id, 1, rng)
        after, _ = read(runtime, game_id)
        assert after.current_seq == (before.current_seq or 0) + 1
        assert after.clock is not None and after.clock.seq == after.current_seq


def test_what_one_request_does_to_its_objects_never_reaches_the_next(
    runtime: Runtime, new_game: Callable[..., str]
) -> None:
    game_id = new_game()
    read(runtime, game_id)
    with runtime.db.read() as session:
        mine = find_game(session, game_id)
        mine.seats[0].display_name = "Mallory"
        mine.options["stolen"] = True

    theirs, _ = read(runtime, game_id)

    assert theirs.seats[0].display_name != "Mallory"
    assert "stolen" not in theirs.options


def test_a_write_transaction_reads_the_rows_themselves_and_keeps_nothing(
    runtime: Runtime, new_game: Callable[..., str]
) -> None:
    game_id = new_game()
    runtime.db.memo.clear()

    with counted(runtime) as statements, runtime.db.write() as session:
        find_game(session, game_id)

    assert len(statements) == 1 and "xmin" not in statements[0]
    assert runtime.db.memo.sizes().get(KIND, 0) == 0


def test_a_game_that_is_not_there_is_not_found(runtime: Runtime) -> None:
    with pytest.raises(GameNotFound), runtime.db.read() as session:
        find_game(session, "no-such-game")
