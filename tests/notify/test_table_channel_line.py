"""Players and spectators see that the table has a channel, named by its kind ("a Discord channel"), never its
address; the turn page's side column, drawn once per key, changes when the host sets, removes or the worker switches
off the channel; the host's page shows the channel's failures and that it is switched off."""

from __future__ import annotations

import dataclasses

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update

from pbem.config import Config
from pbem.models import GameChannel
from pbem.notify.naming import place_of
from pbem.runtime import Runtime
from tests.support.receivers import receiver
from tests.support.spectators import spectator_path
from tests.support.web import post, seat_client

LINE = "This table also posts to"


@pytest.fixture
def config(config: Config) -> Config:
    """A test set-up: the channel may be a receiver on this machine."""
    return dataclasses.replace(
        config, notifications=dataclasses.replace(config.notifications, allow_private_addresses=True)
    )


def table_line(client: FlaskClient, game_id: str) -> str | None:
    page = client.get(f"/table/{game_id}").get_data(as_text=True)
    start = page.find('id="table-channel"')
    return page[start:page.index("</p>", start)] if start >= 0 else None


def test_the_turn_page_says_the_table_posts_to_a_channel_and_not_where(
    app: Flask, host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    player = seat_client(app, game_id, 1)
    assert table_line(player, game_id) is None  # drawn once without a channel: the key must notice the change

    with receiver() as hook:
        assert post(host, f"/host/games/{game_id}/channel", url=hook.url("json", "secret-hook-token-x9")).status_code \
            == 303
    line = table_line(player, game_id)

    assert line is not None and f"{LINE} a webhook: whose turn it is, each round's result, game over" in line
    page = player.get(f"/table/{game_id}").get_data(as_text=True)
    assert "127.0.0.1" not in page and "secret-hook-token" not in page and "…x9" not in page


def test_the_line_goes_when_the_channel_is_removed_or_switched_off(
    app: Flask, host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    player = seat_client(app, game_id, 0)
    with receiver() as hook:
        post(host, f"/host/games/{game_id}/channel", url=hook.url("ntfy", "our-table"))
    assert LINE + " an ntfy topic" in (table_line(player, game_id) or "")

    with runtime_of.db.write() as session:
        session.execute(update(GameChannel).values(switched_off_at=runtime_of.clock.now(), failures=3,
                                                   last_error="127.0.0.1 answered 404"))
    assert table_line(player, game_id) is None
    host_page = host.get(f"/host/games/{game_id}").get_data(as_text=True)
    assert "<strong>Switched off</strong>: it kept failing (127.0.0.1 answered 404)" in host_page

    with receiver() as hook:  # given again: switched on
        post(host, f"/host/games/{game_id}/channel", url=hook.url("json", "hook"))
    assert LINE + " a webhook" in (table_line(player, game_id) or "")
    assert post(host, f"/host/games/{game_id}/channel", clear="yes").status_code == 303
    assert table_line(player, game_id) is None


def test_spectators_see_that_the_table_has_a_channel(
    app: Flask, host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    with receiver() as hook:
        post(host, f"/host/games/{game_id}/channel", url=hook.url("json", "secret-hook-token-x9"))
    path = spectator_path(host, game_id)

    page = app.test_client().get(path).get_data(as_text=True)

    assert f"{LINE} a webhook" in page and "secret-hook-token" not in page and "127.0.0.1" not in page


@pytest.mark.parametrize(
    ("shown", "place"),
    [
        ("discord://discord.com/…x9", "a Discord channel"),
        ("matrixs://matrix.example/…om", "a Matrix room"),
        ("ntfys://ntfy.sh/…k3", "an ntfy topic"),
        ("tgram://api.telegram.org/…12", "a Telegram chat"),
        ("jsons://hooks.example/…ok", "a webhook"),
        ("pover://api.pushover.net/…ab", "Pushover"),
        ("lametric://x/…y", "a chat channel"),
    ],
)
def test_a_channel_is_named_by_its_kind_alone(shown: str, place: str) -> None:
    assert place_of(shown) == place
