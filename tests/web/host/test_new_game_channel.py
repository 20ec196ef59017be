"""The table's channel given with the game on the new-game form: checked by the host page's rules, refused beside its
field with nothing made (no game, no email), else set in the unit of work that makes the game, so its first turn is
told; kept by a game joined by link until it starts, by a rematch, and by a new game copied from an earlier one."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from pbem.chance import SeededChance
from pbem.clock import SettableClock
from pbem.config import Config, NotificationsConfig
from pbem.models import Game, GameChannel, Invite, Notice
from pbem.runtime import Runtime
from tests.support.database import dump
from tests.support.invites import create_invite, invite_form, joined_and_confirmed, share_link
from tests.support.receivers import Receiver, receiver
from tests.support.web import app_runtime, built_app, post, redirected_id, seat_client, sign_in

PLAYERS = {"name_0": "Ann", "email_0": "ann@example.org", "name_1": "Ben", "email_1": "ben@example.org",
           "name_2": "Cat", "email_2": "cat@example.org"}


def list_form(**fields: str | None) -> dict[str, str]:
    """The form of a game whose players the host types (it starts at once)."""
    return invite_form(join="list", order="listed", **PLAYERS, **fields)


@pytest.fixture
def config(config: Config) -> Config:
    """A test set-up: the channel may be a receiver on this machine."""
    return dataclasses.replace(
        config, notifications=dataclasses.replace(config.notifications, allow_private_addresses=True)
    )


@pytest.fixture
def hook() -> Iterator[Receiver]:
    with receiver() as running:
        yield running


def created(response: Any) -> str:
    """The id a successful form names in its redirect (a game's or an invite's)."""
    assert response.status_code == 303, response.get_data(as_text=True)[:3000]
    return redirected_id(response)


def channel_of(runtime: Runtime, game_id: str) -> GameChannel | None:
    with runtime.db.read() as session:
        return session.scalar(select(GameChannel).join(Game, Game.id == GameChannel.game_id)
                              .where(Game.public_id == game_id))


def whose_turn_queued(runtime: Runtime, game_id: str) -> list[str]:
    with runtime.db.read() as session:
        return list(session.scalars(select(Notice.body).join(Game, Game.id == Notice.game_id)
                                    .where(Game.public_id == game_id, Notice.kind == "whose_turn")))


def test_a_game_made_with_a_channel_has_it_from_its_first_turn(
    host: FlaskClient, runtime_of: Runtime, hook: Receiver
) -> None:
    url = hook.url("json", "secret-hook-token-x9")

    game_id = created(post(host, "/host/new", **list_form(channel=url)))

    channel = channel_of(runtime_of, game_id)
    assert channel is not None and channel.url == url and channel.shown_as == "json://127.0.0.1/…x9"
    assert len(whose_turn_queued(runtime_of, game_id)) == 1  # queued with the deal, in the same unit of work
    assert runtime_of.notice_sender().run().sent == 1
    assert [arrived.json["message"] for arrived in hook.arrived] == [
        f"Ann's turn.\nhttps://pbem.test/table/{game_id}"
    ]
    page = host.get(f"/host/games/{game_id}").get_data(as_text=True)
    assert "json://127.0.0.1/…x9" in page and "secret-hook-token" not in page


def test_a_game_made_without_a_channel_has_none(host: FlaskClient, runtime_of: Runtime) -> None:
    game_id = created(post(host, "/host/new", **list_form(channel="  ")))

    assert channel_of(runtime_of, game_id) is None and whose_turn_queued(runtime_of, game_id) == []


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("ftp://files.example/x", "ftp:// is not a kind this server sends to"),
        ("json://", "incomplete or malformed"),
        ("discord://", "incomplete or malformed"),
        ("json://no-such-host.invalid/hook", "could not be found"),
    ],
)
def test_a_refused_channel_is_said_beside_its_field_and_nothing_is_made(
    host: FlaskClient, runtime_of: Runtime, url: str, message: str
) -> None:
    before = dump(runtime_of.db)

    response = post(host, "/host/new", **list_form(channel=url))

    assert response.status_code == 422
    page = response.get_data(as_text=True)
    shown = re.search(r'id="error-channel"[^>]*>([^<]*)<', page)
    assert shown and message in shown.group(1), page[:3000]
    assert 'href="#channel"' in page  # the summary leads to the field
    field = re.search(r'<input type="url" id="channel"[^>]*>', page)
    assert field and "value=" not in field.group(0)  # an address is never written back
    after = dump(runtime_of.db)
    assert {k: v for k, v in after.items() if k != "rate_limit_hits"} == {
        k: v for k, v in before.items() if k != "rate_limit_hits"}


@pytest.fixture
def strict_app(config: Config, clock: SettableClock, chance: SeededChance) -> Iterator[Flask]:
    """The default configuration: private, loopback and reserved addresses refused."""
    yield from built_app(dataclasses.replace(config, notifications=NotificationsConfig()), clock, chance)


@pytest.mark.parametrize("join", ["list", "link"])
def test_the_default_configuration_refuses_a_loopback_channel_on_the_form(
    strict_app: Flask, hook: Receiver, join: str
) -> None:
    runtime = app_runtime(strict_app)
    client = strict_app.test_client()
    sign_in(client, runtime)
    before = dump(runtime.db)
    fields = list_form() if join == "list" else invite_form()

    response = post(client, "/host/new", **fields, channel=hook.url("json", "hook"))

    assert response.status_code == 422
    assert ('id="error-channel">127.0.0.1 is a private, local or reserved address: this server only notifies '
            "services on the internet.<") in response.get_data(as_text=True)
    after = dump(runtime.db)
    assert {k: v for k, v in after.items() if k != "rate_limit_hits"} == {
        k: v for k, v in before.items() if k != "rate_limit_hits"}


def test_a_bad_channel_and_another_mistake_are_both_shown(host: FlaskClient) -> None:
    page = post(host, "/host/new", **list_form(title="", channel="ftp://x.example/y")).get_data(as_text=True)

    assert 'id="error-title"' in page and 'id="error-channel"' in page


def test_a_good_channel_beside_another_mistake_asks_to_be_given_again(host: FlaskClient, hook: Receiver) -> None:
    url = hook.url("json", "secret-hook-token-x9")
    page = post(host, "/host/new", **list_form(title="", channel=url)).get_data(as_text=True)

    assert "Give it again: an address is not shown back." in page and "secret-hook-token" not in page


def test_a_game_joined_by_link_keeps_its_channel_until_it_starts_and_tells_its_first_turn(
    host: FlaskClient, app: Flask, runtime_of: Runtime, hook: Receiver
) -> None:
    url = hook.url("json", "secret-hook-token-x9")
    invite_id = create_invite(host, channel=url, places="3")
    page = host.get(f"/host/invites/{invite_id}").get_data(as_text=True)
    assert "json://127.0.0.1/…x9</code>, told the public events from the start" in page
    assert "secret-hook-token" not in page
    link = share_link(host, invite_id)
    for name in ("Ann", "Ben", "Cat"):
        joined_and_confirmed(app, link, name, f"{name.lower()}@example.org")

    assert post(host, f"/host/invites/{invite_id}/start", confirm="yes").status_code == 303

    with runtime_of.db.read() as session:
        invite = session.scalar(select(Invite).where(Invite.public_id == invite_id))
        assert invite is not None and invite.game_id is not None
        game_id = session.scalar(select(Game.public_id).where(Game.id == invite.game_id))
        assert invite.channel_url is None  # the URL now lives with the game's channel alone
    assert game_id is not None
    channel = channel_of(runtime_of, game_id)
    assert channel is not None and channel.url == url
    assert runtime_of.notice_sender().run().sent == 1 and len(hook.arrived) == 1


def test_a_rematch_keeps_the_tables_channel_and_the_host_and_players_pages_say_so(
    app: Flask, host: FlaskClient, runtime_of: Runtime, hook: Receiver
) -> None:
    url = hook.url("json", "secret-hook-token-x9")
    game_id = created(post(host, "/host/new", **list_form(channel=url, players_may_rematch="yes")))
    assert post(host, f"/host/games/{game_id}/end", confirm="yes").status_code == 303
    page = host.get(f"/host/games/{game_id}").get_data(as_text=True)
    assert "The same players, game and rules and the table's channel (<code>json://127.0.0.1/…x9</code>)" in page
    offer = seat_client(app, game_id, 1).get(f"/table/{game_id}").get_data(as_text=True)
    assert "everyone moved one seat on, and the table's channel (a webhook)." in offer
    assert "127.0.0.1" not in offer

    rematch_id = created(post(host, f"/host/games/{game_id}/rematch", confirm="yes", order="rotated"))

    kept = channel_of(runtime_of, rematch_id)
    assert kept is not None and kept.url == url
    assert len(whose_turn_queued(runtime_of, rematch_id)) == 1


def test_a_switched_off_channel_is_not_passed_on_to_a_rematch(
    host: FlaskClient, runtime_of: Runtime, hook: Receiver
) -> None:
    game_id = created(post(host, "/host/new", **list_form(channel=hook.url("json", "hook"))))
    with runtime_of.db.write() as session:
        channel = session.scalar(select(GameChannel))
        assert channel is not None
        channel.switched_off_at = runtime_of.clock.now()
    assert post(host, f"/host/games/{game_id}/end", confirm="yes").status_code == 303
    assert "and the table's channel" not in host.get(f"/host/games/{game_id}").get_data(as_text=True)

    rematch_id = created(post(host, f"/host/games/{game_id}/rematch", confirm="yes", order="rotated"))

    assert channel_of(runtime_of, rematch_id) is None


def test_a_copied_game_offers_the_earlier_channel_masked_and_keeps_it_when_ticked(
    host: FlaskClient, runtime_of: Runtime, hook: Receiver
) -> None:
    url = hook.url("json", "secret-hook-token-x9")
    game_id = created(post(host, "/host/new", **list_form(channel=url)))

    page = host.get(f"/host/new?copy={game_id}").get_data(as_text=True)
    assert "Keep the earlier game's channel, <code>json://127.0.0.1/…x9</code>" in page
    assert "secret-hook-token" not in page
    kept_id = created(post(host, "/host/new", **list_form(keep_channel="yes", keep_channel_of=game_id)))
    dropped_id = created(post(host, "/host/new", **list_form(keep_channel_of=game_id)))  # the box unticked

    kept = channel_of(runtime_of, kept_id)
    assert kept is not None and kept.url == url
    assert channel_of(runtime_of, dropped_id) is None


def test_a_copy_keeps_only_a_channel_of_the_hosts_own_games(
    host: FlaskClient, runtime_of: Runtime, hook: Receiver
) -> None:
    theirs = created(post(host, "/host/new", **list_form(channel=hook.url("json", "theirs"))))
    with runtime_of.db.write() as session:
        game = session.scalar(select(Game).where(Game.public_id == theirs))
        assert game is not None
        game.host_email = "other@example.org"

    response = post(host, "/host/new", **list_form(keep_channel="yes", keep_channel_of=theirs))

    assert response.status_code == 403


def test_a_game_joined_by_link_may_keep_a_copied_channel(
    host: FlaskClient, app: Flask, runtime_of: Runtime, hook: Receiver
) -> None:
    url = hook.url("json", "secret-hook-token-x9")
    game_id = created(post(host, "/host/new", **list_form(channel=url)))

    invite_id = create_invite(host, keep_channel="yes", keep_channel_of=game_id)

    with runtime_of.db.read() as session:
        invite = session.scalar(select(Invite).where(Invite.public_id == invite_id))
        assert invite is not None and invite.channel_url == url
