"""Bad input gets a clear 4xx and changes nothing: numbers out of range, control and direction characters in
names and titles, requests too large to read; and a server on https says so (HSTS), while production refuses
plain http unless a test set-up asks for it.

The walk of every route with hostile input is tests/web/test_routes_fuzz.py; these are the cases it found, each
stated as the rule it breaks.
"""

from __future__ import annotations

import dataclasses
import io
import random
import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

import engine
from pbem.config import Config, ConfigError, load_config
from pbem.errors import ValidationError
from pbem.models import ChatMessage, Game, Seat
from pbem.runtime import Runtime
from pbem.service.host.host_access import HostSession
from pbem.service.text import clean_line
from pbem.service.turns.values import PlayerSpec
from tests.support.database import TEST_SECRET, dump
from tests.support.games import play_moves, store_game
from tests.support.mail import mailbox
from tests.support.web import CSRF, built_app, form_fields, open_table

HUGE = "99999999999999999999999999"
HOSTILE_TITLE = "Deep\x00 mine\x1b[31m \u202eenim"
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]")


@pytest.fixture
def game(runtime_of: Runtime) -> str:
    """Ann, Ben and Cat; Ann (seat 0) is to play."""
    return store_game(runtime_of, engine.new_game(["Ann", "Ben", "Cat"], seed=1))


# -- whole numbers ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("query", [f"chat.json?after={HUGE}", "chat.json?after=-1", "chat.json?after=\u0663"])
def test_a_chat_position_out_of_range_is_a_400_for_the_script(client, runtime_of, game, query) -> None:
    open_table(client, runtime_of, game, 1)

    response = client.get(f"/table/{game}/{query}")

    assert response.status_code == 400
    assert response.get_json() == {"error": "invalid_input", "message": "'after' must be a message number."}


def test_an_earlier_page_of_chat_out_of_range_is_a_400_page(client, runtime_of, game) -> None:
    open_table(client, runtime_of, game, 1)

    response = client.get(f"/table/{game}/chat/history?before={HUGE}")

    assert response.status_code == 400
    assert "&#39;before&#39; must be a message number." in response.get_data(as_text=True)


def test_a_read_mark_out_of_range_is_refused_and_changes_nothing(client, runtime_of, game) -> None:
    page = open_table(client, runtime_of, game, 1)
    before = dump(runtime_of.db)

    response = client.post(f"/table/{game}/chat/read", data={"csrf_token": form_fields(page)["csrf_token"],
                                                              "upto": HUGE})

    assert response.status_code == 400
    assert dump(runtime_of.db) == before


@pytest.mark.parametrize("path", [f"/rounds/{HUGE}", f"/rounds/{HUGE}/deal.json"])
def test_a_number_in_an_address_beyond_any_row_is_not_found(client, runtime_of, game, path) -> None:
    open_table(client, runtime_of, game, 1)

    assert client.get(f"/table/{game}{path}").status_code == 404
    assert client.get(f"/dev/mail/{HUGE}").status_code == 404


def test_an_address_with_a_control_character_is_not_found(client, runtime_of, game) -> None:
    assert client.get("/table/%00/state.json").status_code == 404
    assert client.get("/host/games/%00").status_code == 404


# -- names and titles ------------------------------------------------------------------------------------------


def test_control_and_direction_characters_are_dropped_from_titles_and_names(runtime: Runtime) -> None:
    players = [PlayerSpec("Ann\x00", "ann@example.org"), PlayerSpec("\u202eBen\x1b", "ben@example.org"),
               PlayerSpec("Cat\u2066", "cat@example.org")]

    game_id = runtime.games.create_game(title=HOSTILE_TITLE, players=players, host_email="host@example.org")
    runtime.games.start_game(game_id)

    with runtime.db.read() as session:
        game = session.scalars(select(Game).where(Game.public_id == game_id)).one()
        assert game.title == "Deep mine[31m enim"
        assert [seat.display_name for seat in game.seats] == ["Ann", "Ben", "Cat"]
    subjects = [message.subject for message in mailbox(runtime)]
    assert subjects and all("Deep mine[31m enim" in subject for subject in subjects), subjects
    assert not any(CONTROL.search(subject) for subject in subjects)


@pytest.mark.parametrize("name", ["\x00\x1b", "\u202e\u2066", " \t\x07 "])
def test_a_name_of_nothing_but_control_characters_is_refused_and_nothing_is_stored(runtime: Runtime, name) -> None:
    before = dump(runtime.db)
    players = [PlayerSpec(name, "ann@example.org"), PlayerSpec("Ben", "ben@example.org"),
               PlayerSpec("Cat", "cat@example.org")]

    with pytest.raises(ValidationError, match="name of player 1 must not be empty"):
        runtime.games.create_game(title="Mine", players=players, host_email="host@example.org")
    with pytest.raises(ValidationError, match="title must not be empty"):
        runtime.games.create_game(title=name, players=players[1:] + [PlayerSpec("Dan", "dan@example.org")],
                                  host_email="host@example.org")

    assert dump(runtime.db) == before


@pytest.mark.parametrize("address", ["ann\x00@example.org", "ann@example.org\r\nBcc: x@evil.test",
                                     "ann\u202e@example.org", "a" * 320 + "@example.org"])
def test_an_address_with_control_characters_or_too_long_is_refused(runtime: Runtime, address) -> None:
    players = [PlayerSpec("Ann", address), PlayerSpec("Ben", "ben@example.org"), PlayerSpec("Cat", "cat@example.org")]

    with pytest.raises(ValidationError, match="not an email address"):
        runtime.games.create_game(title="Mine", players=players, host_email="host@example.org")


def test_a_replacement_players_name_is_cleaned_the_same_way(runtime: Runtime, new_game) -> None:
    game_id = new_game()
    host = HostSession("host@example.org", is_admin=False)

    runtime.moderation.replace_player(game_id, 1, "\u202eDan\x00", "dan@example.org", host=host)
    with pytest.raises(ValidationError, match="must not be empty"):
        runtime.moderation.replace_player(game_id, 2, "\x1b\u2067", "eve@example.org", host=host)

    with runtime.db.read() as session:
        names = session.scalars(select(Seat.display_name).order_by(Seat.seat_index)).all()
        lines = session.scalars(select(ChatMessage.text)).all()
    assert list(names) == ["Ann", "Dan", "Cat"]
    assert not any(CONTROL.search(line) for line in lines)


def test_a_rollback_reason_keeps_no_control_characters(runtime: Runtime, new_game) -> None:
    game_id = new_game()
    play_moves(runtime, game_id, 2, random.Random(3))
    host = HostSession("host@example.org", is_admin=False)

    runtime.moderation.rollback(game_id, 1, "oops\x00\u202e mis-click", host=host)

    with runtime.db.read() as session:
        lines = session.scalars(select(ChatMessage.text)).all()
    assert any(line.endswith("oops mis-click") for line in lines), lines


def test_a_line_is_cleaned_to_single_spaces() -> None:
    assert clean_line("title", "  The\n\tdeep \u2028 mine\u200f ", 80) == "The deep mine"


# -- request size ----------------------------------------------------------------------------------------------


def test_a_request_over_the_limit_is_refused_with_413_unread_and_a_page_that_says_why(
    client, runtime_of, game
) -> None:
    page = open_table(client, runtime_of, game, 1)
    before = dump(runtime_of.db)

    response = client.post(f"/table/{game}/chat", data={"csrf_token": form_fields(page)["csrf_token"],
                                                         "text": "x" * (2 * 1024 * 1024)})

    assert response.status_code == 413
    body = response.get_data(as_text=True)
    assert "this server accepts at most 1 MB per request, so nothing was done" in body
    assert "<h1>" in body
    assert dump(runtime_of.db) == before


def test_a_script_gets_413_as_json(client, runtime_of, game) -> None:
    page = open_table(client, runtime_of, game, 1)

    response = client.post(f"/table/{game}/chat", data={"csrf_token": form_fields(page)["csrf_token"],
                                                         "text": "x" * (2 * 1024 * 1024)},
                           headers={"Accept": "application/json"})

    assert response.status_code == 413
    assert response.get_json()["error"] == "too_large"


def test_the_largest_deck_file_still_fits_in_a_request(host: FlaskClient) -> None:
    deck = ("# " + "x" * 1000 + "\n") * 250  # about 250 KB of comments: the size check passes, the parse decides
    response = host.post("/host/new", data={"csrf_token": CSRF, "title": "Mine", "variant": "saboteur2",
                                            "deck": (io.BytesIO(deck.encode()), "deck.toml")},
                         content_type="multipart/form-data")

    assert response.status_code != 413


def test_the_request_limit_is_configurable_but_never_below_a_deck_file(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("max_request_kb = 2048\n")
    assert load_config(path, environ={}).max_request_kb == 2048
    path.write_text("max_request_kb = 100\n")
    with pytest.raises(ConfigError, match="max_request_kb must be at least 320"):
        load_config(path, environ={})


# -- https -----------------------------------------------------------------------------------------------------


def test_an_https_server_tells_browsers_to_stay_on_https(client) -> None:
    response = client.get("/")

    assert response.headers["Strict-Transport-Security"] == "max-age=31536000"


def test_a_plain_http_server_sends_no_hsts(config: Config, clock, chance) -> None:
    for app in built_app(dataclasses.replace(config, base_url="http://127.0.0.1:5000"), clock, chance):
        assert "Strict-Transport-Security" not in app.test_client().get("/").headers


def test_production_refuses_an_http_base_url_unless_a_test_set_up_allows_it(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    settings = f'mode = "production"\nsecret_keys = ["{TEST_SECRET}"]\nbase_url = "http://saboteur.example.org"\n'
    path.write_text(settings)

    with pytest.raises(ConfigError, match="production mode needs an https:// base_url"):
        load_config(path, environ={})
    path.write_text(settings + "allow_http_base_url = true\n")
    assert load_config(path, environ={}).base_url == "http://saboteur.example.org"
    path.write_text(settings.replace("http://", "https://"))
    assert load_config(path, environ={}).base_url == "https://saboteur.example.org"
