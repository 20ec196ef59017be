"""What a process remembers of committed snapshots (pbem/memo.py): bounded, filled only from committed rows, and
never standing between a player and a change at the table, whichever process made the change."""

from __future__ import annotations

import random

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from pbem.memo import Memo, remember_when_committed, remembered
from pbem.models import Snapshot
from pbem.runtime import Runtime
from pbem.service.rows import find_game
from tests.support.games import play_moves, seat_to_act, seat_token
from tests.support.web import form_fields, post, sign_in

# -- the memo itself ---------------------------------------------------------------------------------------------


def test_each_kind_keeps_its_most_recently_used_entries_up_to_its_capacity() -> None:
    memo = Memo({"state": 2, "fragment": 1})
    memo.put("state", "a", 1)
    memo.put("state", "b", 2)
    assert memo.get("state", "a") == 1  # "a" is now the most recently used
    memo.put("state", "c", 3)
    memo.put("fragment", "x", "drawn")

    assert memo.get("state", "b") is None
    assert (memo.get("state", "a"), memo.get("state", "c"), memo.get("fragment", "x")) == (1, 3, "drawn")
    assert len(memo) == 3


def test_a_value_is_made_once_and_then_handed_back() -> None:
    memo = Memo({"fragment": 4})
    made = []

    def make() -> str:
        made.append(1)
        return "board"

    assert [memo.get_or_make("fragment", "k", make) for _ in range(3)] == ["board"] * 3
    assert len(made) == 1


# -- which sessions fill it ----------------------------------------------------------------------------------


def test_read_sessions_remember_and_write_transactions_only_look(runtime: Runtime) -> None:
    memo = runtime.db.memo
    with runtime.db.write() as session:
        assert remembered(session, "fragment", ("written",), lambda: "from a write") == "from a write"
    with runtime.db.read() as session:
        assert remembered(session, "fragment", ("read",), lambda: "from a read") == "from a read"
    with runtime.db.write() as session:
        assert remembered(session, "fragment", ("read",), lambda: "made again") == "from a read"

    assert memo.get("fragment", ("written",)) is None


def test_what_a_write_sets_aside_is_remembered_only_if_it_commits(runtime: Runtime) -> None:
    with pytest.raises(RuntimeError), runtime.db.write() as session:
        remember_when_committed(session, "state", ("rolled back", 1), "never committed")
        raise RuntimeError("the transaction fails")
    with runtime.db.write() as session:
        remember_when_committed(session, "state", ("committed", 1), "committed")

    assert runtime.db.memo.get("state", ("rolled back", 1)) is None
    assert runtime.db.memo.get("state", ("committed", 1)) == "committed"


def test_a_move_leaves_its_new_state_remembered_for_the_next_reader(runtime: Runtime, new_game) -> None:
    game_id = new_game()
    play_moves(runtime, game_id, 1, random.Random(2))

    remembered_state = runtime.db.memo.get("state", (game_id, 1))
    with runtime.db.read() as session:
        game_pk = find_game(session, game_id).id
        stored = session.scalar(select(Snapshot.state).where(Snapshot.game_id == game_pk, Snapshot.seq == 1))
    assert remembered_state is not None and remembered_state.to_dict() == stored


# -- the turn page never shows what the memo kept from before a change ----------------------------------------------


@pytest.fixture
def player(app: Flask) -> FlaskClient:
    return app.test_client()


def looked_at(player: FlaskClient, runtime: Runtime, game_id: str, seat: int = 0) -> str:
    player.get(f"/play/{seat_token(runtime, game_id, seat)}")
    return player.get(f"/table/{game_id}").get_data(as_text=True)


def main_column(page: str) -> str:
    return page.split('class="table-main"')[1].split('class="table-side"')[0]


def test_a_move_made_elsewhere_shows_on_the_next_look(player, runtime: Runtime, new_game) -> None:
    game_id = new_game()
    before = looked_at(player, runtime, game_id)
    play_moves(runtime, game_id, 1, random.Random(1))  # another process: the app's memo hears nothing of it

    after = player.get(f"/table/{game_id}").get_data(as_text=True)

    assert 'data-seq="0"' in before and 'data-seq="1"' in after


def test_a_chat_message_posted_elsewhere_shows_on_the_next_look(player, runtime: Runtime, new_game) -> None:
    game_id = new_game()
    looked_at(player, runtime, game_id)
    runtime.chat.post(game_id, 1, "Nobody look at the left goal.")

    assert "Nobody look at the left goal." in player.get(f"/table/{game_id}").get_data(as_text=True)


def test_the_handover_shows_in_the_log_after_the_seat_changes_hands(
    app: Flask, player, runtime: Runtime, runtime_of: Runtime, new_game
) -> None:
    game_id = new_game()
    play_moves(runtime, game_id, 3, random.Random(3))
    assert "Ben" in looked_at(player, runtime, game_id).split('id="log-heading"')[1]
    host = app.test_client()
    sign_in(host, runtime_of)

    post(host, f"/host/games/{game_id}/seats/1/replace", confirm="yes", name="Eve", email="eve@example.org")

    log = player.get(f"/table/{game_id}").get_data(as_text=True).split('id="log-heading"')[1].split("</section>")[0]
    assert "Eve takes over Ben&#39;s seat." in log and "<strong>Ben</strong>" in log  # Ben's moves stay his


def test_the_downloads_appear_when_the_host_abandons_the_game(
    app: Flask, player, runtime: Runtime, runtime_of: Runtime, new_game
) -> None:
    game_id = new_game()
    assert "Download the whole game as data" not in looked_at(player, runtime, game_id)
    host = app.test_client()
    sign_in(host, runtime_of)

    post(host, f"/host/games/{game_id}/abandon", confirm="yes")

    assert "Download the whole game as data" in player.get(f"/table/{game_id}").get_data(as_text=True)


def test_the_main_column_follows_a_move_made_elsewhere(player, runtime: Runtime, new_game) -> None:
    game_id = new_game()
    seat = seat_to_act(runtime, game_id)
    before = main_column(looked_at(player, runtime, game_id, seat))
    play_moves(runtime, game_id, 1, random.Random(1))  # another process: the app's memo hears nothing of it

    after = main_column(player.get(f"/table/{game_id}").get_data(as_text=True))

    assert 'id="move-form"' in before and 'id="move-form"' not in after


def test_each_look_at_the_same_table_gets_its_own_submission_id_and_each_browser_its_own_csrf_token(
    app: Flask, runtime: Runtime, new_game
) -> None:
    game_id = new_game()
    seat = seat_to_act(runtime, game_id)
    first, second = app.test_client(), app.test_client()

    pages = [looked_at(first, runtime, game_id, seat), first.get(f"/table/{game_id}").get_data(as_text=True),
             looked_at(second, runtime, game_id, seat)]

    forms = [form_fields(page.split('id="move-form"')[1]) for page in pages]
    assert len({form["submission_id"] for form in forms}) == 3
    assert forms[0]["csrf_token"] == forms[1]["csrf_token"] != forms[2]["csrf_token"]
    assert all(form["csrf_token"] == form_fields(page)["csrf_token"] for form, page in zip(forms, pages, strict=True))
