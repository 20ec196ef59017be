"""Computer players move through the game service, a few seconds after their turn comes, exactly once,
deciding from what their seat may know; a demo game of one person against them plays to its end."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from datetime import timedelta

import pytest
from sqlalchemy import select, update

import engine
from pbem.clock import SettableClock
from pbem.models import Game, Snapshot
from pbem.runtime import Runtime
from pbem.service.events import is_visible
from pbem.service.turns.bots import (
    BOT_LEASE,
    bot_move,
    claim,
    due_bot_turns,
    seat_events,
    start_demo,
)
from pbem.service.turns.values import PlayerSpec
from tests.support.games import BOT_DELAY, PEOPLE, play_bots, random_move
from tests.support.mail import mailbox
from tests.support.tables import scramble_hidden

BOTS = [PlayerSpec(f"Bot {n}", is_bot=True) for n in (1, 2, 3)]


def seqs(runtime: Runtime) -> list[int]:
    with runtime.db.read() as session:
        return list(session.scalars(select(Snapshot.seq).order_by(Snapshot.seq)))


def test_a_computer_player_waits_for_the_delay_then_moves_once(
    runtime: Runtime, new_game: Callable[..., str], clock: SettableClock
) -> None:
    game_id = new_game(BOTS)

    clock.advance(BOT_DELAY - timedelta(seconds=1))
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
        clock.advance(BOT_DELAY)
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

    assert due_bot_turns(runtime.db, clock, BOT_DELAY) == []
    assert play_bots(runtime) == 0
    assert runtime.games.current_state(people_only).seq == 0


def test_a_human_move_hands_the_turn_to_a_computer(
    runtime: Runtime, new_game: Callable[..., str], clock: SettableClock
) -> None:
    game_id = new_game([PEOPLE[0], *BOTS[:2]])
    while runtime.games.current_state(game_id).to_act != 0:
        clock.advance(BOT_DELAY)
        play_bots(runtime)
    seat, move, seq = random_move(runtime, game_id, random.Random(1))
    runtime.games.submit_move(game_id, seat, move, seq, "human")

    clock.advance(BOT_DELAY)

    assert [turn.seq for turn in due_bot_turns(runtime.db, clock, BOT_DELAY)] == [seq + 1]
    assert play_bots(runtime) == 1


def test_a_claimed_turn_cannot_be_claimed_again_until_the_lease_runs_out(
    runtime: Runtime, new_game: Callable[..., str], clock: SettableClock
) -> None:
    new_game(BOTS)
    clock.advance(BOT_DELAY)
    [turn] = due_bot_turns(runtime.db, clock, BOT_DELAY)

    assert claim(runtime.db, clock, turn) is True
    assert claim(runtime.db, clock, turn) is False
    assert due_bot_turns(runtime.db, clock, BOT_DELAY) == []
    clock.advance(BOT_LEASE)
    assert claim(runtime.db, clock, turn) is True


def test_two_schedulers_at_the_same_moment_play_each_turn_once(
    runtime: Runtime, new_game: Callable[..., str], clock: SettableClock
) -> None:
    for _ in range(4):
        new_game(BOTS)
    clock.advance(BOT_DELAY)
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
    clock.advance(BOT_DELAY)
    [turn] = due_bot_turns(runtime.db, clock, BOT_DELAY)
    assert play_bots(runtime) == 1

    assert claim(runtime.db, clock, turn) is False


# -- what a computer player may know ---------------------------------------------------------------


def stored_events(runtime: Runtime, game_id: str) -> list[dict]:
    """Every event of the game as stored, private ones of every seat included, oldest first."""
    with runtime.db.read() as session:
        rows = session.scalars(
            select(Snapshot.events).join(Game).where(Game.public_id == game_id).order_by(Snapshot.seq)
        )
        return [event for events in rows for event in events]


def test_a_computer_sees_the_events_of_its_seat_only(
    runtime: Runtime, new_game: Callable[..., str], clock: SettableClock
) -> None:
    game_id = new_game(BOTS)
    for _ in range(12):
        clock.advance(BOT_DELAY)
        play_bots(runtime)
    _state, seq = runtime.games.engine_state(game_id)
    everything = stored_events(runtime, game_id)

    with runtime.db.read() as session:
        game_pk = session.scalars(select(Game.id).where(Game.public_id == game_id)).one()
        dealt = session.scalars(select(Snapshot.events).where(Snapshot.seq == 0)).one()
        for seat in range(len(BOTS)):
            seen = seat_events(session, game_pk, seat, seq)

            assert seen == [event for event in everything if is_visible(event, seat)]
            assert any(event["audience"] == [seat] for event in seen)  # its own role, at least
            assert all(event["audience"] in ("public", [seat]) for event in seen)
        assert seat_events(session, game_pk, 0, 0) == [event for event in dealt if is_visible(event, 0)]


@pytest.mark.parametrize(("variant", "players"), [("base", 4), ("base", 8), ("saboteur2", 3), ("saboteur2", 11)])
def test_what_is_hidden_from_a_computer_seat_does_not_change_its_move(variant: str, players: int) -> None:
    """Games that differ only in what the seat cannot know (other hands and roles, the pile, unseen goals,
    others' gold), with every seat's private events passed in, give the same, legal move."""
    rnd = random.Random(players)
    state = engine.new_game([f"P{n}" for n in range(players)], seed=players, variant=variant)
    log: list[dict] = []
    decisions = 0
    while not engine.is_over(state):
        seat = engine.to_act(state)
        assert seat is not None
        move = bot_move(state, seat, 77, log)
        if decisions % 3 == 0:
            assert move in engine.legal_moves(state, seat)
            assert bot_move(scramble_hidden(state, seat, rnd), seat, 77, log) == move
            assert bot_move(state, seat, 77, [e for e in log if is_visible(e, seat)]) == move
        state, events = engine.apply_move(state, seat, move)
        log += events
        decisions += 1
    assert decisions > 30


def test_a_computer_judges_the_other_seats_by_the_events_it_is_given() -> None:
    """Suspicion comes from public events: the same table with and without the round's events plays
    differently somewhere, so the service must (and does) hand them over."""
    state = engine.new_game([f"P{n}" for n in range(6)], seed=3)
    log: list[dict] = []
    differing = 0
    while not engine.is_over(state):
        seat = engine.to_act(state)
        assert seat is not None
        move = bot_move(state, seat, 5, log)
        differing += bot_move(state, seat, 5) != move
        state, events = engine.apply_move(state, seat, move)
        log += events

    assert differing > 0


# -- the demo: you against computer players ---------------------------------------------------------


def test_a_demo_game_of_one_person_against_computer_players_plays_to_its_end_through_the_service(
    runtime: Runtime, clock: SettableClock
) -> None:
    game_id = start_demo(runtime.games, name="Alex", email="you@localhost", bots=4)
    script = random.Random(2)  # the person's choices: any move the turn page offers

    while (now := runtime.games.current_state(game_id, 0)).status == "active":
        if now.to_act == 0:
            assert now.seq is not None
            runtime.games.submit_move(game_id, 0, script.choice(now.legal_moves), now.seq, f"you-{now.seq}")
        else:
            clock.advance(BOT_DELAY)
            assert play_bots(runtime) == 1

    state, last = runtime.games.engine_state(game_id)
    scores = runtime.games.current_state(game_id, 0).scores
    assert scores == engine.scores(state) and len(scores) == 5 and sum(scores) > 0
    assert len(state.results) == 3
    with runtime.db.read() as session:
        moves = session.execute(
            select(Snapshot.actor_seat, Snapshot.submission_id, Snapshot.source)
            .where(Snapshot.seq > 0)
            .order_by(Snapshot.seq)
        ).all()
    assert len(moves) == last
    # each decision taken on snapshot `before`: yours from the script, the others' by the bot job (the server's own)
    for before, (actor, sid, source) in enumerate(moves):
        if actor == 0:
            assert (sid, source) == (f"you-{before}", "player")
        else:
            assert sid.startswith(f"bot-{before}-") and source == "server"
    assert {actor for actor, _, _ in moves} == set(range(5))
    [over] = mailbox(runtime, "game_over")
    assert over.to_address == "you@localhost"
    assert f"Alex (you){' (winner)' if scores[0] == max(scores) else ''}: {scores[0]} nugget" in over.body_text
    assert {row.to_address for row in mailbox(runtime)} == {"you@localhost"}  # computers get no mail
