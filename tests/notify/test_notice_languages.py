"""Each notification in its reader's language, with the very words of that reader's email: a player's own address in
the seat's language, the game's channel in the game's."""

from __future__ import annotations

import pytest

from pbem.runtime import Runtime
from tests.support.games import NewGame, play_until_turn_of
from tests.support.notices import give_addresses, give_channel, queued, read_by

pytestmark = pytest.mark.usefixtures("compiled_catalogues")


def test_a_german_players_own_address_hears_of_their_turn_in_german(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game(start=False, language="ko")  # a Korean game, where Ann chose German and Ben English
    runtime.seat_languages.choose(game_id, 0, "de")
    runtime.seat_languages.choose(game_id, 1, "en")
    give_channel(runtime, game_id)
    give_addresses(runtime, ["ann@example.org", "ben@example.org"])
    runtime.games.start_game(game_id)
    play_until_turn_of(runtime, game_id, 0)
    play_until_turn_of(runtime, game_id, 1)

    notices = queued(runtime, game_id)
    anns = [n.body.splitlines()[0] for n in read_by(notices, "ann@example.org") if n.to != "channel"]
    bens = [n.body.splitlines()[0] for n in read_by(notices, "ben@example.org") if n.to != "channel"]
    channel = [n.body.splitlines()[0] for n in notices if n.to == "channel"]

    assert anns and all(line.startswith("Du bist am Zug") for line in anns), anns
    assert bens and all(line.startswith("Your turn") for line in bens), bens
    assert "Ann 님 차례예요." in channel and "Ben 님 차례예요." in channel, channel


def test_a_reminder_to_a_german_players_address_is_german(runtime: Runtime, new_game: NewGame) -> None:
    game_id = new_game(start=False)
    for seat in range(3):
        runtime.seat_languages.choose(game_id, seat, "de")
    give_addresses(runtime, ["ann@example.org", "ben@example.org", "cat@example.org"])
    runtime.games.start_game(game_id)
    to_act = runtime.games.current_state(game_id).to_act
    assert to_act is not None

    runtime.turn_controls.nudge(game_id, to_act, actor_email="host@example.org")

    nudges = [n.body.splitlines()[0] for n in queued(runtime, game_id) if n.kind == "nudge"]
    assert nudges and all(line.startswith("Die Spielleitung stupst dich an: Du bist seit ") for line in nudges)
