"""Reminders to a player's own addresses that take turns: the sweep's ladder, its warning before the deadline and the
host's nudge each reach them once, in the reminder email's own words, never in the player's quiet hours, and not
at all once the turn was played; with notifications instead of turn emails the ladder sends no email."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from pbem.clock import SettableClock
from pbem.config import Config
from pbem.runtime import Runtime
from tests.support.games import play, play_until_turn_of, random_move
from tests.support.mail import mailbox
from tests.support.receivers import Receiver, receiver

BEN = "ben@example.org"
HOST = "host@example.org"


@pytest.fixture
def config(config: Config) -> Config:
    return dataclasses.replace(
        config, notifications=dataclasses.replace(config.notifications, allow_private_addresses=True,
                                                  timeout_seconds=2)
    )


@pytest.fixture
def phone() -> Iterator[Receiver]:
    with receiver() as running:
        yield running


def reminders(phone: Receiver) -> list[str]:
    """What reached the phone, but for "your turn" itself."""
    return [a.json["message"] for a in phone.arrived if not a.json["message"].startswith("Your turn")]


def bens_turn(runtime: Runtime, new_game, phone: Receiver, *, results: bool = False) -> str:  # type: ignore[no-untyped-def]
    runtime.notices.add_address(BEN, phone.url("ntfy", "ben-phone"), results=results)
    game_id = new_game()
    play_until_turn_of(runtime, game_id, 1)
    runtime.notice_sender().run()
    return str(game_id)


def test_the_ladder_and_the_warning_reach_the_address_once_each_never_at_night(
    runtime: Runtime, new_game, phone: Receiver, clock: SettableClock  # type: ignore[no-untyped-def]
) -> None:
    game_id = bens_turn(runtime, new_game, phone)  # Monday 09:00; the deadline Thursday 09:00
    arrived: list[tuple[datetime, str]] = []
    for _ in range(71):  # the scheduler's sweep and worker, each hour until the deadline's eve
        clock.advance(timedelta(hours=1))
        runtime.sweep.run()
        runtime.notice_sender().run()
        arrived += [(clock.now(), line) for line in reminders(phone)[len(arrived):]]

    table = f"\nhttps://pbem.test/table/{game_id}"
    assert [line for _, line in arrived] == [
        f"Reminder: your turn since yesterday{table}",  # Tuesday 09:00
        f"Reminder: your turn since Monday{table}",  # Wednesday 09:00
        f"Time is nearly up: 11 hours left for your turn{table}",  # Wednesday 22:00, before the night
    ]
    assert all(8 <= when.hour < 22 for when, _ in arrived)  # the default quiet hours, 22:00-08:00 UTC
    assert len(mailbox(runtime, "turn_reminder", to=BEN)) == 2
    assert len(mailbox(runtime, "deadline_warning", to=BEN)) == 1


def test_the_hosts_nudge_reaches_the_address_once_without_its_note(
    runtime: Runtime, new_game, phone: Receiver, clock: SettableClock  # type: ignore[no-untyped-def]
) -> None:
    game_id = bens_turn(runtime, new_game, phone)
    clock.advance(timedelta(hours=2))

    runtime.turn_controls.nudge(game_id, 1, actor_email=HOST, note="Ben, the pub quiz is at eight")
    runtime.notice_sender().run()
    runtime.notice_sender().run()

    assert reminders(phone) == [f"The host nudges you: your turn since 09:00\nhttps://pbem.test/table/{game_id}"]
    assert "pub quiz" not in b"".join(a.body for a in phone.arrived).decode()


def test_a_nudge_in_the_players_night_waits_for_its_end(
    runtime: Runtime, new_game, phone: Receiver, clock: SettableClock  # type: ignore[no-untyped-def]
) -> None:
    game_id = bens_turn(runtime, new_game, phone)
    clock.set(datetime(2026, 1, 5, 23, 30, tzinfo=UTC))  # the default quiet hours: 22:00-08:00, UTC

    runtime.turn_controls.nudge(game_id, 1, actor_email=HOST)
    runtime.notice_sender().run()
    assert reminders(phone) == []
    assert len(mailbox(runtime, "nudge", to=BEN)) == 1  # the email goes at once, as before

    clock.set(datetime(2026, 1, 6, 8, 0, tzinfo=UTC))
    runtime.notice_sender().run()
    assert len(reminders(phone)) == 1


def test_a_reminder_of_a_turn_played_meanwhile_is_dropped(
    runtime: Runtime, new_game, phone: Receiver, clock: SettableClock  # type: ignore[no-untyped-def]
) -> None:
    game_id = bens_turn(runtime, new_game, phone)
    clock.set(datetime(2026, 1, 5, 23, 30, tzinfo=UTC))
    runtime.turn_controls.nudge(game_id, 1, actor_email=HOST)  # held until 08:00

    seat, move, _ = random_move(runtime, game_id, random.Random(3))
    assert seat == 1
    play(runtime, game_id, seat, move)
    clock.set(datetime(2026, 1, 6, 8, 0, tzinfo=UTC))
    result = runtime.notice_sender().run()

    assert reminders(phone) == [] and result.dropped >= 1


def test_with_notifications_instead_the_ladder_sends_the_address_and_no_email(
    runtime: Runtime, new_game, phone: Receiver, clock: SettableClock  # type: ignore[no-untyped-def]
) -> None:
    game_id = bens_turn(runtime, new_game, phone)
    runtime.seats.set_notify_mode(game_id, 1, "notices")

    clock.advance(timedelta(hours=24))
    runtime.sweep.run()
    runtime.notice_sender().run()

    assert len(reminders(phone)) == 1
    assert mailbox(runtime, "turn_reminder", to=BEN) == []


def test_an_address_for_results_only_gets_no_reminder(
    runtime: Runtime, new_game, phone: Receiver, clock: SettableClock  # type: ignore[no-untyped-def]
) -> None:
    runtime.notices.add_address(BEN, phone.url("ntfy", "ben-results"), turns=False, results=True)
    game_id = new_game()
    play_until_turn_of(runtime, game_id, 1)

    clock.advance(timedelta(hours=2))
    runtime.turn_controls.nudge(game_id, 1, actor_email=HOST)
    runtime.notice_sender().run()

    assert reminders(phone) == []
