"""How many SQL statements a request costs: the turn page, its JSON and a move, each under a fixed ceiling.

Every page reads through one shared session per request (`Database.shared_reads`), so asking several
services costs one transaction, and the game row and its latest state are looked up once. The ceilings
below are today's counts; a change that adds a query to these paths must raise them on purpose.
Transaction control (BEGIN, SAVEPOINT, RELEASE) is not counted: SQLite sends it as statements and
PostgreSQL does not, and the ceilings hold for both.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest
from flask.testing import FlaskClient
from sqlalchemy import update

import engine
from pbem.models import Game
from pbem.runtime import Runtime
from pbem.service.turns.values import PlayerSpec
from tests.support.database import counted
from tests.support.games import play_moves, seat_to_act, seat_token
from tests.support.web import form_fields, page_moves

# A mid-game table of six, as the benchmark's turn page (bench/http_bench.py).
SIX = [PlayerSpec(name, f"{name.lower()}@example.org") for name in ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")]
TURN_PAGE_MAX = 5  # the game with its seats and turn clock, the latest state, the history, the chat, the sealed deals
STATE_JSON_MAX = 2  # the game with its seats, the latest state
# The move's own transaction, nothing else: the game locked with its seats (the link's version is checked there),
# then four plain statements: the snapshot inserted, the game updated, the clock rewritten without being read, the
# next player's turn email queued. (The state comes from the memo, or with the lock in a process that has not
# decoded it yet. The email's content is written by the deliverer when it takes the row.)
MOVE_POST_MAX = 5


@pytest.fixture
def six_at_the_table(runtime_of: Runtime) -> Callable[[int], str]:
    """A started game of six, `moves` random moves in, with some table talk."""

    def make(moves: int) -> str:
        game_id = runtime_of.games.create_game(title="Six deep", players=SIX, host_email="host@example.org")
        runtime_of.games.start_game(game_id)
        play_moves(runtime_of, game_id, moves, random.Random(moves))
        for seat in range(3):
            runtime_of.chat.post(game_id, seat, f"I am digging, honest ({seat}).")
        return game_id

    return make


def open_seat(client: FlaskClient, runtime: Runtime, game_id: str, seat: int) -> None:
    response = client.get(f"/play/{seat_token(runtime, game_id, seat)}")
    assert response.status_code == 303


def test_the_turn_page_reads_the_table_in_a_few_statements(client, runtime_of, six_at_the_table) -> None:
    game_id = six_at_the_table(12)
    open_seat(client, runtime_of, game_id, seat_to_act(runtime_of, game_id))

    with counted(runtime_of) as statements:
        response = client.get(f"/table/{game_id}")

    assert response.status_code == 200 and "Your turn" in response.get_data(as_text=True)
    assert len(statements) <= TURN_PAGE_MAX, statements


def test_the_turn_page_costs_the_same_statements_however_long_the_game(client, runtime_of, six_at_the_table) -> None:
    short, long = six_at_the_table(4), six_at_the_table(30)
    counts = []
    for game_id in (short, long):
        open_seat(client, runtime_of, game_id, 0)
        with counted(runtime_of) as statements:
            assert client.get(f"/table/{game_id}").status_code == 200
        counts.append(len(statements))

    assert counts[0] == counts[1]


def test_the_state_json_reads_the_game_and_its_latest_state_only(client, runtime_of, six_at_the_table) -> None:
    game_id = six_at_the_table(12)
    open_seat(client, runtime_of, game_id, seat_to_act(runtime_of, game_id))

    with counted(runtime_of) as statements:
        response = client.get(f"/table/{game_id}/state.json")

    assert response.status_code == 200 and response.get_json()["legal_moves"]
    assert len(statements) <= STATE_JSON_MAX, statements


def test_a_move_post_stays_under_its_statement_ceiling(client, runtime_of, six_at_the_table) -> None:
    game_id = six_at_the_table(12)
    open_seat(client, runtime_of, game_id, seat_to_act(runtime_of, game_id))
    page = client.get(f"/table/{game_id}").get_data(as_text=True)
    data = {**form_fields(page), "move": json.dumps(page_moves(page)[0]), "confirmed": "yes"}

    with counted(runtime_of) as statements:
        response = client.post(f"/table/{game_id}/move", data=data)

    assert response.status_code == 303
    assert len(statements) <= MOVE_POST_MAX, statements


def test_a_move_whose_state_this_process_never_decoded_reads_it_with_the_lock(
    client, runtime_of, six_at_the_table
) -> None:
    """Another worker drew the page: the state the move builds on comes with the game's lock, not on its own."""
    game_id = six_at_the_table(12)
    seat = seat_to_act(runtime_of, game_id)
    open_seat(client, runtime_of, game_id, seat)
    page = client.get(f"/table/{game_id}").get_data(as_text=True)
    chosen = page_moves(page)[0]
    data = {**form_fields(page), "move": json.dumps(chosen), "confirmed": "yes"}
    before, _ = runtime_of.games.engine_state(game_id)
    runtime_of.db.memo.clear()

    with counted(runtime_of) as statements:
        response = client.post(f"/table/{game_id}/move", data=data)

    assert response.status_code == 303
    assert len(statements) <= MOVE_POST_MAX, statements
    after, _ = runtime_of.games.engine_state(game_id)
    assert after.to_dict() == engine.apply_move(before, seat, chosen)[0].to_dict()


# -- the shared read session behind these counts -------------------------------------------------------------


def test_reads_inside_one_request_share_one_session(runtime_of) -> None:
    db = runtime_of.db
    with db.shared_reads():
        with db.read() as first:
            pass
        with db.read() as second:
            assert second is first
    with db.read() as outside:
        assert outside is not first


def test_a_read_after_a_write_in_the_same_request_sees_the_write(runtime_of, six_at_the_table) -> None:
    game_id = six_at_the_table(0)
    db = runtime_of.db
    with db.shared_reads():
        assert runtime_of.games.current_state(game_id).paused is False
        with db.write() as session:
            session.execute(update(Game).where(Game.public_id == game_id).values(paused=True))

        assert runtime_of.games.current_state(game_id).paused is True


# -- drawn again: what the process remembers of a snapshot (pbem/memo.py) ---------------------------------------

TURN_PAGE_AGAIN_MAX = 1  # the game with its seats and turn clock: the rest is remembered from the first drawing


def test_the_turn_page_drawn_again_reads_only_the_game(client, runtime_of, six_at_the_table) -> None:
    game_id = six_at_the_table(12)
    open_seat(client, runtime_of, game_id, seat_to_act(runtime_of, game_id))
    first = client.get(f"/table/{game_id}").get_data(as_text=True)

    with counted(runtime_of) as statements:
        again = client.get(f"/table/{game_id}").get_data(as_text=True)

    assert len(statements) <= TURN_PAGE_AGAIN_MAX, statements
    assert _without_fresh_ids(again) == _without_fresh_ids(first)


def _without_fresh_ids(page: str) -> str:
    """A page with its per-drawing submission id left out (every form drawn gets a new one)."""
    return page.replace(form_fields(page)["submission_id"], "")
