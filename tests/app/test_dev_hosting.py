"""Who may host, by mode: in development with the mail catcher (what `make run` starts, no file written) no email
leaves the machine, so any address may sign in as a host and create games; in production, and wherever mail is
really sent, `access.game_creators` decides as configured."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from flask import Flask

from pbem.config import AccessConfig, Config, MailConfig
from pbem.web.host.forms import policy_fields
from tests.support.mail import mailbox
from tests.support.web import app_runtime, built_app, post, sign_in, with_csrf

NEWCOMER = "newcomer@example.org"


def new_game_form() -> dict[str, str]:
    policies = {f"policy_{p.name}": p.shown(p.default) for p in policy_fields() if p.kind != "flag" or p.default}
    return {"title": "First try", "join": "list", "variant": "base", "order": "listed", "bots": "3",
            "name_0": "Newcomer", "email_0": NEWCOMER, **policies}


def app_with(config: Config, clock, chance, **changes: object) -> Iterator[Flask]:
    """The app of `config` with the default access (only admins create games, and none is listed)."""
    yield from built_app(dataclasses.replace(config, access=AccessConfig(), **changes), clock, chance)


@pytest.fixture
def development(config: Config, clock, chance) -> Iterator[Flask]:
    assert config.is_development and config.mail.backend == "catcher"
    yield from app_with(config, clock, chance)


@pytest.fixture(params=["production", "development sending mail"])
def mail_goes_out(config: Config, clock, chance, request: pytest.FixtureRequest) -> Iterator[Flask]:
    changes = {"mode": "production"} if request.param == "production" else {"mail": MailConfig(backend="smtp")}
    yield from app_with(config, clock, chance, **changes)


def test_in_development_any_address_may_sign_in_as_a_host_and_create_a_game(development: Flask) -> None:
    client = development.test_client()
    sign_in(client, app_runtime(development), NEWCOMER)

    assert "New game" in client.get("/host").get_data(as_text=True)
    assert client.get("/host/new").status_code == 200
    response = post(client, "/host/new", **new_game_form())
    assert response.status_code == 303, response.get_data(as_text=True)
    assert "First try" in client.get("/host").get_data(as_text=True)


def test_where_mail_really_goes_out_only_whom_the_configuration_names_may_host(mail_goes_out: Flask) -> None:
    client = mail_goes_out.test_client()
    with_csrf(client)

    assert post(client, "/host", email=NEWCOMER).status_code == 200

    assert mailbox(app_runtime(mail_goes_out), "host_link", to=NEWCOMER) == []
