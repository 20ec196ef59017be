"""A player's own notification addresses in My games preferences: added (shown masked), refused beside the field
with nothing stored, a test sent to a real receiver on loopback (POST, CSRF, five an hour), removed."""

from __future__ import annotations

import dataclasses

import pytest
from flask.testing import FlaskClient

from pbem.config import Config
from pbem.runtime import Runtime
from tests.support.database import dump
from tests.support.receivers import receiver
from tests.support.web import post, sign_in_player


@pytest.fixture
def config(config: Config) -> Config:
    return dataclasses.replace(
        config, notifications=dataclasses.replace(config.notifications, allow_private_addresses=True)
    )


def test_a_player_adds_an_address_tests_it_and_removes_it(
    client: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    sign_in_player(client, runtime_of, "ann@example.org")
    with receiver() as phone:
        added = post(client, "/my-games/notifications", url=phone.url("ntfy", "ann-secret-topic-q7"), turns="yes",
                     results="yes")
        assert added.status_code == 303
        page = client.get("/my-games/preferences").get_data(as_text=True)
        assert "ntfy://127.0.0.1/…q7</code>: my turns, round and game results" in page
        assert "ann-secret-topic" not in page
        [shown] = runtime_of.notices.addresses("ann@example.org")

        assert post(client, f"/my-games/notifications/{shown.id}/test").status_code == 303
        assert "A test went to ntfy://127.0.0.1/…q7." in client.get("/my-games/preferences").get_data(as_text=True)
        assert [a.json["title"] for a in phone.arrived] == ["A test notification - Saboteur"]
        for _ in range(4):
            post(client, f"/my-games/notifications/{shown.id}/test")
        assert post(client, f"/my-games/notifications/{shown.id}/test").status_code == 429
        assert len(phone.arrived) == 5
        assert client.post(f"/my-games/notifications/{shown.id}/test").status_code == 400  # no CSRF token

    assert post(client, f"/my-games/notifications/{shown.id}/remove").status_code == 303
    assert runtime_of.notices.addresses("ann@example.org") == []


def test_a_refused_address_is_said_beside_its_field_and_stores_nothing(
    client: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    sign_in_player(client, runtime_of, "ann@example.org")
    before = dump(runtime_of.db)
    answer = post(client, "/my-games/notifications", url="https://example.org/hook", turns="yes")

    assert answer.status_code == 400
    assert 'id="notification-problem">https:// is not a kind this server sends to' in answer.get_data(as_text=True)
    assert dump(runtime_of.db) == before


def test_another_players_address_cannot_be_tested_or_removed(
    client: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    runtime_of.notices.add_address("ben@example.org", "json://127.0.0.1:9/ben")
    [bens] = runtime_of.notices.addresses("ben@example.org")
    sign_in_player(client, runtime_of, "ann@example.org")

    assert post(client, f"/my-games/notifications/{bens.id}/test").status_code == 400
    post(client, f"/my-games/notifications/{bens.id}/remove")
    assert len(runtime_of.notices.addresses("ben@example.org")) == 1
