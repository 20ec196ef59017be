"""A host who plays stays blind: the game records at its creation that the host holds a seat (then no reveal,
ever), a seat's private knowledge never goes to one of the host's addresses (case and plus-tags folded) nor to
another seat's mailbox, a correction of an address waits for the old address to confirm it, and the table is
told whenever a new address receives a seat's knowledge."""

from __future__ import annotations

import re
from datetime import timedelta

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from pbem.models import Game
from pbem.runtime import Runtime
from pbem.service.turns.values import PlayerSpec
from tests.support.database import dump
from tests.support.games import seat_token
from tests.support.mail import mailbox
from tests.support.web import HOST, audit, post, sign_in, system_lines, unchanged_but_rate_limits

CONFIRM_PATH = re.compile(r"https?://[^/\s]+(/seat-address/\S+)")
OWNER_CSRF = "owner-csrf"
HOST_PLAYS_TOO = (PlayerSpec("Ann", "ann@example.org"), PlayerSpec("Ben", "ben@example.org"),
                  PlayerSpec("Hilda", "Host+play@Example.org"))


def owner(app: Flask) -> FlaskClient:
    """The browser of whoever reads a seat's current address."""
    browser = app.test_client()
    with browser.session_transaction() as session:
        session["csrf"] = OWNER_CSRF
    return browser


def confirm_path(runtime: Runtime, old_address: str) -> str:
    [message] = mailbox(runtime, "address_change", to=old_address)[-1:]
    found = CONFIRM_PATH.search(message.body_text)
    assert found, message.body_text
    return found.group(1)


def seat_email(runtime: Runtime, game_id: str, seat: int) -> str | None:
    return runtime.games.invites(game_id)[seat].email


# -- the record that the host plays ------------------------------------------------------------------------


def test_a_game_records_at_creation_whether_its_host_holds_a_seat(new_game, runtime_of: Runtime) -> None:
    playing, watching = new_game(HOST_PLAYS_TOO), new_game()
    with runtime_of.db.read() as session:
        flags = {game.public_id: game.host_plays for game in session.scalars(select(Game))}
    assert flags == {playing: True, watching: False}


def test_a_host_who_plays_under_a_plus_address_may_not_reveal(client: FlaskClient, runtime_of: Runtime,
                                                              new_game) -> None:
    game_id = new_game(HOST_PLAYS_TOO)
    sign_in(client, runtime_of, HOST)
    assert "Emergency reveal" not in client.get(f"/host/games/{game_id}").get_data(as_text=True)
    before = dump(runtime_of.db)

    response = post(client, f"/host/games/{game_id}/reveal", confirm="yes", reason="curious")

    assert response.status_code == 403 and b"The host plays in this game" in response.data
    assert unchanged_but_rate_limits(before, dump(runtime_of.db))


def test_the_reveal_stays_refused_after_the_hosts_own_seat_changes_hands(
    client: FlaskClient, runtime_of: Runtime, new_game
) -> None:
    game_id = new_game(HOST_PLAYS_TOO)
    sign_in(client, runtime_of, HOST)
    assert post(client, f"/host/games/{game_id}/seats/2/replace", confirm="yes", name="Ivy",
                email="ivy@example.org").status_code == 303

    response = post(client, f"/host/games/{game_id}/reveal", confirm="yes", reason="I left, now let me look")

    assert response.status_code == 403
    assert "reveal" not in [action for action, _ in audit(runtime_of, game_id)]


# -- replacements ------------------------------------------------------------------------------------------


def test_a_replacement_never_hands_a_seat_to_one_of_the_hosts_addresses(
    host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    before = dump(runtime_of.db)
    for address in ("host+ben@example.org", "HOST@example.org", "Host+x@EXAMPLE.org"):
        answer = post(host, f"/host/games/{game_id}/seats/1/replace", confirm="yes", name="Eve", email=address)
        assert answer.status_code == 400 and b"never go to the host" in answer.data
    assert unchanged_but_rate_limits(before, dump(runtime_of.db))
    assert mailbox(runtime_of, "handover") == []


def test_a_replacement_never_hands_a_seat_to_another_seats_mailbox(
    host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    before = dump(runtime_of.db)
    answer = post(host, f"/host/games/{game_id}/seats/2/replace", confirm="yes", name="Eve",
                  email="Ben+cat@example.org")
    assert answer.status_code == 400 and b"already receives Ben&#39;s seat" in answer.data
    assert unchanged_but_rate_limits(before, dump(runtime_of.db))


def test_the_table_is_told_that_a_new_address_received_the_seats_knowledge(
    host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    post(host, f"/host/games/{game_id}/seats/1/replace", confirm="yes", name="Eve", email="eve@example.org")
    [line] = system_lines(runtime_of, game_id)
    assert "Eve takes over from Ben" in line and "A new email address has been sent what the seat knows" in line


# -- corrections -------------------------------------------------------------------------------------------


def test_a_correction_changes_nothing_until_the_old_address_confirms_it(
    app: Flask, host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    old_link = seat_token(runtime_of, game_id, 1)

    answer = post(host, f"/host/games/{game_id}/seats/1/email", confirm="yes", email="ben@new.example")

    assert answer.status_code == 303
    assert seat_email(runtime_of, game_id, 1) == "ben@example.org"
    assert runtime_of.games.resolve_link(old_link).seat == 1
    assert mailbox(runtime_of, to="ben@new.example") == []
    assert system_lines(runtime_of, game_id) == []
    [asked] = mailbox(runtime_of, "address_change")
    assert asked.to_address == "ben@example.org" and "ben@new.example" in asked.body_text
    assert "ben@new.example" in asked.body_html


def test_the_confirmation_page_changes_nothing_until_its_button_is_pressed(
    app: Flask, host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    post(host, f"/host/games/{game_id}/seats/1/email", confirm="yes", email="ben@new.example")
    path = confirm_path(runtime_of, "ben@example.org")
    browser = owner(app)

    shown = browser.get(path)
    assert shown.status_code == 200 and b"ben@new.example" in shown.data and b"confirm-address" in shown.data
    assert seat_email(runtime_of, game_id, 1) == "ben@example.org"
    assert browser.post(path).status_code == 400  # no CSRF token: nothing done
    assert seat_email(runtime_of, game_id, 1) == "ben@example.org"


def test_a_confirmed_correction_moves_the_seat_and_tells_the_table(
    app: Flask, host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    old_link = seat_token(runtime_of, game_id, 1)
    post(host, f"/host/games/{game_id}/seats/1/email", confirm="yes", email="ben@new.example")

    done = owner(app).post(confirm_path(runtime_of, "ben@example.org"), data={"csrf_token": OWNER_CSRF})

    assert done.status_code == 200 and b"now goes to ben@new.example" in done.data
    assert seat_email(runtime_of, game_id, 1) == "ben@new.example"
    assert host.get(f"/play/{old_link}").status_code == 410
    [link] = mailbox(runtime_of, "seat_link", to="ben@new.example")
    assert "old address confirmed it" in link.body_text
    assert system_lines(runtime_of, game_id) == [
        "Ben's email address changed (confirmed from the old address): Ben's links and everything the seat knows "
        "now go to the new address."]
    assert audit(runtime_of, game_id)[-1] == ("correct_email", {"seat": 1, "confirmed_by_old_address": True})


def test_a_confirmation_link_works_once(app: Flask, host: FlaskClient, runtime_of: Runtime, game_id: str) -> None:
    post(host, f"/host/games/{game_id}/seats/1/email", confirm="yes", email="ben@new.example")
    path = confirm_path(runtime_of, "ben@example.org")
    browser = owner(app)
    assert browser.post(path, data={"csrf_token": OWNER_CSRF}).status_code == 200

    again = browser.post(path, data={"csrf_token": OWNER_CSRF})

    assert again.status_code == 403
    assert len(mailbox(runtime_of, "seat_link", to="ben@new.example")) == 1


def test_a_confirmation_link_expires_after_three_days(
    app: Flask, host: FlaskClient, runtime_of: Runtime, game_id: str, clock
) -> None:
    post(host, f"/host/games/{game_id}/seats/1/email", confirm="yes", email="ben@new.example")
    path = confirm_path(runtime_of, "ben@example.org")
    clock.advance(timedelta(days=3, minutes=1))

    late = owner(app).post(path, data={"csrf_token": OWNER_CSRF})

    assert late.status_code == 403 and b"not valid any more" in late.data
    assert seat_email(runtime_of, game_id, 1) == "ben@example.org"


def test_a_forged_confirmation_link_is_refused(app: Flask) -> None:
    browser = owner(app)
    assert browser.get("/seat-address/not-a-token").status_code == 403
    assert browser.post("/seat-address/not-a-token", data={"csrf_token": OWNER_CSRF}).status_code == 403


def test_a_newer_correction_replaces_the_one_still_waiting(
    app: Flask, host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    post(host, f"/host/games/{game_id}/seats/1/email", confirm="yes", email="ben@typo.example")
    first = confirm_path(runtime_of, "ben@example.org")
    post(host, f"/host/games/{game_id}/seats/1/email", confirm="yes", email="ben@new.example")

    assert owner(app).post(first, data={"csrf_token": OWNER_CSRF}).status_code == 403
    assert seat_email(runtime_of, game_id, 1) == "ben@example.org"


def test_a_waiting_correction_no_longer_applies_once_the_seat_changed_hands(
    app: Flask, host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    post(host, f"/host/games/{game_id}/seats/1/email", confirm="yes", email="ben@new.example")
    path = confirm_path(runtime_of, "ben@example.org")
    post(host, f"/host/games/{game_id}/seats/1/replace", confirm="yes", name="Eve", email="eve@example.org")

    late = owner(app).post(path, data={"csrf_token": OWNER_CSRF})

    assert late.status_code == 403 and b"no longer applies" in late.data
    assert seat_email(runtime_of, game_id, 1) == "eve@example.org"


def test_a_correction_never_moves_a_seat_to_one_of_the_hosts_addresses(
    host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    before = dump(runtime_of.db)
    for address in ("host+ben@example.org", "Host@Example.org"):
        answer = post(host, f"/host/games/{game_id}/seats/1/email", confirm="yes", email=address)
        assert answer.status_code == 400 and b"never go to the host" in answer.data
    assert post(host, f"/host/games/{game_id}/seats/1/email", confirm="yes",
                email="cat+ben@example.org").status_code == 400  # Cat's mailbox holds a seat already
    assert unchanged_but_rate_limits(before, dump(runtime_of.db))
    assert mailbox(runtime_of, "address_change") == []


def test_the_hosts_own_seat_keeps_to_the_hosts_mailboxes(client: FlaskClient, runtime_of: Runtime, new_game) -> None:
    game_id = new_game(HOST_PLAYS_TOO)
    sign_in(client, runtime_of, HOST)

    elsewhere = post(client, f"/host/games/{game_id}/seats/2/email", confirm="yes", email="other@example.net")
    own = post(client, f"/host/games/{game_id}/seats/2/email", confirm="yes", email="host+new@example.org")

    assert elsewhere.status_code == 400 and b"host&#39;s own seat" in elsewhere.data
    assert own.status_code == 303
    assert [m.to_address for m in mailbox(runtime_of, "address_change")] == ["Host+play@Example.org"]


def test_a_seat_is_asked_to_confirm_at_most_three_corrections_a_day(
    host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    answers = [post(host, f"/host/games/{game_id}/seats/1/email", confirm="yes",
                    email=f"ben{n}@new.example").status_code for n in range(4)]
    assert answers == [303, 303, 303, 429]
    assert len(mailbox(runtime_of, "address_change", to="ben@example.org")) == 3
