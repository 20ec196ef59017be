"""The sign-in forms say what really happens, and the same for everyone: a mailbox asked for too often is told that
no link will come this time, whether or not it is known here; and a request costs the same statements and returns
the same page whether or not the address plays (or may host) here, so neither the answer nor its time tells.

A seat's link that no longer works offers a fresh one only when one would come: a replaced player's old link says
the seat is no longer theirs (naming nobody) and points to My games sign-in; a limit reached says so."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient

from pbem.config import AccessConfig, Config
from pbem.runtime import Runtime
from pbem.service.players.access import PER_MAILBOX
from pbem.service.seats.fresh_links import PER_SEAT
from pbem.service.turns.values import PlayerSpec
from tests.support.database import counted
from tests.support.games import seat_token
from tests.support.mail import mailbox
from tests.support.web import app_runtime, built_app, form_fields, post, with_csrf

PLAYER = "ann@example.org"
HOST = "boss@example.org"
STRANGER = "nobody@example.org"
NO_NEW_LINK = "No new link this time"


@pytest.fixture
def ann_plays(runtime_of: Runtime) -> str:
    game_id = runtime_of.games.create_game(
        title="Mine", host_email="host@example.org",
        players=[PlayerSpec(name, f"{name.lower()}@example.org") for name in ("Ann", "Ben", "Cat")],
    )
    runtime_of.games.start_game(game_id)
    return game_id


@pytest.fixture
def admins_only(config: Config, clock, chance) -> Iterator[Flask]:
    """Only the admin may host (production: in development anyone may)."""
    access = AccessConfig(game_creators="admins", admin_emails=(HOST,))
    yield from built_app(dataclasses.replace(config, mode="production", access=access), clock, chance)


def ask(client: FlaskClient, path: str, email: str, times: int = 1) -> str:
    """The page of the last of `times` requests for a link to `email`, its white space folded."""
    with_csrf(client)
    for _ in range(times):
        response = post(client, path, email=email)
        assert response.status_code == 200
    return " ".join(response.get_data(as_text=True).split())


# -- a limit that is reached says so ------------------------------------------------------------------------------


def test_a_player_mailbox_asked_too_often_is_told_no_link_comes_and_to_look_for_the_earlier_one(
    client: FlaskClient, runtime_of: Runtime, ann_plays: str,
) -> None:
    within_limit = ask(client, "/sign-in", PLAYER, times=PER_MAILBOX.count)

    over_limit = ask(client, "/sign-in", PLAYER)

    assert "a sign-in link is on its way" in within_limit and NO_NEW_LINK not in within_limit
    assert NO_NEW_LINK in over_limit and "on its way" not in over_limit
    assert "no further link will be sent for a while" in over_limit and "earlier link" in over_limit
    assert len(mailbox(runtime_of, "player_sign_in", to=PLAYER)) == PER_MAILBOX.count


def test_a_player_mailbox_over_the_limit_gets_the_same_answer_whether_or_not_it_plays(
    client: FlaskClient, runtime_of: Runtime, ann_plays: str,
) -> None:
    plays = ask(client, "/sign-in", PLAYER, times=PER_MAILBOX.count + 1)
    stranger = ask(client, "/sign-in", STRANGER, times=PER_MAILBOX.count + 1)

    assert NO_NEW_LINK in plays
    assert plays == stranger


def test_a_host_mailbox_asked_too_often_gets_the_same_truthful_answer_whether_or_not_it_may_host(
    admins_only: Flask,
) -> None:
    client = admins_only.test_client()

    may_host = ask(client, "/host", HOST, times=PER_MAILBOX.count + 1)
    may_not = ask(client, "/host", STRANGER, times=PER_MAILBOX.count + 1)

    assert NO_NEW_LINK in may_host and "on its way" not in may_host
    assert may_host == may_not
    assert len(mailbox(app_runtime(admins_only), "host_link", to=HOST)) == PER_MAILBOX.count


# -- a request costs the same whoever it names --------------------------------------------------------------------


def test_asking_for_a_sign_in_link_runs_the_same_statements_and_answers_the_same_whether_or_not_the_address_plays(
    client: FlaskClient, runtime_of: Runtime, ann_plays: str,
) -> None:
    with_csrf(client)
    answers = {}
    for address in (PLAYER, STRANGER):
        with counted(runtime_of) as statements:
            response = post(client, "/sign-in", email=address)
        answers[address] = (response.status_code, response.data, statements)

    assert answers[PLAYER] == answers[STRANGER]
    assert len(mailbox(runtime_of, "player_sign_in", to=PLAYER)) == 1
    assert mailbox(runtime_of, "player_sign_in", to=STRANGER) == []


def test_asking_for_a_host_link_runs_the_same_statements_and_answers_the_same_whether_or_not_the_address_may_host(
    admins_only: Flask,
) -> None:
    client, runtime = admins_only.test_client(), app_runtime(admins_only)
    with_csrf(client)
    answers = {}
    for address in (HOST, STRANGER):
        with counted(runtime) as statements:
            response = post(client, "/host", email=address)
        answers[address] = (response.status_code, response.data, statements)

    assert answers[HOST] == answers[STRANGER]
    assert len(mailbox(runtime, "host_link", to=HOST)) == 1
    assert mailbox(runtime, "host_link", to=STRANGER) == []


# -- a seat's link that no longer works ---------------------------------------------------------------------------


def folded(response) -> str:
    return " ".join(response.get_data(as_text=True).split())


def expire_links(runtime: Runtime, clock) -> None:
    clock.advance(timedelta(days=runtime.config.link_max_age_days, seconds=1))


def test_a_replaced_players_old_link_says_the_seat_is_no_longer_theirs_offers_nothing_and_names_nobody(
    client: FlaskClient, runtime_of: Runtime, ann_plays: str, clock,
) -> None:
    old = seat_token(runtime_of, ann_plays, 0)
    host = runtime_of.host_access.session_for("host@example.org")
    runtime_of.moderation.replace_player(ann_plays, 0, "Dee", "dee@example.org", host=host)
    pages = [client.get(f"/play/{old}")]
    expire_links(runtime_of, clock)
    pages.append(client.get(f"/play/{old}"))
    with_csrf(client)
    pages.append(post(client, f"/play/{old}/fresh-link"))

    for response in pages:
        page = folded(response)
        assert "This seat is no longer yours" in page and "given this seat to another player" in page
        assert "Email me a fresh link" not in page and "on its way" not in page
        assert "sign in to My games" in page and 'href="/#my-games-heading"' in page
        assert "Dee" not in page and "dee@" not in page and "ann@" not in page
    assert [response.status_code for response in pages] == [410, 410, 200]
    assert mailbox(runtime_of, "fresh_link") == []


def test_an_expired_link_offers_a_fresh_one_that_comes_until_the_seat_was_sent_a_few_today(
    client: FlaskClient, runtime_of: Runtime, ann_plays: str, clock,
) -> None:
    old = seat_token(runtime_of, ann_plays, 0)
    expire_links(runtime_of, clock)
    offer = client.get(f"/play/{old}")
    fields = form_fields(offer.get_data(as_text=True))

    answers = [folded(client.post(f"/play/{old}/fresh-link", data=fields)) for _ in range(PER_SEAT.count + 1)]

    assert offer.status_code == 410 and "Email me a fresh link" in folded(offer)
    assert all("A fresh link to this seat is on its way" in answer for answer in answers[:-1])
    assert NO_NEW_LINK in answers[-1] and "on its way" not in answers[-1]
    assert "no further link will be sent for a while" in answers[-1] and "earlier one" in answers[-1]
    assert len(mailbox(runtime_of, "fresh_link", to=PLAYER)) == PER_SEAT.count
