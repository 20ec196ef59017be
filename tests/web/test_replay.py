"""The replay: while a game runs, a seat's replay shows at each step only what that seat could see then (checked
against twin games, as the turn page is in test_hidden_information.py); once it is over, everything is open to
everyone in it. The host's replay shows the public view until then. The archive and the offline replay file
are offered once the game is over, hold the whole game, and are fetched without changing anything."""

from __future__ import annotations

import html
import json
import random
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

import engine
from pbem.errors import GameNotOver
from pbem.runtime import Runtime
from pbem.web.replay import host_replay_page
from pbem.words.roles import role_name
from tests.support.database import dump
from tests.support.games import dig_for_gold, seat_token, store_game
from tests.support.twins import Twins, hidden_cards
from tests.support.web import app_runtime, seat_client

NAMES = ["Ann", "Ben", "Cat", "Dan"]
HAND_CARD = re.compile(r'<li class="hand-card" data-card="(\d+)">')


def replay_html(client: FlaskClient, game_id: str, step: int | None = None) -> str:
    response = client.get(f"/table/{game_id}/replay" + (f"?step={step}" if step is not None else ""))
    assert response.status_code == 200
    return response.get_data(as_text=True)


def move(runtime: Runtime, game_id: str, rng: random.Random, choose: Any = engine.bots.choose) -> engine.Game:
    state, seq = runtime.games.engine_state(game_id)
    seat = engine.to_act(state)
    assert seat is not None
    runtime.games.submit_move(game_id, seat, choose(state, seat, rng), seq, f"move-{seq}")
    return runtime.games.engine_state(game_id)[0]


def finished_game(runtime: Runtime, players: int = 3, seed: int = 20) -> str:
    """A stored game played to its end by players who dig for the gold (short rounds). With three players and seed
    20 it is 68 moves, the gold found in each of its three rounds."""
    game_id = store_game(runtime, engine.new_game(NAMES[:players], seed=seed))
    rng = random.Random(seed)
    while not engine.is_over(move(runtime, game_id, rng, dig_for_gold)):
        pass
    return game_id


@pytest.mark.slow
@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # a property of the pages, not the database
def test_a_running_replay_shows_each_seat_only_what_it_could_see_at_every_step(app: Flask) -> None:
    runtime = app_runtime(app)
    game_id = store_game(runtime, engine.new_game(NAMES, seed=3))
    twins = Twins(runtime, game_id, len(NAMES), random.Random(3))
    rng = random.Random(3)
    for _ in range(30):
        move(runtime, game_id, rng)
    twins.follow()
    last = runtime.games.engine_state(game_id)[1]
    states = {}

    for seat in range(len(NAMES)):
        real = seat_client(app, game_id, seat)
        twin = seat_client(app, twins.twin_ids[seat], seat)
        for step in range(0, last + 1, 3):
            seen = replay_html(real, game_id, step)
            twin_seen = replay_html(twin, twins.twin_ids[seat], step)

            assert twin_seen.replace(twins.twin_ids[seat], game_id) == seen, f"seat {seat} at step {step}"
            if step not in states:
                states[step] = engine_state_at(runtime, game_id, step)
            assert not {int(card) for card in re.findall(r'data-card="(\d+)"', seen)} & hidden_cards(states[step], seat)


def engine_state_at(runtime: Runtime, game_id: str, step: int) -> engine.Game:
    from sqlalchemy import select

    from pbem.models import Game, Snapshot

    with runtime.db.read() as session:
        state = session.scalar(select(Snapshot.state).join(Game, Game.id == Snapshot.game_id)
                               .where(Game.public_id == game_id, Snapshot.seq == step))
    return engine.Game.from_dict(state)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_twin_replay_differs_when_a_seat_looks_at_a_twin_scrambled_for_someone_else(app: Flask) -> None:
    """The comparison above has teeth: scrambled for Ben, the twin shows Ann another hand."""
    runtime = app_runtime(app)
    game_id = store_game(runtime, engine.new_game(NAMES, seed=3))
    twins = Twins(runtime, game_id, len(NAMES), random.Random(3))
    twins.follow()

    real = replay_html(seat_client(app, game_id, 0), game_id, 0)
    other = replay_html(seat_client(app, twins.twin_ids[1], 0), twins.twin_ids[1], 0)

    assert other.replace(twins.twin_ids[1], game_id) != real


def test_a_running_replay_shows_your_hand_and_role_and_nobody_elses(app: Flask) -> None:
    runtime = app_runtime(app)
    state = engine.new_game(NAMES[:3], seed=4)
    game_id = store_game(runtime, state)

    page = replay_html(seat_client(app, game_id, 1), game_id, 0)

    assert [int(card) for card in HAND_CARD.findall(page)] == state.hands[1]
    assert "Your hand" in page and "As Ben saw it" in page
    assert page.count('class="tag">') == 1  # Ben's own role, and no one else's


def test_once_the_game_is_over_every_step_shows_every_hand_role_and_goal(app: Flask) -> None:
    runtime = app_runtime(app)
    game_id = finished_game(runtime)
    client = seat_client(app, game_id, 2)

    for step in (0, 7, 20):
        state = engine_state_at(runtime, game_id, step)
        page = replay_html(client, game_id, step)

        assert [int(card) for card in HAND_CARD.findall(page)] == sum(state.hands, [])
        for name, role in zip(state.players, state.roles, strict=True):
            tag = role_name(role).capitalize()
            assert re.search(rf"<strong>{name}</strong> <span class=\"tag\">{tag}", page)
        gold = next(y for (x, y), card in state.hidden_goals.items() if card == 1) if state.hidden_goals else None
        if gold is not None:
            place = {2: "top", 0: "middle", -2: "bottom"}[gold]
            assert f"The {place} goal: gold (face down)" in page
        assert "Every hand" in page and "every hand, role and goal is shown" in page


def test_the_open_replay_tells_private_events_in_the_third_person(app: Flask) -> None:
    runtime = app_runtime(app)
    game_id = finished_game(runtime)
    client = seat_client(app, game_id, 0)

    page = replay_html(client, game_id, 1)

    assert "You drew" not in page and re.search(r"(Ann|Ben|Cat) drew [a-z]", page)


def test_the_host_replay_shows_the_public_view_while_the_game_runs(app: Flask) -> None:
    runtime = app_runtime(app)
    state = engine.new_game(NAMES[:3], seed=4)
    game_id = store_game(runtime, state)
    rng = random.Random(4)
    for _ in range(4):
        move(runtime, game_id, rng)

    with app.test_request_context():
        page = host_replay_page(game_id, 3, lambda step: f"/host/replay?step={step}")

    assert HAND_CARD.findall(page) == [] and "Your hand" not in page and 'class="tag">' not in page
    assert "What the whole table could see" in page
    assert 'href="/host/replay?step=2"' in page and "You drew" not in page and " drew a card." in page


def test_the_host_replay_shows_everything_once_the_game_is_over(app: Flask) -> None:
    runtime = app_runtime(app)
    game_id = finished_game(runtime)

    with app.test_request_context():
        page = host_replay_page(game_id, 0, lambda step: f"/host/replay?step={step}")

    assert len(HAND_CARD.findall(page)) == sum(len(hand) for hand in engine_state_at(runtime, game_id, 0).hands)


def test_steps_are_numbered_from_the_first_snapshot_and_kept_in_range(app: Flask) -> None:
    runtime = app_runtime(app)
    game_id = store_game(runtime, engine.new_game(NAMES[:3], seed=4))
    rng = random.Random(4)
    for _ in range(5):
        move(runtime, game_id, rng)
    client = seat_client(app, game_id, 0)

    assert "Step 5 of 5" in replay_html(client, game_id)
    assert "Step 5 of 5" in replay_html(client, game_id, 99)
    assert "Step 0 of 5" in replay_html(client, game_id, -3)
    middle = replay_html(client, game_id, 2)
    assert 'data-step="1" data-nav="back"' in middle and 'data-step="3" data-nav="next"' in middle
    assert f'href="/table/{game_id}/replay?step=0"' in middle
    assert client.get(f"/table/{game_id}/replay?step=two").status_code == 400


def test_round_starts_are_offered_as_jumps(app: Flask) -> None:
    runtime = app_runtime(app)
    game_id = finished_game(runtime)
    starts = [seq for seq, events in snapshots_events(runtime, game_id) if any(e["type"] == "round_started"
                                                                              for e in events)]

    page = replay_html(seat_client(app, game_id, 0), game_id, starts[1] + 2)

    assert len(starts) == 2
    for number, first in zip((1, 2, 3), [0, *starts], strict=True):
        assert f'data-step="{first}" data-nav="round-{number}"' in page
    assert f'data-step="{starts[1]}" data-nav="round-start">this round\'s start' in page


def snapshots_events(runtime: Runtime, game_id: str) -> list[tuple[int, list[dict[str, Any]]]]:
    from sqlalchemy import select

    from pbem.models import Game, Snapshot

    with runtime.db.read() as session:
        return list(session.execute(select(Snapshot.seq, Snapshot.events).join(Game, Game.id == Snapshot.game_id)
                                    .where(Game.public_id == game_id).order_by(Snapshot.seq)).tuples())


def test_the_link_opens_the_replay_without_leaving_the_token_in_the_address(app: Flask) -> None:
    runtime = app_runtime(app)
    game_id = store_game(runtime, engine.new_game(NAMES[:3], seed=4))
    client = app.test_client()

    response = client.get(f"/play/{seat_token(runtime, game_id, 0)}/replay?step=0")

    assert response.status_code == 303 and response.location == f"/table/{game_id}/replay?step=0"
    assert client.get(response.location).status_code == 200
    assert app.test_client().get(f"/table/{game_id}/replay").status_code == 403  # a browser without the link


# -- what a finished game offers ----------------------------------------------------------------------------


def test_archive_and_replay_file_wait_for_the_end_of_the_game(app: Flask) -> None:
    runtime = app_runtime(app)
    game_id = store_game(runtime, engine.new_game(NAMES[:3], seed=4))
    client = seat_client(app, game_id, 0)

    assert client.get(f"/table/{game_id}/archive.json").get_json()["error"] == "game_not_over"
    assert client.get(f"/table/{game_id}/replay.html").status_code == 409
    with pytest.raises(GameNotOver):
        runtime.chronicle.archive(game_id)
    assert "Download the replay" not in client.get(f"/table/{game_id}").get_data(as_text=True)


def test_the_archive_holds_every_snapshot_move_event_host_action_and_opened_deal(app: Flask, new_game: Any) -> None:
    runtime = app_runtime(app)
    game_id = new_game()
    rng = random.Random(9)
    while not engine.is_over(move(runtime, game_id, rng, dig_for_gold)):
        pass
    client = seat_client(app, game_id, 0)

    response = client.get(f"/table/{game_id}/archive.json")
    archive = json.loads(response.data)

    assert response.headers["Content-Disposition"] == 'attachment; filename="test-mine-archive.json"'
    text = response.get_data(as_text=True)
    assert text.startswith('{\n  "format": "saboteur-pbem-archive-3",\n  "game": {\n    "')  # indented, to read
    assert list(archive) == sorted(archive) and list(archive["game"]) == sorted(archive["game"])
    stored = snapshots_events(runtime, game_id)
    assert [snap["seq"] for snap in archive["snapshots"]] == [seq for seq, _ in stored]
    assert [snap["events"] for snap in archive["snapshots"]] == [events for _, events in stored]  # no hat swapped
    assert archive["snapshots"][0]["move"] is None and all(snap["move"] for snap in archive["snapshots"][1:])
    final = archive["snapshots"][-1]["view"]
    assert final["open"] and final["phase"] == "over" and "state" not in archive["snapshots"][-1]
    assert [action["action"] for action in archive["host_actions"]] == ["create_game", "start_game"]
    assert [deal["round"] for deal in archive["sealed_deals"]] == [1, 2, 3]
    for deal in archive["sealed_deals"]:
        assert engine.opened_commitment(deal["opening"]) == deal["commitment"] and deal["withheld"] == []
    assert "@example.org" not in response.get_data(as_text=True)  # no email addresses for players
    with_emails = runtime.chronicle.archive(game_id, include_emails=True)
    assert with_emails["seats"][0]["email"] == "ann@example.org"


def offline_steps(document: str) -> list[str]:
    """Each step of the offline file, joined back from its pieces as the file's script does."""
    raw = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', document, re.S)
    assert raw is not None
    data = json.loads(raw.group(1))
    return ["".join(data["pieces"][index] for index in step) for step in data["steps"]]


def test_the_offline_replay_is_one_self_contained_file_with_every_step(app: Flask) -> None:
    runtime = app_runtime(app)
    game_id = finished_game(runtime)
    client = seat_client(app, game_id, 1)
    last = runtime.games.engine_state(game_id)[1]

    response = client.get(f"/table/{game_id}/replay.html")
    document = response.get_data(as_text=True)

    assert response.headers["Content-Disposition"] == 'attachment; filename="test-mine-replay.html"'
    assert response.content_type == "text/html; charset=utf-8"
    assert not re.search(r'(src|href)="(?!#)', document), "the file must not reach for anything outside itself"
    assert "<style>" in document and ".replay-buttons" in document and "function show(step" in document
    steps = offline_steps(document)
    assert len(steps) == last + 1
    for step in (0, last // 2, last):
        page = steps[step]
        assert f"Step {step} of {last}" in page
        next_button = f'data-step="{step + 1}"' if step < last else 'aria-disabled="true"'
        assert f'{next_button} data-nav="next"' in page
        state = engine_state_at(runtime, game_id, step)
        assert [int(card) for card in HAND_CARD.findall(page)] == sum(state.hands, [])
    assert html.unescape(steps[0]) in html.unescape(document)  # the first step is shown as the file opens


def test_downloads_are_offered_on_the_turn_page_and_the_replay_once_the_game_is_over(app: Flask) -> None:
    runtime = app_runtime(app)
    game_id = finished_game(runtime)
    client = seat_client(app, game_id, 0)

    table = client.get(f"/table/{game_id}").get_data(as_text=True)
    replay = replay_html(client, game_id)

    for page in (table, replay):
        assert f'href="/table/{game_id}/replay.html" download' in page
        assert f'href="/table/{game_id}/archive.json" download' in page
    assert "Replay the whole game, every hand shown" in table


def test_downloading_changes_nothing(app: Flask) -> None:
    runtime = app_runtime(app)
    game_id = finished_game(runtime)
    client = seat_client(app, game_id, 0)
    before = dump(runtime.db)

    for path in ("/replay", "/replay?step=3", "/replay.html", "/archive.json", "/rounds/1", "/rounds/1/deal.json"):
        assert client.get(f"/table/{game_id}{path}").status_code in (200, 404)
        client.head(f"/table/{game_id}{path}")

    assert dump(runtime.db) == before
