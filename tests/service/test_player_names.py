"""A player's name is a name, never a word the game's messages use for people: "You chooses first" and
"You (you)" cannot happen. Such a name is refused when the game is made, with a clear message, and nothing is made."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from pbem.errors import ValidationError
from pbem.models import Game, Joiner, Seat
from pbem.runtime import Runtime
from pbem.service.host.host_access import HostSession
from pbem.service.host.invite_views import InviteSettings
from pbem.service.turns.bots import start_demo
from pbem.service.turns.values import PlayerSpec
from tests.support.games import link_token


@pytest.mark.parametrize("name", ["You", "you", " YOU ", "Someone", "yourself"])
def test_a_name_the_games_words_use_for_people_is_refused_and_nothing_is_made(runtime: Runtime, name: str) -> None:
    players = [PlayerSpec(name, "a@example.org"), PlayerSpec("Bo", "b@example.org"), PlayerSpec("Cy", "c@example.org")]

    with pytest.raises(ValidationError, match="cannot be a player's name"):
        runtime.games.create_game(title="Mine", players=players, host_email="host@example.org")

    with runtime.db.read() as session:
        assert session.scalar(select(func.count()).select_from(Game)) == 0


def test_a_name_that_merely_contains_the_word_is_a_name(runtime: Runtime) -> None:
    players = [PlayerSpec("Youssef", "a@example.org"), PlayerSpec("Yours Truly", "b@example.org"),
               PlayerSpec("Cy", "c@example.org")]

    game_id = runtime.games.create_game(title="Mine", players=players, host_email="host@example.org")

    assert game_id


def test_the_demo_refuses_you_as_a_name(runtime: Runtime) -> None:
    with pytest.raises(ValidationError, match="cannot be a player's name"):
        start_demo(runtime.games, name="You", email="you@localhost", bots=2)


def test_a_replacement_player_may_not_be_called_by_such_a_word(runtime: Runtime, new_game) -> None:
    game_id = new_game()
    host = HostSession("host@example.org", is_admin=False)

    with pytest.raises(ValidationError, match="cannot be a player's name"):
        runtime.moderation.replace_player(game_id, 1, "YOU", "dan@example.org", host=host)

    with runtime.db.read() as session:
        assert session.scalar(select(Seat.display_name).where(Seat.seat_index == 1)) != "YOU"


def test_joining_by_the_shared_link_refuses_such_a_name(runtime: Runtime) -> None:
    host = HostSession("host@example.org", False)
    invite_id = runtime.invites.create(host, InviteSettings(
        title="Open mine", variant="base", options=None, policies={}, places=3, bots=0, seat_order="joined",
        auto_start=False, players_may_rematch=False, host_name=None,
    ))
    token = link_token(runtime.invites.detail(invite_id, host).link)

    with pytest.raises(ValidationError, match="cannot be a player's name"):
        runtime.invites.join(token, "Nobody", "sam@example.org", "Europe/Paris", "127.0.0.1")

    with runtime.db.read() as session:
        assert session.scalar(select(func.count()).select_from(Joiner)) == 0
