"""A seat's new holder (the host replaced a player) who has notification addresses of their own hears of their turns
there, in a game where nobody wanted notifications before."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from pbem.chance import SeededChance
from pbem.clock import SettableClock
from pbem.config import Config
from pbem.runtime import Runtime, build_runtime
from pbem.service.host.host_access import HostSession
from pbem.times import format_when
from tests.support.games import PEOPLE, play, random_move, seat_to_act
from tests.support.receivers import Receiver, receiver


@pytest.fixture
def loopback(config: Config, clock: SettableClock, chance: SeededChance) -> Iterator[Runtime]:
    allowed = dataclasses.replace(config.notifications, allow_private_addresses=True)
    built = build_runtime(dataclasses.replace(config, notifications=allowed), clock=clock, chance=chance)
    yield built
    built.close()


@pytest.fixture
def phone() -> Iterator[Receiver]:
    with receiver() as running:
        yield running


def test_a_new_holder_with_an_address_is_told_of_their_turns_in_a_game_that_wanted_none(
    loopback: Runtime, phone: Receiver
) -> None:
    loopback.notices.add_address("dan@example.org", phone.url("json", "dan-phone"), turns=True)
    game_id = loopback.games.create_game(title="Test mine", players=PEOPLE, host_email="host@example.org")
    loopback.games.start_game(game_id)
    assert loopback.games.current_state(game_id).notices_wanted is False
    replaced = (seat_to_act(loopback, game_id) + 1) % len(PEOPLE)

    loopback.moderation.replace_player(game_id, replaced, "Dan", "dan@example.org",
                                       host=HostSession("host@example.org", is_admin=False))
    rng = random.Random(4)
    while seat_to_act(loopback, game_id) != replaced:
        seat, move, _ = random_move(loopback, game_id, rng)
        play(loopback, game_id, seat, move)
    loopback.notice_sender().run()

    assert loopback.games.current_state(game_id).notices_wanted is True
    [told] = phone.arrived
    assert told.json["title"] == "Test mine - Saboteur"
    assert told.json["message"].split("\n") == [
        f"Your turn: play by {deadline_words(loopback, game_id)}", f"https://pbem.test/table/{game_id}"
    ]


def deadline_words(runtime: Runtime, game_id: str) -> str:
    """The deadline of the turn now, as the emails and notifications write it."""
    deadline = runtime.turn_controls.status(game_id).deadline
    assert deadline is not None
    return format_when(deadline)
