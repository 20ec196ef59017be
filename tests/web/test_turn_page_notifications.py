"""The turn page's settings keep the seat's player's own notification addresses, as My games preferences does (one
service, one partial): added (shown masked), refused beside the field with nothing stored, tested against a real
receiver on loopback (POST, CSRF, the same five an hour), removed; and "notifications instead of turn emails",
chosen only with an address that takes turns."""

from __future__ import annotations

import dataclasses
import random

import pytest
from flask.testing import FlaskClient

from pbem.config import Config
from pbem.runtime import Runtime
from tests.support.database import dump
from tests.support.games import PEOPLE, play_moves, seat_to_act
from tests.support.mail import mailbox
from tests.support.receivers import receiver
from tests.support.web import form_fields, open_table, post, sign_in_player, table_path


@pytest.fixture
def config(config: Config) -> Config:
    return dataclasses.replace(
        config, notifications=dataclasses.replace(config.notifications, allow_private_addresses=True)
    )


def send(client: FlaskClient, game_id: str, path: str, **fields: str) -> object:
    """A POST from one of the turn page's forms (its CSRF token), under the table's address."""
    page = client.get(table_path(game_id)).get_data(as_text=True)
    return client.post(f"{table_path(game_id)}{path}", data={"csrf_token": form_fields(page)["csrf_token"], **fields})


def test_the_seat_adds_an_address_tests_it_and_removes_it_from_its_settings(
    client: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    open_table(client, runtime_of, game_id, 1)
    with receiver() as phone:
        added = send(client, game_id, "/notifications", url=phone.url("ntfy", "ben-secret-topic-k3"), turns="yes")
        assert added.status_code == 303  # type: ignore[attr-defined]
        page = client.get(table_path(game_id)).get_data(as_text=True)
        assert "Notifications will also go to ntfy://127.0.0.1/…k3." in page
        assert "ntfy://127.0.0.1/…k3</code>: my turns" in page and "ben-secret-topic" not in page
        [shown] = runtime_of.notices.addresses("ben@example.org")  # the seat's player, the same as on My games

        assert send(client, game_id, f"/notifications/{shown.id}/test").status_code == 303  # type: ignore[attr-defined]
        assert "A test went to ntfy://127.0.0.1/…k3." in client.get(table_path(game_id)).get_data(as_text=True)
        assert [a.json["title"] for a in phone.arrived] == ["A test notification - Saboteur"]
        for _ in range(4):
            send(client, game_id, f"/notifications/{shown.id}/test")
        assert send(client, game_id, f"/notifications/{shown.id}/test").status_code == 429  # type: ignore[attr-defined]
        assert len(phone.arrived) == 5
        assert client.post(f"{table_path(game_id)}/notifications/{shown.id}/test").status_code == 400  # no CSRF

    assert send(client, game_id, f"/notifications/{shown.id}/remove").status_code == 303  # type: ignore[attr-defined]
    assert runtime_of.notices.addresses("ben@example.org") == []
    assert "That notification address is removed." in client.get(table_path(game_id)).get_data(as_text=True)


def test_a_refused_address_is_said_beside_its_field_on_the_turn_page_and_stores_nothing(
    client: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    open_table(client, runtime_of, game_id, 1)
    before = dump(runtime_of.db)

    answer = send(client, game_id, "/notifications", url="https://example.org/hook", turns="yes")

    assert answer.status_code == 400  # type: ignore[attr-defined]
    page = answer.get_data(as_text=True)  # type: ignore[attr-defined]
    field = page.index('<label for="notification-url">')
    problem = page.index('id="notification-problem">https:// is not a kind this server sends to')
    assert field < problem < page.index('id="notification-url"')  # between the field's label and the field
    assert '<details class="settings-all" id="settings" open>' in page
    assert dump(runtime_of.db) == before


def test_the_seat_cannot_test_or_remove_another_players_address(
    client: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    runtime_of.notices.add_address("cat@example.org", "json://127.0.0.1:9/cat")
    [cats] = runtime_of.notices.addresses("cat@example.org")
    open_table(client, runtime_of, game_id, 1)

    assert send(client, game_id, f"/notifications/{cats.id}/test").status_code == 400  # type: ignore[attr-defined]
    send(client, game_id, f"/notifications/{cats.id}/remove")
    assert len(runtime_of.notices.addresses("cat@example.org")) == 1


def test_notifications_instead_of_turn_emails_need_an_address_that_takes_turns(
    client: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    open_table(client, runtime_of, game_id, 1)
    runtime_of.notices.add_address("ben@example.org", "json://127.0.0.1:9/results-only", turns=False, results=True)

    refused = send(client, game_id, "/settings", notify_mode="notices")

    assert refused.status_code == 400  # type: ignore[attr-defined]
    assert "need an address of yours that gets your turns" in refused.get_data(as_text=True)  # type: ignore[attr-defined]
    assert runtime_of.seats.profile(game_id, 1).notify_mode == "turn"

    runtime_of.notices.add_address("ben@example.org", "json://127.0.0.1:9/phone", turns=True)
    assert send(client, game_id, "/settings", notify_mode="notices").status_code == 303  # type: ignore[attr-defined]
    assert runtime_of.seats.profile(game_id, 1).notify_mode == "notices"
    page = client.get(table_path(game_id)).get_data(as_text=True)
    assert "Saved: no turn emails; your turns and their reminders go to your notification addresses." in page
    assert 'value="notices" aria-describedby="notices-mode-hint" checked' in page


def test_removing_the_last_address_for_turns_brings_turn_emails_back(
    client: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    open_table(client, runtime_of, game_id, 1)
    runtime_of.notices.add_address("ben@example.org", "json://127.0.0.1:9/phone")
    runtime_of.seats.set_notify_mode(game_id, 1, "notices")
    [phone] = runtime_of.notices.addresses("ben@example.org")

    send(client, game_id, f"/notifications/{phone.id}/remove")

    assert runtime_of.seats.profile(game_id, 1).notify_mode == "turn"
    page = client.get(table_path(game_id)).get_data(as_text=True)
    assert ("It was your last one for turns, so you get turn emails again in Test mine (a turn waiting for you there"
            " now is emailed at once).") in page


def test_removing_the_last_address_for_turns_while_it_is_your_turn_emails_that_turn_at_once(
    client: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    for seat, person in enumerate(PEOPLE):
        runtime_of.notices.add_address(person.email, f"json://127.0.0.1:9/phone-{seat}")
        runtime_of.seats.set_notify_mode(game_id, seat, "notices")
    play_moves(runtime_of, game_id, 1, random.Random(2))
    seat = seat_to_act(runtime_of, game_id)
    email = PEOPLE[seat].email
    assert email is not None
    open_table(client, runtime_of, game_id, seat)
    assert mailbox(runtime_of, "your_turn", to=email) == []  # this turn went to the phone, not by email
    [phone] = runtime_of.notices.addresses(email)

    send(client, game_id, f"/notifications/{phone.id}/remove")

    assert [row.dedupe_key for row in mailbox(runtime_of, "your_turn", to=email)] == [
        f"your_turn:{game_id}:{seat}:{runtime_of.games.current_state(game_id).seq}"
    ]


def test_my_games_offers_notifications_instead_of_turn_emails_for_all_games(
    client: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    sign_in_player(client, runtime_of, "ben@example.org")
    fields = {"was_notify_mode": "turn", "was_timezone": "UTC", "timezone": "UTC", "notify_mode": "notices"}
    refused = post(client, "/my-games/preferences", **fields)
    assert refused.status_code == 400 and "need an address of yours" in refused.get_data(as_text=True)

    runtime_of.notices.add_address("ben@example.org", "json://127.0.0.1:9/phone")
    assert post(client, "/my-games/preferences", **fields).status_code == 303

    assert runtime_of.seats.profile(game_id, 1).notify_mode == "notices"
    home = client.get("/my-games").get_data(as_text=True)
    assert "No turn emails: your turns go to your notification addresses" in home
