"""A table's channel whose receiver keeps failing: each notification is tried `max_attempts` times with the backoff
doubling from `retry_base_seconds`, then failed; `switch_off_after` notifications failed in a row switch the channel
off (the host's page says so and the players' pages stop saying the table has one); nothing is sent to it after,
no POST arrives twice for one try, and the game plays on."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from datetime import timedelta

import pytest
from sqlalchemy import select

from pbem.chance import SeededChance
from pbem.clock import SettableClock
from pbem.config import Config
from pbem.models import Notice
from pbem.runtime import Runtime, build_runtime
from tests.support.games import PEOPLE, play, random_move
from tests.support.mail import mailbox
from tests.support.receivers import Receiver, receiver


@pytest.fixture
def loopback(config: Config, clock: SettableClock, chance: SeededChance) -> Iterator[Runtime]:
    allowed = dataclasses.replace(config.notifications, allow_private_addresses=True, timeout_seconds=2)
    built = build_runtime(dataclasses.replace(config, notifications=allowed), clock=clock, chance=chance)
    yield built
    built.close()


@pytest.fixture
def failing() -> Iterator[Receiver]:
    with receiver() as running:
        running.status = 503
        yield running


def switched_off(runtime: Runtime, game_id: str) -> bool:
    channel = runtime.notices.channel(game_id)
    return channel is not None and channel.switched_off


def test_a_channel_that_keeps_failing_is_tried_with_backoff_then_switched_off(
    loopback: Runtime, failing: Receiver, clock: SettableClock
) -> None:
    settings = loopback.config.notifications
    game_id = loopback.games.create_game(title="Test mine", players=PEOPLE, host_email="host@example.org")
    loopback.notices.set_channel(game_id, failing.url("json", "hook"))
    loopback.games.start_game(game_id)
    rng, waited, turns = random.Random(3), timedelta(), 0
    while not switched_off(loopback, game_id) and turns < 10:
        turns += 1
        for attempt in range(1, settings.max_attempts + 1):
            result = loopback.notice_sender().run()
            assert (result.retried, result.failed) == ((1, 0) if attempt < settings.max_attempts else (0, 1))
            pause = loopback.notice_sender().backoff(attempt)
            clock.advance(pause)
            waited += pause if attempt < settings.max_attempts else timedelta()
        seat, move, _ = random_move(loopback, game_id, rng)
        play(loopback, game_id, seat, move)

    channel = loopback.notices.channel(game_id)
    assert channel is not None and channel.failures == settings.switch_off_after == turns == 3
    assert channel.last_error == "127.0.0.1 answered 503"
    assert len(failing.arrived) == settings.max_attempts * settings.switch_off_after == 15
    assert waited == timedelta(seconds=(30 + 60 + 120 + 240) * 3)  # 7.5 minutes of backoff per notification
    assert loopback.channels.place(game_id) is None  # the players' pages no longer say the table has one
    clock.advance(timedelta(hours=1))
    assert loopback.notice_sender().run().sent == 0 and len(failing.arrived) == 15
    with loopback.db.read() as session:
        statuses = list(session.scalars(select(Notice.status).order_by(Notice.id)))
    assert statuses[:3] == ["failed"] * 3 and "sending" not in statuses
    seat, move, _ = random_move(loopback, game_id, rng)
    play(loopback, game_id, seat, move)  # the game goes on


def test_the_host_is_emailed_once_when_the_tables_channel_is_switched_off(
    loopback: Runtime, failing: Receiver, clock: SettableClock
) -> None:
    failing.status = 404  # refused for good: each notification fails at once
    game_id = loopback.games.create_game(title="Test mine", players=PEOPLE, host_email="host@example.org")
    loopback.notices.set_channel(game_id, failing.url("json", "secret-hook-token"))
    loopback.games.start_game(game_id)
    rng = random.Random(5)
    for _ in range(loopback.config.notifications.switch_off_after + 2):
        loopback.notice_sender().run()
        seat, move, _ = random_move(loopback, game_id, rng)
        play(loopback, game_id, seat, move)
    loopback.notice_sender().run()

    told = mailbox(loopback, "host_channel_off")

    assert switched_off(loopback, game_id)
    assert [email.to_address for email in told] == ["host@example.org"]
    body = told[0].body_text
    assert "Test mine" in body and "127.0.0.1 answered 404" in body and f"/host/games/{game_id}" in body
    assert "secret-hook-token" not in body and "secret-hook-token" not in (told[0].body_html or "")
