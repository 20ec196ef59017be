"""Computer players move through the game service, a few seconds after their turn comes, exactly once."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from datetime import timedelta

from sqlalchemy import select, update

from pbem.clock import SettableClock
from pbem.models import Game, Snapshot
from pbem.runtime import Runtime
from pbem.service.bots import BOT_LEASE, claim, due_bot_turns, play_due_bot_turns
from pbem.service.games import PlayerSpec
from tests.conftest import PEOPLE, random_move

DELAY = timedelta(seconds=3)
BOTS = [PlayerSpec(f"Bot {n}", is_bot=True) for n in (1, 2, 3)]


def play_bots(runtime: Runtime) -> int:
    return play_due_bot_turns(runtime.db, runtime.clock, runtime.games, DELAY)


def seqs(runtime: Runtime) -> list[int]:
    with runtime.db.read() as session:
        return list(session.scalars(select(Snapshot.seq).order_by(Snapshot.seq)))


def test_a_computer_player_waits_for_the_delay_then_moves_once(
    runtime: Runtime, new_game: Callable[..., str], clock: SettableClock
) -> None:
    game_id = new_game(BOTS)

    clock.advance(DELAY - timedelta(seconds=1))
    assert play_bots(runtime) == 0
    clock.advance(timedelta(seconds=1))
    assert play_bots(runtime) == 1
    assert play_bots(runtime) == 0  # the next computer's turn has only just come

    latest = runtime.games.history(game_id)[-1]
    assert seqs(runtime) == [0, 1] and latest.lines


def test_computer_players_play_a_whole_game_as_time_passes(
    runtime: Runtime, new_game: Callable[..., str], clock: SettableClock
) -> None:
    game_id = new_game(BOTS)

    while runtime.games.current_state(game_id).status == "active":
        clock.advance(DELAY)
        assert play_bots(runtime) == 1

    assert runtime.games.current_state(game_id).scores is not None


def test_people_and_paused_games_are_left_alone(
    runtime: Runtime, new_game: Callable[..., str], clock: SettableClock
) -> None:
    people_only = new_game(PEOPLE)
    paused = new_game(BOTS)
    with runtime.db.write() as session:
        session.execute(update(Game).where(Game.public_id == paused).values(paused=True))
    clock.advance(timedelta(hours=1))

    assert due_bot_turns(runtime.db, clock, DELAY) == []
    assert play_bots(runtime) == 0
    assert runtime.games.current_state(people_only).seq == 0


def test_a_human_move_hands_the_turn_to_a_computer(
    runtime: Runtime, new_game: Callable[..., str], clock: SettableClock
) -> None:
    game_id = new_game([PEOPLE[0], *BOTS[:2]])
    while runtime.games.current_state(game_id).to_act != 0:
        clock.advance(DELAY)
        play_bots(runtime)
    seat, move, seq = random_move(runtime, game_id, random.Random(1))
    runtime.games.submit_move(game_id, seat, move, seq, "human")

    clock.advance(DELAY)

    assert [turn.seq for turn in due_bot_turns(runtime.db, clock, DELAY)] == [seq + 1]
    assert play_bots(runtime) == 1


def test_a_claimed_turn_cannot_be_claimed_again_until_the_lease_runs_out(
    runtime: Runtime, new_game: Callable[..., str], clock: SettableClock
) -> None:
    new_game(BOTS)
    clock.advance(DELAY)
    [turn] = due_bot_turns(runtime.db, clock, DELAY)

    assert claim(runtime.db, clock, turn) is True
    assert claim(runtime.db, clock, turn) is False
    assert due_bot_turns(runtime.db, clock, DELAY) == []
    clock.advance(BOT_LEASE)
    assert claim(runtime.db, clock, turn) is True


def test_two_schedulers_at_the_same_moment_play_each_turn_once(
    runtime: Runtime, new_game: Callable[..., str], clock: SettableClock
) -> None:
    for _ in range(4):
        new_game(BOTS)
    clock.advance(DELAY)
    barrier = threading.Barrier(2)
    played: list[int] = []

    def scheduler() -> None:
        barrier.wait(30)
        played.append(play_bots(runtime))

    threads = [threading.Thread(target=scheduler) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sum(played) == 4
    with runtime.db.read() as session:
        assert session.scalars(select(Game.current_seq)).all() == [1, 1, 1, 1]


def test_a_stale_claim_plays_nothing(runtime: Runtime, new_game: Callable[..., str], clock: SettableClock) -> None:
    new_game(BOTS)
    clock.advance(DELAY)
    [turn] = due_bot_turns(runtime.db, clock, DELAY)
    assert play_bots(runtime) == 1

    assert claim(runtime.db, clock, turn) is False
