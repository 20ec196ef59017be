"""Host sign-in: an emailed link, good once for an hour, whose GET only shows a button; a session for days."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient

from pbem.config import AccessConfig, Config
from pbem.runtime import Runtime
from tests.support.games import link_token
from tests.support.mail import mailbox
from tests.support.web import HOST, app_runtime, built_app, host_link, post, sign_in, with_csrf


def test_an_emailed_host_link_shows_a_button_and_signs_in_only_when_pressed(client: FlaskClient, app: Flask) -> None:
    runtime = app_runtime(app)
    with_csrf(client)
    assert post(client, "/host", email="new.host@example.org").status_code == 200
    path = "/host/" + host_link(runtime, "new.host@example.org").split("/host/", 1)[1]

    shown = client.get(path)
    assert shown.status_code == 200 and b"Continue" in shown.data
    assert b"New game" not in client.get("/host").data  # a GET signed nobody in

    assert post(client, path).status_code == 303
    assert b"Signed in as new.host@example.org" in client.get("/host").data


def test_a_host_link_works_once(client: FlaskClient, app: Flask) -> None:
    runtime = app_runtime(app)
    sign_in(client, runtime, "once@example.org")
    path = "/host/" + host_link(runtime, "once@example.org").split("/host/", 1)[1]
    other = app.test_client()
    with_csrf(other)
    refused = post(other, path)
    assert refused.status_code == 403
    assert b"used already" in refused.data
    assert other.get(path).status_code == 403


def test_a_host_link_expires_after_an_hour(client: FlaskClient, app: Flask, clock) -> None:
    runtime = app_runtime(app)
    with_csrf(client)
    post(client, "/host", email="late@example.org")
    path = "/host/" + host_link(runtime, "late@example.org").split("/host/", 1)[1]
    clock.advance(timedelta(minutes=61))
    assert post(client, path).status_code == 403
    assert b"Signed in as" not in client.get("/host").data


def test_a_forged_host_link_is_refused(client: FlaskClient) -> None:
    with_csrf(client)
    assert client.get("/host/sign-in/not-a-token").status_code == 403
    assert post(client, "/host/sign-in/not-a-token").status_code == 403


def test_a_seat_link_is_not_a_host_link(client: FlaskClient, app: Flask, new_game) -> None:
    token = link_token(app_runtime(app).games.invites(new_game())[0].link)
    with_csrf(client)
    assert post(client, f"/host/sign-in/{token}").status_code == 403


def test_the_host_session_ends_after_the_configured_days(client: FlaskClient, app: Flask, clock) -> None:
    sign_in(client, app_runtime(app))
    clock.advance(timedelta(days=13))
    assert b"Signed in as" in client.get("/host").data
    clock.advance(timedelta(days=2))
    assert b"Signed in as" not in client.get("/host").data


def copied_cookie(client: FlaskClient) -> str:
    cookie = client.get_cookie("session")
    assert cookie is not None
    return cookie.value


def browser_with(app: Flask, cookie: str) -> FlaskClient:
    """Another browser holding a copy of a session cookie."""
    other = app.test_client()
    other.set_cookie("session", cookie)
    return other


def test_signing_out_ends_the_session_so_a_copied_cookie_no_longer_works(client: FlaskClient, app: Flask) -> None:
    sign_in(client, app_runtime(app))
    thief = browser_with(app, copied_cookie(client))
    assert b"Signed in as" in thief.get("/host").data

    assert post(client, "/host/sign-out").status_code == 303

    assert b"Signed in as" not in client.get("/host").data
    assert b"Signed in as" not in thief.get("/host").data
    assert thief.get("/host/games.json", headers={"Accept": "application/json"}).status_code == 401


def test_signing_out_in_one_browser_leaves_the_hosts_other_browsers_signed_in(client: FlaskClient, app: Flask) -> None:
    runtime = app_runtime(app)
    sign_in(client, runtime)
    phone = app.test_client()
    sign_in(phone, runtime)

    post(client, "/host/sign-out")

    assert b"Signed in as" in phone.get("/host").data


def test_sign_out_everywhere_ends_every_session_of_the_hosts_mailbox(client: FlaskClient, app: Flask) -> None:
    runtime = app_runtime(app)
    sign_in(client, runtime, "Host+laptop@Example.org")
    phone = app.test_client()
    sign_in(phone, runtime, "host@example.org")
    copy = browser_with(app, copied_cookie(phone))
    stranger = app.test_client()
    sign_in(stranger, runtime, "other.host@example.org")
    assert b"Sign out everywhere" in client.get("/host").data

    answer = post(client, "/host/sign-out-everywhere")

    assert answer.status_code == 200 and b"signed out in every browser" in answer.data
    for browser in (client, phone, copy):
        assert b"Signed in as" not in browser.get("/host").data
    assert b"Signed in as other.host@example.org" in stranger.get("/host").data


def test_sign_out_everywhere_needs_the_csrf_token(client: FlaskClient, app: Flask) -> None:
    sign_in(client, app_runtime(app))
    assert client.post("/host/sign-out-everywhere").status_code == 400
    assert b"Signed in as" in client.get("/host").data


def test_a_cookie_that_names_an_address_signs_nobody_in(client: FlaskClient, app: Flask, clock) -> None:
    """A cookie made the old way (the address and a time, signed with the app's key) is no session."""
    with client.session_transaction() as session:
        session["host"] = {"email": HOST, "at": clock.now().isoformat()}
    assert b"Signed in as" not in client.get("/host").data


def test_link_requests_are_rate_limited_per_address(client: FlaskClient, app: Flask) -> None:
    runtime = app_runtime(app)
    with_csrf(client)
    for _ in range(5):
        assert post(client, "/host", email="busy@example.org").status_code == 200
    assert len(mailbox(runtime, "host_link", to="busy@example.org")) == 3


def test_link_requests_are_rate_limited_per_client(client: FlaskClient) -> None:
    with_csrf(client)
    answers = [post(client, "/host", email=f"p{n}@example.org").status_code for n in range(11)]
    assert answers == [200] * 10 + [429]


def test_a_link_request_without_the_csrf_token_is_refused(client: FlaskClient, app: Flask) -> None:
    with_csrf(client)
    assert client.post("/host", data={"email": "x@example.org"}).status_code == 400
    assert mailbox(app_runtime(app), "host_link") == []


@pytest.fixture
def admins_only(config: Config, clock, chance) -> Flask:
    """Production: development with the mail catcher lets anyone host (tests/app/test_dev_hosting.py)."""
    access = AccessConfig(game_creators="admins", admin_emails=("boss@example.org",))
    yield from built_app(dataclasses.replace(config, mode="production", access=access), clock, chance)


def test_strangers_get_no_link_when_only_admins_may_host(admins_only: Flask, new_game) -> None:
    runtime: Runtime = app_runtime(admins_only)
    client = admins_only.test_client()
    with_csrf(client)
    assert post(client, "/host", email="stranger@example.org").status_code == 200
    assert mailbox(runtime, "host_link", to="stranger@example.org") == []
    assert post(client, "/host", email="boss@example.org").status_code == 200
    assert len(mailbox(runtime, "host_link", to="boss@example.org")) == 1


def test_an_existing_host_may_sign_in_to_look_after_their_games_even_when_only_admins_create(
    admins_only: Flask, new_game
) -> None:
    runtime = app_runtime(admins_only)
    new_game()
    client = admins_only.test_client()
    sign_in(client, runtime, HOST)
    page = client.get("/host").data
    assert b"Test mine" in page and b"New game" not in page
    assert client.get("/host/new").status_code == 403


@pytest.fixture
def domains_only(config: Config, clock, chance) -> Flask:
    access = AccessConfig(game_creators="domains", creator_domains=("club.example",))
    yield from built_app(dataclasses.replace(config, mode="production", access=access), clock, chance)


def test_only_listed_domains_get_a_host_link_when_the_config_says_domains(domains_only: Flask) -> None:
    runtime = app_runtime(domains_only)
    client = domains_only.test_client()
    with_csrf(client)
    post(client, "/host", email="member@CLUB.example")
    post(client, "/host", email="outsider@example.org")
    assert [m.to_address for m in mailbox(runtime, "host_link")] == ["member@CLUB.example"]


@pytest.mark.parametrize("days", [0, 32, "two"])
def test_the_host_session_length_is_checked_when_the_config_loads(tmp_path, days) -> None:
    from pbem.config import ConfigError, load_config

    path = tmp_path / "config.toml"
    path.write_text(f"[access]\nhost_session_days = {days!r}\n".replace("'", '"'))
    with pytest.raises(ConfigError, match="access.host_session_days"):
        load_config(path, environ={})
