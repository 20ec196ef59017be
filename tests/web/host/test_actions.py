"""Moderation from the host's game page: each action needs a confirmation and the CSRF token, is written to
the audit log and told to the table; hidden information goes only to the seat it belongs to."""

from __future__ import annotations

import random
import re
from datetime import date

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

import engine
from pbem.models import Game, Snapshot
from pbem.runtime import Runtime
from pbem.service.snapshots import latest_state
from pbem.service.turns.values import PlayerSpec
from pbem.words.roles import role_name
from tests.support.database import dump
from tests.support.games import play_moves, seat_token
from tests.support.mail import mailbox
from tests.support.tables import arrange
from tests.support.web import HOST, audit, post, sign_in, system_lines, unchanged_but_rate_limits


def test_replacing_a_player_hands_over_the_seat(host: FlaskClient, runtime_of: Runtime, game_id: str) -> None:
    old_token = seat_token(runtime_of, game_id, 1)
    response = post(host, f"/host/games/{game_id}/seats/1/replace", confirm="yes", name="Eve", email="eve@example.org")
    assert response.status_code == 303

    assert runtime_of.games.current_state(game_id).players == ["Ann", "Eve", "Cat"]
    assert host.get(f"/play/{old_token}").status_code == 410  # the old links died
    handover = mailbox(runtime_of, "handover", to="eve@example.org")
    assert len(handover) == 1
    view = runtime_of.games.current_state(game_id, 1).view
    body = handover[0].body_text
    assert role_name(view["you"]["role"]) in body
    assert all(card["label"] in " ".join(body.split()) for card in view["you"]["hand"])  # the text part wraps
    new_token = re.search(r"/play/(\S+)", body).group(1)
    assert runtime_of.games.resolve_link(new_token).seat == 1
    assert system_lines(runtime_of, game_id) == [
        "Seat 2 changed hands: Eve takes over from Ben. "
        "A new email address has been sent what the seat knows (its role, hand and map results)."]
    assert audit(runtime_of, game_id)[-1][0] == "replace_player"


def test_after_a_seat_changes_hands_pages_and_emails_call_it_by_its_new_name(
    app: Flask, host: FlaskClient, runtime_of: Runtime, arranged_game
) -> None:
    game_id = arranged_game(arrange(3, turn=0, hands={0: ["break_pick"]}))  # Ann may break Bo's or Cy's pickaxe
    ann = app.test_client()
    ann.get(f"/play/{seat_token(runtime_of, game_id, 0)}")
    assert "Bo&#39;s pick" in ann.get(f"/table/{game_id}").get_data(as_text=True)

    post(host, f"/host/games/{game_id}/seats/1/replace", confirm="yes", name="Eve", email="eve@example.org")

    page = ann.get(f"/table/{game_id}").get_data(as_text=True)
    seats = page.split('class="seat-list"')[1].split("</ol>")[0]
    assert "Eve&#39;s pick" in page and "Bo&#39;s" not in page
    assert "Eve" in seats and "Bo" not in seats
    assert runtime_of.games.current_state(game_id, 0).view["players"] == ["Ann", "Eve", "Cy"]
    assert runtime_of.games.current_state(game_id, 1).view["you"]["name"] == "Eve"
    with runtime_of.db.write() as session:
        game = session.scalars(select(Game).where(Game.public_id == game_id)).one()
        runtime_of.games.mail.daily_digest(session, game, game.seats[2], latest_state(session, game), date(2026, 1, 5))
    [digest] = mailbox(runtime_of, "daily_digest", to="cy@example.org")
    table = digest.body_text.split("The table:")[1].split("cards on the board")[0]
    assert "Eve:" in table and "Bo" not in table


def test_the_table_is_told_nothing_private_when_a_seat_changes_hands(
    host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    view = runtime_of.games.current_state(game_id, 1).view
    post(host, f"/host/games/{game_id}/seats/1/replace", confirm="yes", name="Eve", email="eve@example.org")
    told = " ".join(system_lines(runtime_of, game_id))
    assert role_name(view["you"]["role"]) not in told
    assert not any(card["label"] in told for card in view["you"]["hand"])
    assert [m.to_address for m in mailbox(runtime_of, "handover")] == ["eve@example.org"]


def test_a_replacement_needs_a_valid_email_and_a_free_name(
    host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    before = dump(runtime_of.db)
    bad_email = post(host, f"/host/games/{game_id}/seats/1/replace", confirm="yes", name="Eve", email="eve")
    taken = post(host, f"/host/games/{game_id}/seats/1/replace", confirm="yes", name="cat", email="eve@example.org")
    assert bad_email.status_code == 400 and b"not an email address" in bad_email.data
    assert taken.status_code == 400 and b"already called cat" in taken.data
    assert unchanged_but_rate_limits(before, dump(runtime_of.db))


def test_rotating_a_link_kills_the_old_one_and_emails_a_new_one(
    host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    old_token = seat_token(runtime_of, game_id, 0)
    assert post(host, f"/host/games/{game_id}/seats/0/rotate", confirm="yes").status_code == 303
    assert host.get(f"/play/{old_token}").status_code == 410
    sent = mailbox(runtime_of, "seat_link", to="ann@example.org")
    assert len(sent) == 1 and "renewed your link" in sent[0].body_text
    assert runtime_of.games.resolve_link(re.search(r"/play/(\S+)", sent[0].body_text).group(1)).seat == 0
    assert audit(runtime_of, game_id)[-1] == ("rotate_link", {"seat": 0})
    assert system_lines(runtime_of, game_id) == ["The host renewed Ann's link."]


def test_resending_a_link_keeps_old_links_working(host: FlaskClient, runtime_of: Runtime, game_id: str) -> None:
    old_token = seat_token(runtime_of, game_id, 2)
    assert post(host, f"/host/games/{game_id}/seats/2/resend", confirm="yes").status_code == 303
    assert runtime_of.games.resolve_link(old_token).seat == 2
    assert len(mailbox(runtime_of, "seat_link", to="cat@example.org")) == 1
    assert audit(runtime_of, game_id)[-1] == ("resend_link", {"seat": 2})


def test_correcting_an_email_sends_a_new_link_to_the_new_address_once_the_old_one_confirms(
    app: Flask, host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    old_token = seat_token(runtime_of, game_id, 1)
    assert post(host, f"/host/games/{game_id}/seats/1/email", confirm="yes", email="ben@new.example").status_code == 303
    confirm_address_change(app, runtime_of, "ben@example.org")
    assert host.get(f"/play/{old_token}").status_code == 410
    assert len(mailbox(runtime_of, "seat_link", to="ben@new.example")) == 1
    assert runtime_of.games.invites(game_id)[1].email == "ben@new.example"
    bad = post(host, f"/host/games/{game_id}/seats/1/email", confirm="yes", email="nope")
    assert bad.status_code == 400


def confirm_address_change(app: Flask, runtime: Runtime, old_address: str) -> None:
    """The owner of the old address opens the emailed confirmation link and presses its button."""
    path = re.search(r"https?://[^/\s]+(/seat-address/\S+)", mailbox(runtime, "address_change", to=old_address)[-1]
                     .body_text).group(1)
    owner = app.test_client()
    with owner.session_transaction() as session:
        session["csrf"] = "owner-csrf"
    assert owner.get(path).status_code == 200
    assert owner.post(path, data={"csrf_token": "owner-csrf"}).status_code == 200


def test_a_computer_seat_has_no_link_to_rotate(host: FlaskClient, runtime_of: Runtime, new_game) -> None:
    game_id = new_game([PlayerSpec("Ann", "ann@example.org"), PlayerSpec("Ben", "ben@example.org"),
                        PlayerSpec("Bot 1", None, is_bot=True)])
    assert post(host, f"/host/games/{game_id}/seats/2/rotate", confirm="yes").status_code == 400
    # ... but a person may take it over
    assert post(host, f"/host/games/{game_id}/seats/2/replace", confirm="yes", name="Eve",
                email="eve@example.org").status_code == 303
    assert runtime_of.games.invites(game_id)[2].is_bot is False


@pytest.mark.parametrize("action", ["end", "abandon"])
def test_ending_or_abandoning_needs_a_confirmation(
    host: FlaskClient, runtime_of: Runtime, game_id: str, action: str
) -> None:
    before = dump(runtime_of.db)
    response = post(host, f"/host/games/{game_id}/{action}")
    assert response.status_code == 200 and b'id="confirm-step"' in response.data  # asked first, nothing done
    assert unchanged_but_rate_limits(before, dump(runtime_of.db))


@pytest.mark.parametrize("path", ["end", "abandon", "seats/0/rotate", "seats/0/resend", "reveal", "rollback"])
def test_actions_without_the_csrf_token_are_refused(
    host: FlaskClient, runtime_of: Runtime, game_id: str, path: str
) -> None:
    before = dump(runtime_of.db)
    response = host.post(f"/host/games/{game_id}/{path}", data={"confirm": "yes", "reason": "x", "to": "0"})
    assert response.status_code == 400
    assert unchanged_but_rate_limits(before, dump(runtime_of.db))


def test_ending_early_finishes_with_the_standings_and_opens_the_export(
    host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    assert host.get(f"/host/games/{game_id}/export.json").status_code == 409
    assert post(host, f"/host/games/{game_id}/end", confirm="yes").status_code == 303
    assert runtime_of.games.current_state(game_id).status == "finished"
    assert system_lines(runtime_of, game_id)[-1].startswith(
        "The host ended the game early. Standings as they are: Ann 0")
    export = host.get(f"/host/games/{game_id}/export.json")
    assert export.status_code == 200
    archive = export.get_json()
    assert archive["format"] == "saboteur-pbem-archive-3"
    assert [a["action"] for a in archive["host_actions"]] == ["create_game", "start_game", "end_game"]
    assert archive["snapshots"][0]["view"]["open"] and archive["seats"][0]["email"] == "ann@example.org"


def test_abandoning_stops_the_game(host: FlaskClient, runtime_of: Runtime, game_id: str) -> None:
    assert post(host, f"/host/games/{game_id}/abandon", confirm="yes").status_code == 303
    assert runtime_of.games.current_state(game_id).status == "abandoned"
    assert system_lines(runtime_of, game_id) == ["The host abandoned the game."]
    assert post(host, f"/host/games/{game_id}/abandon", confirm="yes").status_code == 409


@pytest.mark.parametrize(("action", "news"), [
    ("end", "The host ended \"Test mine\" early, so the game is over now. It counts as finished, with the gold as it "
            "stood: Ann 0, Ben 0, Cat 0."),
    ("abandon", "The host stopped \"Test mine\" for good: it will not be played to the end, and nobody wins it."),
])
def test_every_person_at_the_table_is_emailed_when_the_host_ends_or_abandons_the_game(
    host: FlaskClient, runtime_of: Runtime, game_id: str, action: str, news: str
) -> None:
    assert post(host, f"/host/games/{game_id}/{action}", confirm="yes").status_code == 303

    closed = mailbox(runtime_of, "game_closed")
    assert sorted(row.to_address for row in closed) == ["ann@example.org", "ben@example.org", "cat@example.org"]
    for row in closed:
        assert news in " ".join(row.body_text.split())
        token = re.search(r"/play/([\w.-]+)", row.body_text)
        assert token and host.get(f"/play/{token.group(1)}").status_code in (200, 303)


def test_a_rollback_appends_a_copy_of_the_earlier_state(host: FlaskClient, runtime_of: Runtime, game_id: str) -> None:
    play_moves(runtime_of, game_id, 5, random.Random(3))
    with runtime_of.db.read() as session:
        game = session.scalar(select(Game).where(Game.public_id == game_id))
        earlier = session.scalar(select(Snapshot.state).where(Snapshot.game_id == game.id, Snapshot.seq == 2))
    review = host.get(f"/host/games/{game_id}/rollback?to=2")
    assert review.status_code == 200 and b"cannot forget" in review.data

    response = post(host, f"/host/games/{game_id}/rollback", confirm="yes", to="2", reason="Ben misclicked")
    assert response.status_code == 303
    with runtime_of.db.read() as session:
        snapshots = list(session.scalars(select(Snapshot).where(Snapshot.game_id == game.id).order_by(Snapshot.seq)))
    assert [s.seq for s in snapshots] == [0, 1, 2, 3, 4, 5, 6]  # nothing rewritten, one appended
    assert snapshots[-1].state == earlier
    assert audit(runtime_of, game_id)[-1] == ("rollback", {"from_seq": 5, "to_seq": 2, "reason": "Ben misclicked"})
    assert system_lines(runtime_of, game_id) == ["The host rolled the game back to turn 2: Ben misclicked"]
    assert runtime_of.games.history(game_id)[-1].lines == [
        "The host took the game back to how it stood at turn 2; play goes on from there."]


def test_a_rollback_needs_a_reason_and_an_earlier_turn(host: FlaskClient, runtime_of: Runtime, game_id: str) -> None:
    play_moves(runtime_of, game_id, 2, random.Random(4))
    before = dump(runtime_of.db)
    assert post(host, f"/host/games/{game_id}/rollback", confirm="yes", to="1", reason=" ").status_code == 400
    assert post(host, f"/host/games/{game_id}/rollback", confirm="yes", to="2", reason="x").status_code == 400
    assert post(host, f"/host/games/{game_id}/rollback", confirm="yes", to="-1", reason="x").status_code == 400
    assert post(host, f"/host/games/{game_id}/rollback", confirm="yes", to="one", reason="x").status_code == 400
    assert unchanged_but_rate_limits(before, dump(runtime_of.db))


def test_the_rollback_warning_names_the_kinds_of_secrets_seen_without_their_contents(
    host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    play_moves(runtime_of, game_id, 6, random.Random(5))
    seen = runtime_of.hosting.seen_since(game_id, 0, runtime_of.host_access.session_for(HOST))
    assert any(" saw " in line and "the cards they drew" in line for line in seen), seen
    page = host.get(f"/host/games/{game_id}/rollback?to=0").get_data(as_text=True)
    state, _ = runtime_of.games.engine_state(game_id)
    for seat in range(3):
        for card in engine.view(state, seat)["you"]["hand"]:
            assert f'"{card["label"]}' not in page


def test_a_host_who_does_not_play_may_reveal_with_a_reason(
    host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    assert post(host, f"/host/games/{game_id}/reveal", confirm="yes", reason="").status_code == 400
    response = post(host, f"/host/games/{game_id}/reveal", confirm="yes", reason="Ann says Ben cheated")
    assert response.status_code == 200
    state, _ = runtime_of.games.engine_state(game_id)
    assert engine.view(state, 0)["you"]["role"] in response.get_data(as_text=True)
    assert system_lines(runtime_of, game_id) == [
        "The host looked at the hidden cards to settle a dispute: Ann says Ben cheated"]
    assert audit(runtime_of, game_id)[-1] == ("reveal", {"reason": "Ann says Ben cheated"})


def test_a_host_who_plays_may_not_reveal(client: FlaskClient, runtime_of: Runtime, new_game) -> None:
    game_id = new_game([PlayerSpec("Ann", "ann@example.org"), PlayerSpec("Ben", "ben@example.org"),
                        PlayerSpec("Hilda", HOST)])
    sign_in(client, runtime_of)
    page = client.get(f"/host/games/{game_id}").get_data(as_text=True)
    assert "Emergency reveal" not in page and "only what every player sees" in page
    before = dump(runtime_of.db)
    response = post(client, f"/host/games/{game_id}/reveal", confirm="yes", reason="curious")
    assert response.status_code == 403
    assert unchanged_but_rate_limits(before, dump(runtime_of.db))


def test_the_host_talks_to_the_table_and_reads_its_chat(host: FlaskClient, runtime_of: Runtime, game_id: str) -> None:
    runtime_of.chat.post(game_id, 0, "Who broke my lamp?")
    assert post(host, f"/host/games/{game_id}/say", text="Play nicely").status_code == 303
    lines = runtime_of.chat.messages(game_id).lines
    assert [(line.kind, line.name, line.text) for line in lines] == [
        ("seat", "Ann", "Who broke my lamp?"), ("host", "Host", "Play nicely")]
    page = host.get(f"/host/games/{game_id}").get_data(as_text=True)
    assert "Who broke my lamp?" in page and "Play nicely" in page
    assert post(host, f"/host/games/{game_id}/say", text="  ").status_code == 400


def test_a_rollback_emails_the_seat_whose_turn_it_is_again(
    host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    play_moves(runtime_of, game_id, 3, random.Random(8))
    before = len(mailbox(runtime_of, "your_turn"))
    post(host, f"/host/games/{game_id}/rollback", confirm="yes", to="1", reason="misclick")
    state, seq = runtime_of.games.engine_state(game_id)
    to_act = engine.to_act(state)
    latest = mailbox(runtime_of, "your_turn")[before:]
    assert [m.to_address for m in latest] == [runtime_of.games.invites(game_id)[to_act].email]
    assert "rolled the game back" in latest[0].body_text  # the table is told in the next email too


def test_after_an_early_end_the_players_pages_replay_and_archive_open(
    host: FlaskClient, app: Flask, runtime_of: Runtime, game_id: str
) -> None:
    play_moves(runtime_of, game_id, 4, random.Random(1))
    assert post(host, f"/host/games/{game_id}/end", confirm="yes").status_code == 303
    player = app.test_client()
    assert player.get(f"/play/{seat_token(runtime_of, game_id, 0)}", follow_redirects=True).status_code == 200
    for path in ("replay", "replay?step=1", "replay.html", "archive.json"):
        assert player.get(f"/table/{game_id}/{path}").status_code == 200, path
    assert "The host ended the game early" in player.get(f"/table/{game_id}").get_data(as_text=True)


def test_a_game_waiting_to_start_is_started_from_its_page(host: FlaskClient, runtime_of: Runtime, new_game) -> None:
    game_id = new_game(start=False)
    assert "Start the game" in host.get(f"/host/games/{game_id}").get_data(as_text=True)
    assert post(host, f"/host/games/{game_id}/start").status_code == 200  # asked first: "Start the game?"
    assert runtime_of.games.current_state(game_id).status == "created"
    assert post(host, f"/host/games/{game_id}/start", confirm="yes").status_code == 303
    assert runtime_of.games.current_state(game_id).status == "active"
    assert len(mailbox(runtime_of, "game_started")) == 3
    assert post(host, f"/host/games/{game_id}/start", confirm="yes").status_code == 409
