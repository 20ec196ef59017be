"""The host's turn controls: pause and resume (the clock resumes where it stopped), extend, nudge, skip,
auto-pass for an absent seat, the status the host page shows, and handing a seat over."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from pbem.clock import SettableClock
from pbem.errors import (
    AlreadyPaused,
    GameNotFound,
    GamePaused,
    NoPendingTurn,
    NotPaused,
    NudgeTooSoon,
    SeatNotFound,
    ValidationError,
)
from pbem.models import ChatMessage, Game, HostAction, Seat
from pbem.runtime import Runtime
from pbem.service.turns.turn_controls import hand_over
from tests.support.database import at
from tests.support.games import NewGame, seat_to_act
from tests.support.mail import mailbox

HOST = "host@example.org"


def audit(runtime: Runtime) -> list[str]:
    with runtime.db.read() as session:
        return list(session.scalars(select(HostAction.action).order_by(HostAction.id)))


def host_lines(runtime: Runtime) -> list[str]:
    with runtime.db.read() as session:
        return list(session.scalars(
            select(ChatMessage.text).where(ChatMessage.system_kind == "host").order_by(ChatMessage.id)
        ))


def test_a_paused_game_sends_no_reminders_and_applies_no_deadline_and_resumes_where_its_clock_stopped(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game()
    clock.set(at(0, 21))  # 12 hours of the turn have run

    runtime.turn_controls.pause(game_id, actor_email=HOST)
    clock.set(at(10, 9))
    paused = runtime.sweep.run()
    runtime.turn_controls.resume(game_id, actor_email=HOST)

    assert (paused.reminders, paused.timeouts) == (0, 0)
    assert runtime.turn_controls.status(game_id).deadline == at(10, 9) + timedelta(hours=60)
    clock.set(at(10, 20))
    assert runtime.sweep.run().reminders == 0
    clock.set(at(10, 21))  # 24 hours of the turn have now run
    assert runtime.sweep.run().reminders == 1
    assert audit(runtime)[-2:] == ["pause", "resume"]
    assert host_lines(runtime) == ["The host paused the game.", "The host resumed the game."]


def test_pausing_twice_or_resuming_a_running_game_is_refused(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()
    with pytest.raises(NotPaused):
        runtime.turn_controls.resume(game_id, actor_email=HOST)
    runtime.turn_controls.pause(game_id, actor_email=HOST)
    with pytest.raises(AlreadyPaused):
        runtime.turn_controls.pause(game_id, actor_email=HOST)
    assert audit(runtime).count("pause") == 1


def test_extending_the_deadline_moves_it_by_whole_hours(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()

    runtime.turn_controls.extend_deadline(game_id, 24, actor_email=HOST)

    assert runtime.turn_controls.status(game_id).deadline == at(4, 9)
    for bad in (0, -3, 10_000, "12"):
        with pytest.raises(ValidationError):
            runtime.turn_controls.extend_deadline(game_id, bad, actor_email=HOST)  # type: ignore[arg-type]
    assert runtime.turn_controls.status(game_id).deadline == at(4, 9)


def test_extending_after_a_notify_host_deadline_gives_the_player_more_time(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game(policies={"timeout_policy": "notify-host", "deadline_hours": 24})
    clock.set(at(1, 9))
    runtime.sweep.run()
    assert runtime.turn_controls.status(game_id).waiting_for_host

    runtime.turn_controls.extend_deadline(game_id, 12, actor_email=HOST)

    status = runtime.turn_controls.status(game_id)
    assert not status.waiting_for_host and status.deadline == at(1, 21)


def test_a_nudge_sends_a_reminder_now_and_at_most_once_an_hour(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game()
    seat = seat_to_act(runtime, game_id)

    runtime.turn_controls.nudge(game_id, seat, actor_email=HOST)
    clock.advance(timedelta(minutes=59))
    with pytest.raises(NudgeTooSoon):
        runtime.turn_controls.nudge(game_id, seat, actor_email=HOST)
    clock.advance(timedelta(minutes=1))
    runtime.turn_controls.nudge(game_id, seat, actor_email=HOST)

    nudges = mailbox(runtime, "nudge")
    assert len(nudges) == 2 and "reminder 1 of" not in nudges[0].body_text
    with pytest.raises(NoPendingTurn):
        runtime.turn_controls.nudge(game_id, (seat + 1) % 3, actor_email=HOST)
    with pytest.raises(SeatNotFound):
        runtime.turn_controls.nudge(game_id, 7, actor_email=HOST)


def test_skip_applies_the_timeout_move_now(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()
    seat = seat_to_act(runtime, game_id)
    name = runtime.games.current_state(game_id).players[seat]

    runtime.turn_controls.skip(game_id, actor_email=HOST)

    [entry] = runtime.games.history(game_id)
    assert entry.actor == seat and entry.lines[0].startswith(f"{name} ran out of time")
    assert audit(runtime)[-1] == "skip"


def test_skipping_a_paused_game_is_refused(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game()
    runtime.turn_controls.pause(game_id, actor_email=HOST)

    with pytest.raises(GamePaused):
        runtime.turn_controls.skip(game_id, actor_email=HOST)

    assert runtime.games.history(game_id) == []


def test_auto_pass_lets_the_seats_turns_pass_at_once_until_it_is_switched_off(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game()
    seat = seat_to_act(runtime, game_id)

    runtime.turn_controls.let_auto_pass(game_id, seat, True, actor_email=HOST)
    clock.advance(timedelta(minutes=1))
    assert runtime.sweep.run().timeouts == 1
    assert runtime.turn_controls.status(game_id).seats[seat].auto_pass

    runtime.turn_controls.let_auto_pass(game_id, seat, False, actor_email=HOST)
    assert not runtime.turn_controls.status(game_id).seats[seat].auto_pass
    with pytest.raises(ValidationError):
        runtime.turn_controls.let_auto_pass(game_id, seat, "yes", actor_email=HOST)  # type: ignore[arg-type]


def test_the_status_names_whose_turn_since_when_and_the_deadline(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game()
    seat = seat_to_act(runtime, game_id)
    clock.set(at(1, 10))
    runtime.sweep.run()

    status = runtime.turn_controls.status(game_id)

    assert (status.to_act, status.waiting_since, status.reminders_sent, status.deadline, status.paused) == (
        seat, at(0, 9), 1, at(3, 9), False,
    )
    assert [row.name for row in status.seats] == ["Ann", "Ben", "Cat"]


def test_handing_a_seat_over_clears_the_old_players_timeouts_absence_and_away_time(
    runtime: Runtime, new_game: NewGame, clock: SettableClock
) -> None:
    game_id = new_game()
    seat = seat_to_act(runtime, game_id)
    runtime.presence.set_away(game_id, seat, at(2, 8).date())
    with runtime.db.write() as session:
        row = session.scalars(
            select(Seat).join(Game).where(Game.public_id == game_id, Seat.seat_index == seat)
        ).one()
        row.timeouts_in_row, row.absent, row.auto_pass = 2, True, True

        hand_over(session, row, clock.now())

    status = runtime.turn_controls.status(game_id)
    assert status.seats[seat].timeouts_in_row == 0 and not status.seats[seat].absent
    assert status.seats[seat].away_until is None and status.deadline == at(3, 9)


def test_controls_on_an_unknown_or_unstarted_game_are_refused(runtime: Runtime, new_game: NewGame) -> None:
    with pytest.raises(GameNotFound):
        runtime.turn_controls.pause("no-such-game", actor_email=HOST)
    game_id = new_game(start=False)
    with pytest.raises(NoPendingTurn):
        runtime.turn_controls.skip(game_id, actor_email=HOST)
