"""A seat's settings and profile: how it is emailed, when it last looked, what the table knows of the others."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pbem.errors import GameNotFound, SeatNotFound, ValidationError
from pbem.service.timing.deadlines import turn_deadline
from pbem.service.turns.values import PlayerSpec
from tests.support.database import dump
from tests.support.games import PEOPLE, NewGame


def test_a_seat_starts_with_an_email_every_turn_and_can_switch_to_a_daily_digest(runtime, new_game: NewGame) -> None:
    game_id = new_game()
    assert runtime.seats.profile(game_id, 1).notify_mode == "turn"

    runtime.seats.set_notify_mode(game_id, 1, "digest")

    assert runtime.seats.profile(game_id, 1).notify_mode == "digest"
    assert runtime.seats.profile(game_id, 0).notify_mode == "turn"


def test_an_unknown_notification_mode_is_refused_and_changes_nothing(runtime, new_game: NewGame) -> None:
    game_id = new_game()
    before = dump(runtime.db)

    with pytest.raises(ValidationError):
        runtime.seats.set_notify_mode(game_id, 1, "never")

    assert dump(runtime.db) == before


def test_marking_a_visit_records_the_time(runtime, new_game: NewGame, clock) -> None:
    game_id = new_game()
    assert runtime.seats.profile(game_id, 2).last_seen_at is None
    clock.advance(timedelta(hours=3))

    runtime.seats.mark_seen(game_id, 2)

    assert runtime.seats.profile(game_id, 2).last_seen_at == clock.now()


def test_the_profile_names_the_players_the_computer_seats_and_the_games_policies(runtime, new_game: NewGame) -> None:
    game_id = new_game([*PEOPLE, PlayerSpec("Bot", is_bot=True)], policies={"deadline_hours": 48})

    profile = runtime.seats.profile(game_id, 0)

    assert profile.names == ("Ann", "Ben", "Cat", "Bot")
    assert profile.computer_seats == frozenset({3})
    assert profile.policies["deadline_hours"] == 48


def test_unknown_games_and_seats_are_refused(runtime, new_game: NewGame) -> None:
    game_id = new_game()
    with pytest.raises(GameNotFound):
        runtime.seats.profile("nope", 0)
    with pytest.raises(SeatNotFound):
        runtime.seats.set_notify_mode(game_id, 7, "digest")


def test_a_turn_times_out_after_the_policys_hours_or_never() -> None:
    started = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)

    assert turn_deadline(started, {"deadline_hours": 72}) == started + timedelta(hours=72)
    assert turn_deadline(started, {"deadline_hours": None}) is None
    assert turn_deadline(None, {"deadline_hours": 72}) is None
