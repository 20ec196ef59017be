"""Per-client limits count the real client behind the configured number of reverse proxies (never an address a
client names itself), and limits per target mailbox (case and plus-tag folded) hold however many clients ask."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient

from pbem.chance import SeededChance
from pbem.clock import SettableClock
from pbem.config import Config
from pbem.service.host.host_access import PER_ADDRESS as HOST_LINKS_PER_ADDRESS
from pbem.service.host.host_access import PER_CLIENT
from pbem.service.seats.fresh_links import PER_ADDRESS as FRESH_LINKS_PER_ADDRESS
from tests.support.games import PEOPLE, link_token
from tests.support.mail import mailbox
from tests.support.web import app_runtime, built_app, post, with_csrf

PROXY = "10.0.0.2"


@pytest.fixture
def proxied_app(config: Config, clock: SettableClock, chance: SeededChance) -> Iterator[Flask]:
    """The app behind one reverse proxy, which appends the address it saw to X-Forwarded-For."""
    yield from built_app(dataclasses.replace(config, trusted_proxies=1), clock, chance)


def through_proxy(app: Flask, forwarded_for: str) -> FlaskClient:
    client = app.test_client()
    client.environ_base.update(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded_for)
    with_csrf(client)
    return client


def ask_for_host_links(client: FlaskClient, count: int) -> list[int]:
    return [post(client, "/host", email=f"p{n}@example.org").status_code for n in range(count)]


def test_behind_a_trusted_proxy_each_client_is_counted_by_the_address_the_proxy_reports(proxied_app: Flask) -> None:
    noisy = through_proxy(proxied_app, "203.0.113.1")
    assert ask_for_host_links(noisy, PER_CLIENT.count + 1) == [200] * PER_CLIENT.count + [429]

    assert ask_for_host_links(through_proxy(proxied_app, "203.0.113.2"), 1) == [200]


def test_a_client_behind_the_proxy_cannot_choose_its_address(proxied_app: Flask) -> None:
    answers = []
    for n in range(PER_CLIENT.count + 1):  # each request claims a new address; the proxy appends the real one
        client = through_proxy(proxied_app, f"198.51.100.{n}, 203.0.113.1")
        answers.append(post(client, "/host", email=f"p{n}@example.org").status_code)

    assert answers == [200] * PER_CLIENT.count + [429]


def test_without_trusted_proxies_a_forwarded_for_header_is_ignored(app: Flask) -> None:
    answers = [
        post(through_proxy(app, f"198.51.100.{n}"), "/host", email=f"p{n}@example.org").status_code
        for n in range(PER_CLIENT.count + 1)
    ]

    assert answers == [200] * PER_CLIENT.count + [429]


def test_host_links_to_one_mailbox_are_limited_whatever_its_plus_tag_or_case(app: Flask) -> None:
    for n in range(HOST_LINKS_PER_ADDRESS.count + 3):
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = f"203.0.113.{n}"
        with_csrf(client)
        assert post(client, "/host", email=f"Busy+{n}@example.org").status_code == 200

    sent = [message for message in mailbox(app_runtime(app), "host_link") if "@example.org" in message.to_address]
    assert len(sent) == HOST_LINKS_PER_ADDRESS.count


def test_fresh_links_to_one_mailbox_are_limited_across_its_games_and_clients(runtime, new_game, clock) -> None:
    game_ids = [new_game() for _ in range(FRESH_LINKS_PER_ADDRESS.count + 2)]
    tokens = [link_token(runtime.games.invites(game_id)[1].link) for game_id in game_ids]
    clock.advance(timedelta(days=runtime.config.link_max_age_days, seconds=1))

    for n, token in enumerate(tokens):
        runtime.fresh_links.request(token, f"203.0.113.{n}")

    sent = mailbox(runtime, "fresh_link")
    assert [message.to_address for message in sent] == [PEOPLE[1].email] * FRESH_LINKS_PER_ADDRESS.count
