"""Play again and moderation that talks like a person: a rematch of a finished game (host, or a player when
allowed), a copy of a game's settings, a nudge with the host's note, the kind email to a replaced player, the
rollback email, and each player's local time and night on the host's pages."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select, update
from sqlalchemy.orm import selectinload

from pbem.models import Game, Seat
from pbem.runtime import Runtime
from tests.support.games import link_token, play_moves, seat_to_act, seat_token
from tests.support.mail import mailbox
from tests.support.web import post, redirected_id, with_csrf


def finished(host: FlaskClient, game_id: str) -> None:
    assert post(host, f"/host/games/{game_id}/end", confirm="yes").status_code == 303


def game_row(runtime: Runtime, game_id: str) -> Game:
    with runtime.db.read() as session:
        game = session.scalar(select(Game).where(Game.public_id == game_id).options(selectinload(Game.seats)))
        assert game is not None
        return game


def test_the_host_starts_a_rematch_with_the_seats_rotated_and_everyone_gets_a_new_link(
    host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    finished(host, game_id)

    response = post(host, f"/host/games/{game_id}/rematch", confirm="yes", order="rotated")

    assert response.status_code == 303
    new_id = redirected_id(response)
    rematch = game_row(runtime_of, new_id)
    assert rematch.status == "active" and rematch.names == ["Ben", "Cat", "Ann"]
    assert rematch.title == "Test mine (rematch)" and rematch.variant == "base"
    started = [m for m in mailbox(runtime_of, "game_started") if m.game_id == rematch.id]
    assert sorted(m.to_address for m in started) == ["ann@example.org", "ben@example.org", "cat@example.org"]
    assert "A rematch of" in host.get(f"/host/games/{new_id}").get_data(as_text=True)
    assert 'id="rematch-link"' in host.get(f"/host/games/{game_id}").get_data(as_text=True)
    # Asking again leads to the same rematch: nothing new is dealt or sent.
    again = post(host, f"/host/games/{game_id}/rematch", confirm="yes", order="shuffled")
    assert again.headers["Location"].endswith(new_id) and len(mailbox(runtime_of, "game_started")) == 6


def test_the_rematchs_first_email_names_the_previous_game_and_links_each_player_to_its_final_page(
    app: Flask, host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    finished(host, game_id)
    new_id = post(host, f"/host/games/{game_id}/rematch", confirm="yes", order="rotated").headers["Location"]
    rematch = game_row(runtime_of, link_token(new_id))

    started = [m for m in mailbox(runtime_of, "game_started") if m.game_id == rematch.id]

    assert len(started) == 3
    player = app.test_client()
    for letter in started:
        text = " ".join(letter.body_text.split())
        assert 'It is a rematch of "Test mine". How that game ended: https://' in text
        old_link = re.search(r"How that game ended: (\S+)", text).group(1)
        assert f'<a href="{old_link}" style="color:#7a4b1e;">Test mine</a>' in letter.body_html
        final_page = player.get(old_link.split("pbem.test", 1)[1], follow_redirects=True)
        assert final_page.status_code == 200 and "The game is over" in final_page.get_data(as_text=True)
    first_game = [m for m in mailbox(runtime_of, "game_started") if m.game_id != rematch.id]
    assert not any("rematch of" in m.body_text for m in first_game)


def test_a_players_page_answers_after_the_host_ends_the_game_before_any_round_is_over(
    app: Flask, host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    play_moves(runtime_of, game_id, 2, random.Random(3))
    assert post(host, f"/host/games/{game_id}/rollback", confirm="yes", to="1", reason="A slip").status_code == 303
    finished(host, game_id)

    page = app.test_client().get(f"/play/{seat_token(runtime_of, game_id, 0)}", follow_redirects=True)

    assert page.status_code == 200 and "The game is over" in page.get_data(as_text=True)


def test_a_running_game_has_no_rematch(host: FlaskClient, runtime_of: Runtime, game_id: str) -> None:
    response = post(host, f"/host/games/{game_id}/rematch", confirm="yes", order="rotated")
    assert response.status_code == 409 and len(mailbox(runtime_of, "game_started")) == 3


def test_a_player_starts_the_rematch_from_the_game_over_page_only_when_the_host_allows_it(
    app: Flask, host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    finished(host, game_id)
    player = app.test_client()
    with_csrf(player)
    token = seat_token(runtime_of, game_id, 1)

    assert "Start a rematch" not in player.get(f"/play/{token}", follow_redirects=True).get_data(as_text=True)
    refused = post(player, f"/play/{token}/rematch")
    assert refused.status_code == 403 and len(mailbox(runtime_of, "game_started")) == 3

    assert post(host, f"/host/games/{game_id}/rematch-permission", confirm="yes", allowed="yes").status_code == 303
    assert "Start a rematch" in player.get(f"/play/{token}", follow_redirects=True).get_data(as_text=True)
    response = post(player, f"/play/{token}/rematch")

    assert response.status_code == 303 and "/play/" in response.headers["Location"]
    assert len(mailbox(runtime_of, "game_started")) == 6


def test_copying_a_games_settings_fills_the_new_game_form(host: FlaskClient, runtime_of: Runtime, game_id: str) -> None:
    page = host.get(f"/host/new?copy={game_id}").get_data(as_text=True)
    assert 'value="Test mine"' in page and 'value="ben@example.org"' in page and 'value="Cat"' in page
    assert "The settings and players of your earlier game are filled in" in page
    assert len(mailbox(runtime_of, "game_started")) == 3  # nothing was created


def test_copying_a_game_that_is_not_there_is_not_found(host: FlaskClient, runtime_of: Runtime) -> None:
    for odd in ("no-such-game", "\x00", "Ann\x00\x1b[31m"):
        response = host.get("/host/new", query_string={"copy": odd})
        assert response.status_code == 404, odd
    assert len(mailbox(runtime_of)) == 1  # the host's sign-in link only: nothing created or sent


def test_a_nudge_carries_the_hosts_note_and_counts_among_the_reminders(
    host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    seat = seat_to_act(runtime_of, game_id)
    response = post(host, f"/host/games/{game_id}/seats/{seat}/nudge", confirm="yes",
                    note="We are all waiting,\nplease play tonight!")
    assert response.status_code == 303

    [nudge] = mailbox(runtime_of, "nudge")
    assert "The host of \"Test mine\" sent you a nudge" in nudge.body_text
    assert "> We are all waiting," in nudge.body_text and "please play tonight!" in nudge.body_html
    page = host.get(f"/host/games/{game_id}").get_data(as_text=True)
    assert 'id="reminders-sent">1 (1 from you)' in page
    assert "(1 from you)" in host.get("/host").get_data(as_text=True)


def test_a_nudge_note_that_is_too_long_sends_nothing(host: FlaskClient, runtime_of: Runtime, game_id: str) -> None:
    seat = seat_to_act(runtime_of, game_id)
    response = post(host, f"/host/games/{game_id}/seats/{seat}/nudge", confirm="yes", note="x" * 301)
    assert response.status_code == 400 and "at most 300 characters" in response.get_data(as_text=True)
    assert mailbox(runtime_of, "nudge") == []


def test_a_replaced_player_gets_a_kind_email_that_their_link_no_longer_works(
    host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    role_words = ("Saboteur", "Gold-Digger", "gold digger")
    assert post(host, f"/host/games/{game_id}/seats/1/replace", confirm="yes", name="Eve",
                email="eve@example.org").status_code == 303

    [letter] = mailbox(runtime_of, "seat_replaced")
    assert letter.to_address == "ben@example.org"
    text = " ".join(letter.body_text.split())
    assert "handed your seat to another player" in text and "old link to the table no longer works" in text
    assert "Thank you for the turns you played" in text
    assert "/play/" not in letter.body_text and not any(word in letter.body_text for word in role_words)


def test_every_player_is_told_of_a_rollback_in_plain_words(
    host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    play_moves(runtime_of, game_id, 1, random.Random(4))

    assert post(host, f"/host/games/{game_id}/rollback", confirm="yes", to="0",
                reason="Ann misclicked").status_code == 303

    letters = mailbox(runtime_of, "rolled_back")
    assert sorted(m.to_address for m in letters) == ["ann@example.org", "ben@example.org", "cat@example.org"]
    text = " ".join(letters[0].body_text.split())
    assert "took the game back to turn 0" in text and "The host's reason: Ann misclicked" in text
    assert "every move after turn 0 is undone" in text


def test_the_host_sees_each_players_local_time_and_night(
    host: FlaskClient, runtime_of: Runtime, game_id: str, clock
) -> None:
    clock.set(datetime(2026, 1, 5, 23, 30, tzinfo=UTC))
    with runtime_of.db.write() as session:
        session.execute(update(Seat).where(Seat.display_name == "Ann").values(timezone="Asia/Tokyo"))
        session.execute(update(Seat).where(Seat.display_name == "Ben").values(timezone="America/New_York"))

    page = host.get(f"/host/games/{game_id}").get_data(as_text=True)

    ann = page.split('id="seat-0"', 1)[1].split("</tr>", 1)[0]
    ben = page.split('id="seat-1"', 1)[1].split("</tr>", 1)[0]
    assert "Tue 08:30" in ann and "Tokyo" in ann and "night" not in ann
    assert "Mon 18:30" in ben and "New York" in ben and "night" not in ben
    cat = page.split('id="seat-2"', 1)[1].split("</tr>", 1)[0]
    assert "Mon 23:30" in cat and 'tag-night">night' in cat  # UTC, within the default 22:00-08:00


def test_a_player_the_host_replaced_in_the_rematch_is_told_it_goes_on_without_them(
    app: Flask, host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    finished(host, game_id)
    assert post(host, f"/host/games/{game_id}/rematch-permission", confirm="yes", allowed="yes").status_code == 303
    new_id = post(host, f"/host/games/{game_id}/rematch", confirm="yes", order="rotated").headers["Location"]
    new_id = link_token(new_id)
    ann = game_row(runtime_of, new_id).names.index("Ann")
    assert post(host, f"/host/games/{new_id}/seats/{ann}/replace", confirm="yes", name="Eve",
                email="eve@example.org").status_code == 303
    player = app.test_client()
    with_csrf(player)

    response = post(player, f"/play/{seat_token(runtime_of, game_id, 0)}/rematch")

    page = response.get_data(as_text=True)
    assert response.status_code == 200 and "under way without you" in page
    assert "eve@example.org" not in page and "/play/" not in page
    assert len(mailbox(runtime_of, "game_started")) == 6  # nothing new was dealt or sent
