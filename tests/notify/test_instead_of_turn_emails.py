"""Notifications instead of turn emails (a seat's notify_mode 'notices'): the turn goes to the player's own address
that takes turns and to no email, nor to the daily email; once every such address is switched off, the seat goes
back to turn emails (the waiting turn emailed at once) and the owner's email says so."""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Iterator

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from pbem.config import Config
from pbem.errors import ValidationError
from pbem.models import OutboxMessage, PlayerPreferences
from pbem.runtime import Runtime, build_runtime
from tests.support.games import PEOPLE, play, play_until_turn_of, random_move
from tests.support.mail import mailbox, unsubscribe_path
from tests.support.receivers import Receiver, receiver

BEN = "ben@example.org"


@pytest.fixture
def config(config: Config) -> Config:
    """The test set-up of the issue: notifications allowed to this machine's own receivers."""
    return dataclasses.replace(
        config, notifications=dataclasses.replace(config.notifications, allow_private_addresses=True,
                                                  timeout_seconds=2)
    )


@pytest.fixture
def phone() -> Iterator[Receiver]:
    with receiver() as running:
        yield running


def turn_emails_to_ben(runtime: Runtime) -> list[int | None]:
    """The snapshots Ben's turn emails were about (each email that is to go, composed as the deliverer would)."""
    return [message.game_seq for message in mailbox(runtime, "your_turn", to=BEN) if message.status != "dropped"]


def next_turn_of_ben(runtime: Runtime, game_id: str, rng: random.Random) -> None:
    """Ben plays (if it is his turn), then the others until it is his turn again."""
    if runtime.games.current_state(game_id).to_act == 1:
        seat, move, _ = random_move(runtime, game_id, rng)
        play(runtime, game_id, seat, move)
    play_until_turn_of(runtime, game_id, 1)


def test_instead_of_turn_emails_the_turn_goes_to_the_address_once_and_no_email(
    runtime: Runtime, new_game, phone: Receiver  # type: ignore[no-untyped-def]
) -> None:
    runtime.notices.add_address(BEN, phone.url("ntfy", "ben-phone"))
    game_id = new_game()
    runtime.seats.set_notify_mode(game_id, 1, "notices")
    before = turn_emails_to_ben(runtime)

    next_turn_of_ben(runtime, game_id, random.Random(1))
    runtime.notice_sender().run()
    runtime.notice_sender().run()

    assert turn_emails_to_ben(runtime) == before
    turns = [a.json["message"] for a in phone.arrived if a.json["message"].startswith("Your turn")]
    assert len(turns) == 1
    assert re.fullmatch(rf"Your turn: play by .+\nhttps://pbem\.test/table/{game_id}", turns[0])


def test_a_seat_in_notices_gets_no_daily_digest_either(
    runtime: Runtime, new_game, phone: Receiver  # type: ignore[no-untyped-def]
) -> None:
    runtime.notices.add_address(BEN, phone.url("ntfy", "ben-phone"))
    game_id = new_game()
    runtime.seats.set_notify_mode(game_id, 1, "notices")
    play_until_turn_of(runtime, game_id, 1)

    runtime.sweep.run()

    assert mailbox(runtime, "daily_digest", to=BEN) == []


def test_the_mode_is_refused_without_a_working_address_for_turns(runtime: Runtime, new_game) -> None:  # type: ignore[no-untyped-def]
    game_id = new_game()

    with pytest.raises(ValidationError, match="need an address of yours that gets your turns"):
        runtime.seats.set_notify_mode(game_id, 1, "notices")

    assert runtime.seats.profile(game_id, 1).notify_mode == "turn"


def test_when_its_last_address_is_switched_off_the_seat_falls_back_to_turn_emails_and_is_told(
    runtime: Runtime, new_game, phone: Receiver  # type: ignore[no-untyped-def]
) -> None:
    phone.status = 404
    runtime.notices.add_address(BEN, phone.url("ntfy", "gone-topic"))
    game_id = new_game()
    runtime.seats.set_notify_mode(game_id, 1, "notices")
    emailed_before = turn_emails_to_ben(runtime)
    rng = random.Random(6)
    for _ in range(runtime.config.notifications.switch_off_after):
        next_turn_of_ben(runtime, game_id, rng)
        assert turn_emails_to_ben(runtime) == emailed_before  # a turn told to the address only
        runtime.notice_sender().run()

    assert runtime.notices.addresses(BEN)[0].switched_off
    assert runtime.seats.profile(game_id, 1).notify_mode == "turn"
    waiting = runtime.games.current_state(game_id).seq
    assert turn_emails_to_ben(runtime) == [*emailed_before, waiting]  # the turn waiting now, emailed once
    [told] = mailbox(runtime, "notifications_off", to=BEN)
    words = " ".join((told.body_text or "").split())
    assert "You had chosen notifications instead of turn emails in Test mine: with no address left that gets your " \
        "turns, you get an email at each of your turns there again" in words
    assert "gone-topic" not in (told.body_text or "")

    next_turn_of_ben(runtime, game_id, rng)
    assert turn_emails_to_ben(runtime) == [*emailed_before, waiting, runtime.games.current_state(game_id).seq]
    assert len(phone.arrived) == runtime.config.notifications.switch_off_after


def test_the_fall_back_also_ends_the_choice_for_all_games(
    runtime: Runtime, new_game, phone: Receiver  # type: ignore[no-untyped-def]
) -> None:
    phone.status = 404
    runtime.notices.add_address(BEN, phone.url("ntfy", "gone-topic"))
    game_id = new_game()
    with runtime.db.write() as session:
        session.add(PlayerPreferences(mailbox=BEN, email=BEN, timezone="UTC", notify_mode="notices",
                                      updated_at=runtime.clock.now()))
    runtime.seats.set_notify_mode(game_id, 1, "notices")
    rng = random.Random(7)
    for _ in range(runtime.config.notifications.switch_off_after):
        next_turn_of_ben(runtime, game_id, rng)
        runtime.notice_sender().run()

    with runtime.db.read() as session:
        row = session.get(PlayerPreferences, BEN)
        assert row is not None and row.notify_mode == "turn"
        assert session.scalars(select(OutboxMessage.kind).where(OutboxMessage.to_address == BEN,
                                                                 OutboxMessage.kind == "notifications_off")).all()


def test_the_unsubscribe_link_says_a_seat_in_notices_gets_no_turn_emails_and_leaves_it_so(
    client: FlaskClient, runtime_of: Runtime, phone: Receiver
) -> None:
    runtime_of.notices.add_address(BEN, phone.url("ntfy", "ben-phone"))
    game_id = runtime_of.games.create_game(title="Test mine", players=list(PEOPLE), host_email="host@example.org")
    runtime_of.games.start_game(game_id)
    runtime_of.seats.set_notify_mode(game_id, 1, "notices")
    path = unsubscribe_path(mailbox(runtime_of, "game_started", to=BEN)[0])

    asked = client.get(path).get_data(as_text=True)
    clicked = client.post(path, data={"List-Unsubscribe": "One-Click"})  # what a mail provider sends

    assert "you already get no turn emails about <strong>Test mine</strong>" in asked
    assert "Switch to a daily digest" not in asked
    assert clicked.status_code == 200 and runtime_of.seats.profile(game_id, 1).notify_mode == "notices"


def test_a_server_that_sends_no_notifications_refuses_them_instead_of_turn_emails(  # type: ignore[no-untyped-def]
    runtime: Runtime, config: Config, clock, chance, new_game
) -> None:
    runtime.notices.add_address(BEN, "json://127.0.0.1:9/phone")  # kept from before the operator switched them off
    game_id = new_game()
    off = dataclasses.replace(config, notifications=dataclasses.replace(config.notifications, enabled=False))
    switched_off = build_runtime(off, clock=clock, chance=chance)
    try:
        with pytest.raises(ValidationError, match="This server sends no notifications"):
            switched_off.seats.set_notify_mode(game_id, 1, "notices")
    finally:
        switched_off.close()

    assert runtime.seats.profile(game_id, 1).notify_mode == "turn"


def test_a_seat_that_chose_notices_before_the_server_stopped_sending_them_is_emailed_its_turns(  # type: ignore[no-untyped-def]
    runtime: Runtime, config: Config, clock, chance, new_game
) -> None:
    runtime.notices.add_address(BEN, "json://127.0.0.1:9/phone")
    game_id = new_game()
    runtime.seats.set_notify_mode(game_id, 1, "notices")  # while the server sent notifications
    off = dataclasses.replace(config, notifications=dataclasses.replace(config.notifications, enabled=False))
    switched_off = build_runtime(off, clock=clock, chance=chance)
    try:
        if switched_off.games.current_state(game_id).to_act == 1:
            seat, move, _ = random_move(switched_off, game_id, random.Random(1))
            play(switched_off, game_id, seat, move)
        play_until_turn_of(switched_off, game_id, 1)
        seq = switched_off.games.current_state(game_id).seq

        assert seq in turn_emails_to_ben(switched_off)
        assert switched_off.seats.profile(game_id, 1).notify_mode == "turn"  # what his page says is so
    finally:
        switched_off.close()
