"""Notifications against real receivers on loopback (tests/support/receivers.py): what arrives, once, for which
event; what is refused and stores nothing; what becomes of a receiver that is down, failing or refusing."""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

import engine
from pbem.cli import main
from pbem.clock import SettableClock
from pbem.config import Config
from pbem.errors import ValidationError
from pbem.models import Game, Notice, NotificationAddress, OutboxMessage, RoundCommitment
from pbem.runtime import Runtime, build_runtime
from pbem.service.turns.values import PlayerSpec
from tests.support.database import dump
from tests.support.games import PEOPLE, play, play_until_turn_of, random_move, seat_to_act, store_game
from tests.support.receivers import Arrived, Receiver, receiver
from tests.support.tables import scramble_hidden

TOKEN = re.compile(r"/play/|token|[A-Za-z0-9_-]{40,}")


@pytest.fixture
def loopback(config: Config, clock: SettableClock, chance) -> Iterator[Runtime]:  # type: ignore[no-untyped-def]
    """The test set-up of the issue: notifications allowed to this machine's own receivers."""
    allowed = dataclasses.replace(config.notifications, allow_private_addresses=True, timeout_seconds=2)
    built = build_runtime(dataclasses.replace(config, notifications=allowed), clock=clock, chance=chance)
    yield built
    built.close()


@pytest.fixture
def hook() -> Iterator[Receiver]:
    with receiver() as running:
        yield running


def new_game_with_channel(runtime: Runtime, url: str) -> str:
    """As `pbem create-game --webhook URL` does: the channel set before the start, so the first turn is told."""
    game_id = runtime.games.create_game(title="Test mine", players=PEOPLE, host_email="host@example.org")
    runtime.notices.set_channel(game_id, url)
    runtime.games.start_game(game_id)
    return game_id


def messages(arrived: list[Arrived]) -> list[str]:
    return [a.json["message"] for a in arrived]


def public_secrets(runtime: Runtime, game_id: str) -> list[str]:
    """Words that must never reach a receiver: salts, records, seat links."""
    with runtime.db.read() as session:
        game = session.scalar(select(Game).where(Game.public_id == game_id))
        assert game is not None
        seals = session.scalars(select(RoundCommitment).where(RoundCommitment.game_id == game.id)).all()
        return [seal.salt for seal in seals] + [invite.link for invite in runtime.games.invites(game_id)]


def test_a_game_with_a_webhook_posts_whose_turn_it_is_once_per_turn(loopback: Runtime, hook: Receiver) -> None:
    game_id = new_game_with_channel(loopback, hook.url("json", "hook"))
    first = loopback.games.current_state(game_id).to_act
    assert first is not None

    assert loopback.notice_sender().run().sent == 1
    assert loopback.notice_sender().run().sent == 0
    seat, move, _ = random_move(loopback, game_id, random.Random(1))
    play(loopback, game_id, seat, move)
    loopback.notice_sender().run()

    names = [person.name for person in PEOPLE]
    second = seat_to_act(loopback, game_id)
    assert [(a.method, a.path) for a in hook.arrived] == [("POST", "/hook")] * 2
    assert messages(hook.arrived) == [
        f"{names[first]}'s turn.\nhttps://pbem.test/table/{game_id}",
        f"{names[second]}'s turn.\nhttps://pbem.test/table/{game_id}",
    ]
    assert {a.json["title"] for a in hook.arrived} == {"Test mine - Saboteur"}
    for secret in public_secrets(loopback, game_id):
        assert secret not in b"".join(a.body for a in hook.arrived).decode()


def test_a_players_ntfy_address_gets_your_turn_in_the_game_and_nothing_secret(
    loopback: Runtime, hook: Receiver
) -> None:
    loopback.notices.add_address("Ben@Example.org", hook.url("ntfy", "ben-phone"))
    game_id = loopback.games.create_game(title="Test mine", players=PEOPLE, host_email="host@example.org")
    loopback.games.start_game(game_id)
    play_until_turn_of(loopback, game_id, 1)
    loopback.notice_sender().run()

    assert hook.arrived, "Ben's turn came and went unannounced"
    last = hook.arrived[-1]
    assert last.path == "/" and last.json["topic"] == "ben-phone" and last.json["title"] == "Test mine - Saboteur"
    assert re.fullmatch(rf"Your turn: play by .+\nhttps://pbem\.test/table/{game_id}", last.json["message"])
    assert not TOKEN.search(last.json["message"])
    for secret in public_secrets(loopback, game_id):
        assert secret not in last.body.decode()


def test_a_turn_already_played_is_not_announced(loopback: Runtime, hook: Receiver) -> None:
    game_id = new_game_with_channel(loopback, hook.url("json", "hook"))
    for _ in range(3):
        seat, move, _ = random_move(loopback, game_id, random.Random(2))
        play(loopback, game_id, seat, move)

    result = loopback.notice_sender().run()

    assert (result.sent, result.dropped) == (1, 3)
    assert len(hook.arrived) == 1


def test_a_players_own_address_waits_for_the_end_of_their_night_the_channel_does_not(
    loopback: Runtime, clock: SettableClock
) -> None:
    clock.set(datetime(2026, 1, 5, 23, 30, tzinfo=UTC))  # the default quiet hours: 22:00-08:00, UTC
    with receiver() as channel, receiver() as phone:
        for person in PEOPLE:
            loopback.notices.add_address(person.email or "", phone.url("ntfy", "phone"))
        new_game_with_channel(loopback, channel.url("json", "table"))
        loopback.notice_sender().run()
        assert (len(channel.arrived), len(phone.arrived)) == (1, 0)
        clock.set(datetime(2026, 1, 6, 8, 0, tzinfo=UTC))
        loopback.notice_sender().run()
        assert (len(channel.arrived), len(phone.arrived)) == (1, 1)


def test_the_twin_with_other_hidden_facts_sends_the_same_bytes(loopback: Runtime) -> None:
    """Two stored games, the same in public and for the seat to act, different in every other hand, the deck and the
    roles: the channel and the next player's phone get the same bytes from both (but for the game's own address)."""
    state = engine.new_game(["Ann", "Ben", "Cat"], seed=5)
    seat = engine.to_act(state)
    assert seat is not None
    move = engine.bots.choose(state, seat, random.Random(3))
    sent: list[list[bytes]] = []
    for twin_state in (state, scramble_hidden(state, seat, random.Random(4))):
        with receiver() as hook:
            for person in PEOPLE:
                loopback.notices.add_address(person.email or "", hook.url("ntfy", "phone"))
            game_id = store_game(loopback, twin_state)
            loopback.notices.set_channel(game_id, hook.url("json", "table"))
            play(loopback, game_id, seat, move)
            loopback.notice_sender().run()
            sent.append([a.body.replace(game_id.encode(), b"GAME") for a in hook.arrived])
        with loopback.db.write() as session:
            for address in session.scalars(select(NotificationAddress)):
                session.delete(address)

    assert len(sent[0]) == 2  # the channel: whose turn; the next player's phone: your turn
    assert sent[0] == sent[1]


def test_the_default_configuration_refuses_a_loopback_channel_and_stores_nothing(
    runtime: Runtime, hook: Receiver
) -> None:
    game_id = runtime.games.create_game(title="Test mine", players=PEOPLE, host_email="host@example.org")
    before = dump(runtime.db)

    with pytest.raises(ValidationError, match="private, local or reserved address"):
        runtime.notices.set_channel(game_id, hook.url("json", "hook"))
    with pytest.raises(ValidationError, match="ftp:// is not a kind this server sends to"):
        runtime.notices.add_address("ann@example.org", "ftp://files.example/x")

    assert dump(runtime.db) == before


def test_create_game_with_a_refused_webhook_creates_nothing(  # type: ignore[no-untyped-def]
    runtime: Runtime, config: Config, tmp_path
) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f'database_url = "{config.database_url}"\ninstance_path = "{config.instance_path}"\n')
    result = CliRunner().invoke(main, [
        "--config", str(path), "create-game", "--title", "Hooked", "--player", "Ann <ann@example.org>",
        "--bots", "2", "--webhook", "json://127.0.0.1:9/hook",
    ])

    assert result.exit_code != 0 and "private, local or reserved address" in result.output
    with runtime.db.read() as session:
        assert session.scalar(select(func.count()).select_from(Game)) == 0


def test_create_game_with_a_webhook_prints_it_masked(  # type: ignore[no-untyped-def]
    loopback: Runtime, config: Config, clock: SettableClock, tmp_path, hook
) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f'database_url = "{config.database_url}"\ninstance_path = "{config.instance_path}"\n'
                    "[notifications]\nallow_private_addresses = true\n")
    url = hook.url("json", "hook-secret-42")
    result = CliRunner().invoke(main, [
        "--config", str(path), "create-game", "--title", "Hooked", "--player", "Ann <ann@example.org>",
        "--bots", "2", "--webhook", url,
    ])

    assert result.exit_code == 0, result.output
    assert "the table's channel: json://127.0.0.1/…42" in result.output and "secret" not in result.output
    clock.set(datetime.now(UTC) + timedelta(minutes=1))  # the command ran on the real clock
    loopback.notice_sender().run()
    assert len(hook.arrived) == 1 and hook.arrived[0].json["title"] == "Hooked - Saboteur"


# -- faults --------------------------------------------------------------------------------------------------


def test_a_receiver_that_is_down_gets_the_notification_once_it_is_back(loopback: Runtime, clock: SettableClock) -> None:
    with receiver() as gone:
        url = gone.url("json", "hook")
    game_id = new_game_with_channel(loopback, url)
    assert loopback.notice_sender().run().retried == 1

    with receiver() as back:  # back, on another port: the host gives the channel's new address
        loopback.notices.set_channel(game_id, back.url("json", "hook"))
        clock.advance(timedelta(minutes=1))
        first = loopback.notice_sender().run()
        clock.advance(timedelta(hours=1))
        again = loopback.notice_sender().run()

    assert (first.sent, again.sent, len(back.arrived)) == (1, 0, 1)


def test_a_5xx_is_retried_with_backoff_and_sent_once(loopback: Runtime, hook: Receiver, clock: SettableClock) -> None:
    hook.status = 503
    game_id = new_game_with_channel(loopback, hook.url("json", "hook"))
    assert loopback.notice_sender().run().retried == 1
    assert loopback.notice_sender().run().retried == 0  # not due yet: the backoff
    clock.advance(timedelta(seconds=30))
    assert loopback.notice_sender().run().retried == 1
    hook.status = 200
    clock.advance(timedelta(seconds=60))
    assert loopback.notice_sender().run().sent == 1
    clock.advance(timedelta(hours=2))
    assert loopback.notice_sender().run().sent == 0

    assert [a.path for a in hook.arrived] == ["/hook"] * 3  # two 503s, one 200
    seat, move, _ = random_move(loopback, game_id, random.Random(5))
    play(loopback, game_id, seat, move)  # the game goes on


def test_an_address_that_keeps_refusing_is_switched_off_and_its_owner_emailed(
    loopback: Runtime, hook: Receiver
) -> None:
    hook.status = 404
    loopback.notices.add_address("ben@example.org", hook.url("ntfy", "gone-topic"))
    game_id = loopback.games.create_game(title="Test mine", players=PEOPLE, host_email="host@example.org")
    loopback.games.start_game(game_id)
    for _ in range(40):
        play_until_turn_of(loopback, game_id, 1)
        loopback.notice_sender().run()
        seat, move, _ = random_move(loopback, game_id, random.Random(6))
        play(loopback, game_id, seat, move)
        if loopback.notices.addresses("ben@example.org")[0].switched_off:
            break

    shown = loopback.notices.addresses("ben@example.org")[0]
    assert shown.switched_off and shown.failures == loopback.config.notifications.switch_off_after
    assert shown.last_error == "127.0.0.1 answered 404"
    assert len(hook.arrived) == loopback.config.notifications.switch_off_after  # each refusal tried once
    with loopback.db.read() as session:
        told = session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "notifications_off")).all()
        assert [(m.to_address, m.subject) for m in told] == [
            ("ben@example.org", "Notifications switched off - Saboteur")
        ]
        assert "gone-topic" not in (told[0].body_text or "")
        assert session.scalar(select(func.count()).select_from(Notice).where(Notice.status == "sending")) == 0
    play_until_turn_of(loopback, game_id, 1)
    assert loopback.notice_sender().run().sent == 0 and len(hook.arrived) == 3


def test_computer_seats_and_people_without_addresses_get_nothing(loopback: Runtime, hook: Receiver) -> None:
    game_id = loopback.games.create_game(
        title="Test mine",
        players=[PlayerSpec("Ann", "ann@example.org"), PlayerSpec("Bo", is_bot=True), PlayerSpec("Cy", is_bot=True)],
        host_email="host@example.org",
    )
    loopback.games.start_game(game_id)
    assert loopback.notice_sender().run().sent == 0 and hook.arrived == []
