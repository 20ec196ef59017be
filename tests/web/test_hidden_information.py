"""No page or JSON given to a seat depends on anything hidden from that seat.

For each seat at every step of played games, a twin game is stored that differs from the real one only in
what that seat cannot know: the engine state scrambled as in the engine's own property test
(`scramble_hidden`: other hands, roles, unseen goals, the draw pile, other seats' gold; in Saboteur 2 also
dwarf cards after swaps, leftover and discarded dwarf cards, others' inspections, the cards set aside and
other seats' gold-piece totals) and every event
that seat may not see filled with other values. The seat's turn page and state.json must be the same for
both games, byte for byte once the game id and the per-render submission id are set aside; and they must
not name a card that lies hidden in another hand, the draw pile or the discard pile.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

import engine
from tests.support.games import Chooser, dig_for_gold, seat_token, store_game
from tests.support.twins import Twins, cards_named, cards_of_finished_rounds, hidden_cards, role_paths, stir_things_up
from tests.support.web import app_runtime

SUBMISSION_ID = re.compile(r'(name="submission_id" value=")[^"]*(")')


def seen_by(client: FlaskClient, game_id: str) -> tuple[str, dict[str, Any]]:
    page = client.get(f"/table/{game_id}")
    data = client.get(f"/table/{game_id}/state.json")
    assert page.status_code == data.status_code == 200
    return page.get_data(as_text=True), data.get_json()


def comparable(page: str, data: dict[str, Any], game_id: str, real_id: str) -> tuple[str, str]:
    """Set aside what differs by construction: the game's public id and the submission id made per render."""
    data = {key: value for key, value in data.items() if key != "submission_id"}
    data["game"] = {**data["game"], "id": real_id if data["game"]["id"] == game_id else data["game"]["id"]}
    return SUBMISSION_ID.sub(r"\1-\2", page.replace(game_id, real_id)), json.dumps(data, sort_keys=True)


GAMES = [
    # (players, deal seed, how they play, moves to check, variant)
    pytest.param(4, 3, engine.bots.choose, 36, "base", id="four-random"),
    pytest.param(3, 0, dig_for_gold, 30, "base", id="three-digging-through-a-gold-pick"),
    pytest.param(5, 1, stir_things_up, 40, "saboteur2", id="five-saboteur2-swaps-inspections-thefts"),
]
# What a Saboteur 2 game must have shown for its check to mean something.
SECRET_EVENTS = {"hands_swapped", "inspected", "hats_swapped", "theft_played", "trapped", "cleared"}


@pytest.mark.slow
@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # a property of the pages, not the database
@pytest.mark.parametrize(("players", "seed", "choose", "steps", "variant"), GAMES)
def test_pages_and_json_do_not_change_when_only_hidden_information_changes(
    app: Flask, players: int, seed: int, choose: Chooser, steps: int, variant: str
) -> None:
    runtime = app_runtime(app)
    names = ["Ann", "Ben", "Cat", "Dan", "Eve"][:players]
    game_id = store_game(runtime, engine.new_game(names, seed=seed, variant=variant))
    twins = Twins(runtime, game_id, players, random.Random(seed))
    clients = {seat: app.test_client() for seat in range(players)}
    for seat, client in clients.items():
        client.get(f"/play/{seat_token(runtime, game_id, seat)}")
        client.get(f"/play/{seat_token(runtime, twins.twin_ids[seat], seat)}")
    rng = random.Random(seed)
    phases = set()
    happened: set[str] = set()

    for _ in range(steps):
        twins.follow()
        state, seq = runtime.games.engine_state(game_id)
        phases.add(state.phase)
        for seat, client in clients.items():
            real_page, real_data = seen_by(client, game_id)
            twin_page, twin_data = seen_by(client, twins.twin_ids[seat])

            assert comparable(twin_page, twin_data, twins.twin_ids[seat], game_id) == comparable(
                real_page, real_data, game_id, game_id
            ), f"seat {seat} at move {seq} sees something hidden from it"
            named = cards_named(real_page, real_data) - cards_of_finished_rounds(real_data)
            assert not named & hidden_cards(state, seat)
            assert {path for path in role_paths(real_data) if path[:2] != ("view", "results")} <= {
                ("view", "you", "role"), ("view", "you", "inspections", "[]", "role")
            }
        mover = engine.to_act(state)
        assert mover is not None
        result = runtime.games.submit_move(game_id, mover, choose(state, mover, rng), seq, f"move-{seq}")
        happened |= {event["type"] for event in result.events}

    assert "play" in phases and (choose is not dig_for_gold or "gold" in phases)
    assert variant != "saboteur2" or SECRET_EVENTS <= happened, happened


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_twin_really_differs_in_hidden_information_so_the_comparison_has_teeth(app: Flask) -> None:
    runtime = app_runtime(app)
    game_id = store_game(runtime, engine.new_game(["Ann", "Ben", "Cat"], seed=3))
    twins = Twins(runtime, game_id, 3, random.Random(3))
    twins.follow()
    client = app.test_client()
    client.get(f"/play/{seat_token(runtime, game_id, 0)}")
    client.get(f"/play/{seat_token(runtime, twins.twin_ids[1], 0)}")

    real_page, real_data = seen_by(client, game_id)
    other_page, other_data = seen_by(client, twins.twin_ids[1])  # scrambled for Ben: Ann's hand changed

    assert comparable(other_page, other_data, twins.twin_ids[1], game_id) != comparable(
        real_page, real_data, game_id, game_id
    )
    real_state = runtime.games.engine_state(game_id)[0]
    assert engine.view(real_state, 0)["you"]["hand"] != other_data["view"]["you"]["hand"]
