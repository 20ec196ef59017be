"""Games players join by themselves: the host creates a game with open seats and shares one link; each person
gives a name, an address and a time zone, and confirms the address through the emailed link (GET shows a
button, POST confirms). Only confirmed seats count; a refusal creates and sends nothing."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select
from sqlalchemy.orm import selectinload

from pbem.config import Config
from pbem.models import Game, Invite, Joiner, OutboxMessage
from pbem.runtime import Runtime
from tests.support.database import dump
from tests.support.invites import (
    confirm_path,
    create_invite,
    join,
    joined_and_confirmed,
    person,
    share_link,
)
from tests.support.mail import mailbox
from tests.support.web import HOST, app_runtime, built_app, post, sign_in


def players_mail(runtime: Runtime) -> list[OutboxMessage]:
    """Every email but the host's sign-in link."""
    return [message for message in mailbox(runtime) if message.kind != "host_link"]


def sent(runtime: Runtime) -> int:
    with runtime.db.read() as session:
        return session.scalar(select(func.count()).select_from(OutboxMessage)) or 0


def games(runtime: Runtime) -> list[Game]:
    with runtime.db.read() as session:
        return list(session.scalars(select(Game).options(selectinload(Game.seats))))


@pytest.fixture
def invite(host: FlaskClient) -> str:
    return create_invite(host)


@pytest.fixture
def link(host: FlaskClient, invite: str) -> str:
    return share_link(host, invite)


def test_creating_a_game_with_open_seats_makes_one_link_and_emails_nobody(
    host: FlaskClient, runtime_of: Runtime, invite: str
) -> None:
    page = host.get(f"/host/invites/{invite}").get_data(as_text=True)
    assert "Who has joined (0 of 3 confirmed)" in page and "/join/" in page
    assert games(runtime_of) == []  # the game is made when it starts
    assert mailbox(runtime_of, "game_started") == [] and mailbox(runtime_of, "join_confirm") == []


def test_a_joiner_counts_only_once_the_address_confirms_and_a_get_confirms_nothing(
    app: Flask, host: FlaskClient, runtime_of: Runtime, invite: str, link: str
) -> None:
    joining = person(app)
    form_page = joining.get(link).get_data(as_text=True)
    assert "3 of 3 seats open" in form_page and 'name="timezone"' in form_page

    response = post(joining, link, name="Ann", email="Ann+games@Example.org", timezone="Europe/Paris")

    assert response.status_code == 200 and "Check your email" in response.get_data(as_text=True)
    assert [m.to_address for m in players_mail(runtime_of)] == ["Ann+games@Example.org"]  # the confirmation only
    path = confirm_path(runtime_of, "Ann+games@Example.org")
    assert "Confirm my place" in person(app).get(path).get_data(as_text=True)
    assert "waiting to confirm" in host.get(f"/host/invites/{invite}").get_data(as_text=True)

    assert post(person(app), path).status_code == 200

    page = host.get(f"/host/invites/{invite}").get_data(as_text=True)
    assert "Who has joined (1 of 3 confirmed)" in page and "Paris" in page
    assert post(person(app), path).status_code == 200  # confirming again changes nothing
    with runtime_of.db.read() as session:
        assert session.scalar(select(func.count()).select_from(Joiner)) == 1


def test_the_game_starts_by_itself_when_every_seat_is_confirmed_and_unconfirmed_joiners_get_no_link(
    app: Flask, host: FlaskClient, runtime_of: Runtime
) -> None:
    link = share_link(host, create_invite(host, auto_start="yes", order="shuffled"))
    assert join(app, link, "Zed", "zed@example.org").status_code == 200  # never confirms
    for name in ("Ann", "Ben"):
        joined_and_confirmed(app, link, name, f"{name.lower()}@example.org")
    assert games(runtime_of) == []

    joined_and_confirmed(app, link, "Cat", "cat@example.org")

    [game] = games(runtime_of)
    assert game.status == "active" and sorted(game.names) == ["Ann", "Ben", "Cat"]
    assert {seat.timezone for seat in game.seats} == {"America/New_York"}
    started = sorted(m.to_address for m in mailbox(runtime_of, "game_started"))
    assert started == ["ann@example.org", "ben@example.org", "cat@example.org"]
    assert mailbox(runtime_of, to="zed@example.org")[-1].kind == "join_confirm"
    refused = join(app, link, "Dan", "dan@example.org")
    assert refused.status_code == 410 and "started already" in refused.get_data(as_text=True)


def test_a_confirmation_link_opened_again_says_the_place_is_confirmed_without_a_button(
    app: Flask, host: FlaskClient, runtime_of: Runtime, invite: str, link: str
) -> None:
    joined_and_confirmed(app, link, "Ann", "ann@example.org")
    path = confirm_path(runtime_of, "ann@example.org")

    waiting = person(app).get(path).get_data(as_text=True)
    assert "is already confirmed, Ann" in waiting and "Confirm my place" not in waiting

    for name in ("Ben", "Cat"):
        joined_and_confirmed(app, link, name, f"{name.lower()}@example.org")
    assert post(host, f"/host/invites/{invite}/start", confirm="yes").status_code == 303
    started = person(app).get(path).get_data(as_text=True)
    assert "the game has started: your link to the table was emailed to ann@example.org" in started
    assert "Confirm my place" not in started


def test_the_host_starts_with_the_confirmed_players_in_the_order_they_joined(
    app: Flask, host: FlaskClient, runtime_of: Runtime
) -> None:
    invite = create_invite(host, places="5", bots="1", host_plays="yes", host_name="Hilda")
    link = share_link(host, invite)
    for name in ("Ann", "Ben"):
        joined_and_confirmed(app, link, name, f"{name.lower()}@example.org")

    response = post(host, f"/host/invites/{invite}/start", confirm="yes")

    assert response.status_code == 303
    [game] = games(runtime_of)
    assert game.names == ["Hilda", "Ann", "Ben", "Bot 1"] and game.host_plays
    assert host.get(f"/host/invites/{invite}").status_code == 303  # the invite now leads to the game


def test_a_start_below_the_variants_players_is_refused_with_the_count(
    app: Flask, host: FlaskClient, runtime_of: Runtime, invite: str, link: str
) -> None:
    joined_and_confirmed(app, link, "Ann", "ann@example.org")
    response = post(host, f"/host/invites/{invite}/start", confirm="yes")
    assert response.status_code == 400
    assert "1 confirmed and 0 computer players make 1" in response.get_data(as_text=True)
    assert games(runtime_of) == [] and mailbox(runtime_of, "game_started") == []


@pytest.mark.parametrize(("email", "mistake"), [
    ("ann@example", "The part after the @ needs a dot"),
    ("ann example.org", "no spaces"),
    ("ann.example.org", "has an @ in it"),
    ("", "An email address is needed"),
])
def test_a_bad_address_is_named_and_nothing_is_sent(
    app: Flask, runtime_of: Runtime, link: str, email: str, mistake: str
) -> None:
    before = dump(runtime_of.db)
    response = join(app, link, "Ann", email)
    assert response.status_code == 400 and mistake in response.get_data(as_text=True)
    assert 'aria-invalid="true"' in response.get_data(as_text=True)
    after = dump(runtime_of.db)
    assert {k: v for k, v in after.items() if k != "rate_limit_hits"} == {
        k: v for k, v in before.items() if k != "rate_limit_hits"}


def test_the_same_mailbox_cannot_take_two_seats(app: Flask, runtime_of: Runtime, link: str) -> None:
    joined_and_confirmed(app, link, "Ann", "ann@example.org")
    mails = sent(runtime_of)
    response = join(app, link, "Annie", "ANN+again@example.org")
    assert response.status_code == 400 and "already has a place" in response.get_data(as_text=True)
    assert sent(runtime_of) == mails


def test_a_full_game_says_so_and_a_late_confirmation_takes_no_seat(
    app: Flask, host: FlaskClient, runtime_of: Runtime
) -> None:
    link = share_link(host, create_invite(host, places="2", bots="1"))
    assert join(app, link, "Late", "late@example.org").status_code == 200
    for name in ("Ann", "Ben"):
        joined_and_confirmed(app, link, name, f"{name.lower()}@example.org")

    full = join(app, link, "Cat", "cat@example.org")
    late = post(person(app), confirm_path(runtime_of, "late@example.org"))

    assert full.status_code == 410 and "Every place" in full.get_data(as_text=True)
    assert late.status_code == 410 and "Every place" in late.get_data(as_text=True)
    assert mailbox(runtime_of, to="cat@example.org") == []


def test_a_closed_link_takes_nobody_until_reopened(app: Flask, host: FlaskClient, runtime_of: Runtime,
                                                   invite: str, link: str) -> None:
    assert post(host, f"/host/invites/{invite}/close").status_code == 303
    closed = join(app, link, "Ann", "ann@example.org")
    assert closed.status_code == 410 and "closed this invite link" in closed.get_data(as_text=True)
    assert players_mail(runtime_of) == []
    assert post(host, f"/host/invites/{invite}/reopen").status_code == 303
    assert join(app, link, "Ann", "ann@example.org").status_code == 200


def test_a_rotated_link_stops_working_and_the_new_one_works(app: Flask, host: FlaskClient, runtime_of: Runtime,
                                                            invite: str, link: str) -> None:
    assert post(host, f"/host/invites/{invite}/rotate").status_code == 303
    new_link = share_link(host, invite)

    old = join(app, link, "Ann", "ann@example.org")

    assert new_link != link
    assert old.status_code == 410 and "replaced by a newer one" in old.get_data(as_text=True)
    assert players_mail(runtime_of) == []
    assert join(app, new_link, "Ann", "ann@example.org").status_code == 200


def test_an_invite_link_expires(app: Flask, runtime_of: Runtime, link: str, clock) -> None:
    clock.advance(timedelta(days=8))
    expired = join(app, link, "Ann", "ann@example.org")
    assert expired.status_code == 410 and "expired" in expired.get_data(as_text=True)
    assert players_mail(runtime_of) == []


def test_a_forged_link_is_refused(app: Flask, link: str) -> None:
    assert person(app).get(link[:-3] + "abc").status_code == 403
    assert person(app).get("/join/confirm/nonsense").status_code == 403


def test_the_host_removes_a_joiner_whose_confirmation_then_fails(
    app: Flask, host: FlaskClient, runtime_of: Runtime, invite: str, link: str
) -> None:
    assert join(app, link, "Mallory", "mallory@example.org").status_code == 200
    path = confirm_path(runtime_of, "mallory@example.org")
    with runtime_of.db.read() as session:
        joiner_id = session.scalar(select(Joiner.id))

    asked = post(host, f"/host/invites/{invite}/remove", joiner=str(joiner_id))
    assert asked.status_code == 200 and "Take Mallory off the list?" in asked.get_data(as_text=True)  # asked first
    assert post(host, f"/host/invites/{invite}/remove", joiner=str(joiner_id), confirm="yes").status_code == 303

    assert post(person(app), path).status_code == 403
    assert 'id="joiner-' not in host.get(f"/host/invites/{invite}").get_data(as_text=True)


def test_another_host_cannot_see_or_change_an_invite(app: Flask, runtime_of: Runtime, invite: str) -> None:
    other = app.test_client()
    sign_in(other, runtime_of, "other.host@example.org")
    assert other.get(f"/host/invites/{invite}").status_code == 403
    assert post(other, f"/host/invites/{invite}/close").status_code == 403


def test_joining_is_rate_limited_per_client(app: Flask, runtime_of: Runtime, link: str) -> None:
    answers = [join(app, link, f"P{n}", f"p{n}@example.org", address="192.0.2.9").status_code for n in range(11)]
    assert answers == [200] * 10 + [429]
    assert mailbox(runtime_of, to="p10@example.org") == []


@pytest.fixture
def few_invitations(config: Config, clock, chance) -> Iterator[Flask]:
    access = dataclasses.replace(config.access, invitations_per_client_per_day=2, invitations_per_day=50)
    yield from built_app(dataclasses.replace(config, access=access), clock, chance)


def test_confirmation_emails_count_against_the_daily_invitation_limits(few_invitations: Flask) -> None:
    app = few_invitations
    runtime = app_runtime(app)
    host = app.test_client()
    sign_in(host, runtime, HOST)
    link = share_link(host, create_invite(host, places="6"))
    answers = [join(app, link, f"P{n}", f"p{n}@example.org", address="192.0.2.20").status_code for n in range(3)]
    assert answers == [200, 200, 429]
    assert mailbox(runtime, to="p2@example.org") == []


def test_the_dashboard_lists_the_games_waiting_for_players(host: FlaskClient, app: Flask, invite: str,
                                                           link: str) -> None:
    joined_and_confirmed(app, link, "Ann", "ann@example.org")
    page = host.get("/host").get_data(as_text=True)
    assert "Waiting for players" in page and "Open mine" in page and "1 of 3" in page


def test_join_pages_show_only_the_title_and_confirmed_names(
    app: Flask, host: FlaskClient, runtime_of: Runtime, link: str
) -> None:
    joined_and_confirmed(app, link, "Ann", "ann@example.org")
    assert join(app, link, "Ben", "ben@example.org").status_code == 200
    page = person(app).get(link).get_data(as_text=True)
    assert "Confirmed so far: Ann." in page
    assert "ann@example.org" not in page and "Ben" not in page and HOST not in page
    with runtime_of.db.read() as session:
        assert session.scalar(select(func.count()).select_from(Invite)) == 1
