"""What a process draws once and keeps (the log, the fair-deal panel, the board, the chat) is kept per language:
a seat that switches language reads its next page wholly in the new one, and the others keep theirs."""

from __future__ import annotations

import random

import pytest
from flask import Flask

from pbem.runtime import Runtime
from tests.support.games import PEOPLE, play_moves
from tests.support.web import app_runtime, open_table, seat_client
from tests.support.words_left import english_left, visible_words

pytestmark = pytest.mark.usefixtures("compiled_catalogues")


def started(runtime: Runtime) -> str:
    game_id = runtime.games.create_game(title="Test mine", players=PEOPLE, host_email="host@example.org")
    runtime.games.start_game(game_id)
    play_moves(runtime, game_id, 4, random.Random(2))
    return game_id


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_seat_that_switches_language_reads_its_next_page_wholly_in_it(app: Flask) -> None:
    runtime = app_runtime(app)
    game_id = started(runtime)
    client = seat_client(app, game_id, 0)
    english = open_table(client, runtime, game_id, 0)  # drawn in English first, and kept
    runtime.seat_languages.choose(game_id, 0, "ko")

    korean = client.get(f"/table/{game_id}").get_data(as_text=True)

    assert "What happened" in english
    assert english_left(visible_words(korean), "ko", frozenset({"Ann", "Ben", "Cat", "Test", "mine"})) == []


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_two_seats_reading_two_languages_each_keep_their_own(app: Flask) -> None:
    runtime = app_runtime(app)
    game_id = started(runtime)
    runtime.seat_languages.choose(game_id, 1, "de")
    runtime.seat_languages.choose(game_id, 2, "ko")
    pages = [open_table(seat_client(app, game_id, seat), runtime, game_id, seat) for seat in (1, 2, 1)]

    names = frozenset({"Ann", "Ben", "Cat", "Test", "mine"})
    assert english_left(visible_words(pages[0]), "de", names) == []
    assert english_left(visible_words(pages[1]), "ko", names) == []
    assert pages[0] == pages[2] or english_left(visible_words(pages[2]), "de", names) == []


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_moves_labels_the_script_reads_follow_the_seats_language(app: Flask) -> None:
    runtime = app_runtime(app)
    game_id = started(runtime)
    seat = runtime.games.current_state(game_id).to_act
    assert seat is not None
    client = seat_client(app, game_id, seat)
    english = client.get(f"/table/{game_id}/state.json").get_json()["choices"]  # labelled in English, and kept
    runtime.seat_languages.choose(game_id, seat, "ko")

    korean = client.get(f"/table/{game_id}/state.json").get_json()["choices"]

    assert [choice["value"] for choice in korean] == [choice["value"] for choice in english]
    assert english and all(
        english_left(choice["label"], "ko", frozenset({"Ann", "Ben", "Cat"})) == [] for choice in korean
    )
