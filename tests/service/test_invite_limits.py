"""How much mail a shared invite link can make the server send: at most three confirmation emails a day to one
mailbox, whatever the invites and clients behind the joins, counted before the invite's and the server's daily
budgets, so joins aimed at one stranger neither flood them nor use up what real joiners need. A join with the
address of someone still waiting to confirm changes nothing of theirs: their link keeps working, their name stays."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from pbem.config import Config
from pbem.models import Joiner
from pbem.runtime import Runtime
from pbem.service.host.invites import JOINS_PER_CLIENT, JOINS_PER_INVITE
from tests.support.invites import confirm_path, create_invite, join, person, share_link
from tests.support.mail import mailbox
from tests.support.web import HOST, app_runtime, built_app, post, sign_in

VICTIM = "victim@example.org"


def client_address(n: int) -> str:
    """The n-th of many clients on loopback, each joining fewer times than its hourly limit."""
    return f"127.0.{n // JOINS_PER_CLIENT.count}.{n % JOINS_PER_CLIENT.count + 1}"


def confirmations_to(runtime: Runtime, address: str) -> int:
    return len(mailbox(runtime, "join_confirm", to=address))


@pytest.fixture
def link(host: FlaskClient) -> str:
    return share_link(host, create_invite(host, places="6"))


def test_one_mailbox_gets_at_most_three_join_confirmations_a_day_across_invites_and_clients(
    app: Flask, host: FlaskClient, runtime_of: Runtime, clock
) -> None:
    links = [share_link(host, create_invite(host, places="6")) for _ in range(2)]

    answers = [join(app, links[n % 2], f"Junk {n}", VICTIM, address=client_address(n)) for n in range(8)]

    assert [answer.status_code for answer in answers] == [200] * 8
    assert confirmations_to(runtime_of, VICTIM) == 3
    clock.advance(timedelta(days=1))
    assert join(app, links[0], "Junk", VICTIM, address="127.1.0.1").status_code == 200
    assert confirmations_to(runtime_of, VICTIM) == 4


def test_the_page_says_when_no_link_was_sent_and_names_nobody(app: Flask, runtime_of: Runtime, link: str) -> None:
    for n in range(3):
        assert "We sent a link to" in join(app, link, "Ann", VICTIM, address=client_address(n)).get_data(as_text=True)

    page = join(app, link, "Mallory", "Victim+x@example.org", address=client_address(3)).get_data(as_text=True)

    assert "We sent no new link to <strong>Victim+x@example.org</strong>" in page
    assert "at most three of these links a day" in page
    assert "Ann" not in page and VICTIM not in page
    assert confirmations_to(runtime_of, VICTIM) == 3


def test_joins_aimed_at_one_mailbox_leave_the_invites_daily_joins_to_real_people(
    app: Flask, runtime_of: Runtime, link: str
) -> None:
    for n in range(JOINS_PER_INVITE.count):
        join(app, link, "Junk", VICTIM, address=client_address(n))

    answer = join(app, link, "Ann", "ann@example.org", address="203.0.113.1")

    assert answer.status_code == 200 and confirmations_to(runtime_of, "ann@example.org") == 1
    assert confirmations_to(runtime_of, VICTIM) == 3


@pytest.fixture
def small_server_budget(config: Config, clock, chance) -> Iterator[Flask]:
    access = dataclasses.replace(config.access, invitations_per_client_per_day=40, invitations_per_day=4)
    yield from built_app(dataclasses.replace(config, access=access), clock, chance)


def test_joins_aimed_at_one_mailbox_spend_no_more_of_the_servers_mail_to_new_addresses_than_its_three(
    small_server_budget: Flask,
) -> None:
    app = small_server_budget
    runtime = app_runtime(app)
    host = app.test_client()
    sign_in(host, runtime, HOST)
    link = share_link(host, create_invite(host, places="6"))
    for n in range(10):
        join(app, link, "Junk", VICTIM, address=client_address(n))

    answer = join(app, link, "Ann", "ann@example.org", address="203.0.113.1")

    assert answer.status_code == 200 and confirmations_to(runtime, "ann@example.org") == 1


def test_a_join_with_the_address_of_someone_waiting_neither_cancels_their_link_nor_renames_them(
    app: Flask, runtime_of: Runtime, link: str
) -> None:
    assert join(app, link, "Ann", "ann@example.org").status_code == 200
    first = confirm_path(runtime_of, "ann@example.org")

    assert join(app, link, "Mallory", "ANN+x@example.org", timezone="Asia/Tokyo",
                address="203.0.113.66").status_code == 200

    again = confirm_path(runtime_of, "ann@example.org")
    assert again != first and "as <strong>Ann</strong>" in person(app).get(again).get_data(as_text=True)
    shown = person(app).get(first).get_data(as_text=True)
    assert "as <strong>Ann</strong>" in shown and "ann@example.org" in shown
    assert post(person(app), first).status_code == 200
    with runtime_of.db.read() as session:
        assert session.execute(select(Joiner.name, Joiner.email, Joiner.timezone)).all() == [
            ("Ann", "ann@example.org", "America/New_York")]
        assert session.scalar(select(Joiner.confirmed_at)) is not None


def test_a_link_sent_again_to_someone_waiting_confirms_their_place_once(
    app: Flask, runtime_of: Runtime, link: str
) -> None:
    assert join(app, link, "Ann", "ann@example.org").status_code == 200
    first = confirm_path(runtime_of, "ann@example.org")
    assert join(app, link, "Ann", "ann@example.org").status_code == 200  # the first email was lost
    again = confirm_path(runtime_of, "ann@example.org")

    assert post(person(app), again).status_code == 200

    for path in (first, again):
        assert "is already confirmed, Ann" in person(app).get(path).get_data(as_text=True)
    with runtime_of.db.read() as session:
        assert len(session.scalars(select(Joiner)).all()) == 1
