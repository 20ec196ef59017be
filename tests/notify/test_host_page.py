"""The table's channel on the host's game page: set (shown masked, never in full), refused beside its field
(nothing stored), its failures shown, removed; for the game's host only, with the CSRF token."""

from __future__ import annotations

import dataclasses

import pytest
from flask.testing import FlaskClient
from sqlalchemy import update

from pbem.config import Config
from pbem.models import GameChannel
from pbem.runtime import Runtime
from tests.support.database import dump
from tests.support.receivers import receiver
from tests.support.web import post


@pytest.fixture
def config(config: Config) -> Config:
    """A test set-up: the channel may be a receiver on this machine."""
    return dataclasses.replace(
        config, notifications=dataclasses.replace(config.notifications, allow_private_addresses=True)
    )


def test_the_host_sets_the_channel_sees_it_masked_and_its_failures(
    host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    with receiver() as hook:
        url = hook.url("json", "secret-hook-token-x9")
        assert post(host, f"/host/games/{game_id}/channel", url=url).status_code == 303
    page = host.get(f"/host/games/{game_id}").get_data(as_text=True)

    assert "json://127.0.0.1/…x9" in page and "secret-hook-token" not in page and "Nothing has failed" in page
    with runtime_of.db.write() as session:
        session.execute(update(GameChannel).values(failures=2, last_error="127.0.0.1 answered 503"))
    page = host.get(f"/host/games/{game_id}").get_data(as_text=True)
    assert "2 failed</strong> in a row; the last: 127.0.0.1 answered 503" in page

    assert post(host, f"/host/games/{game_id}/channel", clear="yes").status_code == 303
    assert "Notifications go to" not in host.get(f"/host/games/{game_id}").get_data(as_text=True)


def test_a_refused_address_is_said_beside_its_field_and_changes_nothing(
    host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    before = dump(runtime_of.db)
    response = post(host, f"/host/games/{game_id}/channel", url="ftp://files.example/x")

    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert 'id="channel-problem" role="alert">ftp:// is not a kind this server sends to' in page
    assert dump(runtime_of.db) == before


def test_the_channel_needs_the_csrf_token(host: FlaskClient, game_id: str) -> None:
    assert host.post(f"/host/games/{game_id}/channel", data={"url": "json://127.0.0.1:9/x"}).status_code == 400
