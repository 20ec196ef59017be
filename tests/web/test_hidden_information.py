"""No page or JSON given to a seat depends on anything hidden from that seat.

For each seat at every step of played games, a twin game is stored that differs from the real one only in
what that seat cannot know: the engine state scrambled as in the engine's own property test
(`scramble_hidden`: other hands, roles, unseen goals, the draw pile, other seats' gold; in Saboteur 2 also
dwarf cards after swaps, leftover and discarded dwarf cards, others' inspections, the cards set aside and
other seats' gold-piece totals) and every event
that seat may not see filled with other values. The seat's turn page and state.json must be the same for
both games, byte for byte once the game id and the per-render submission id are set aside; and they must
not name a card that lies hidden in another hand, the draw pile or the discard pile.

The notifications too: the real game has a channel and every player an address (turns and results), so each move
queues what a chat or a phone would be sent; each twin is given what the move path would queue from its own
(scrambled) snapshots. What a seat reads (the channel and its own address) must be the same for both, and no
notification may hold anything but one of the known public lines and the table page's address: no salt, record,
seat link or other token, no address.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.orm import object_session

import engine
from pbem.models import Game
from pbem.notify.transport import Notification
from pbem.service.notices import queue
from pbem.service.snapshots import latest_state
from tests.support.games import Chooser, dig_for_gold, seat_token, store_game
from tests.support.notices import (
    LINES,
    TOKEN,
    Queued,
    give_addresses,
    give_channel,
    never_told,
    queue_for_twin,
    queued,
    read_by,
)
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


def assert_public(notices: list[Queued], secrets: list[str], table: str) -> None:
    """Each notification is one known public line (or the owner's own turn) and the table page's address."""
    for notice in notices:
        line, _, link = notice.body.partition("\n")
        assert LINES.fullmatch(line) and link == table, notice
        assert not TOKEN.search(notice.body) and not TOKEN.search(notice.title), notice
        assert not any(secret in notice.body or secret in notice.title for secret in secrets), notice


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
    for table in (game_id, *twins.twin_ids.values()):
        give_channel(runtime, table)
    mailboxes = [f"{name.lower()}@example.org" for name in names]
    give_addresses(runtime, mailboxes)
    told = 0  # the stored deal queued nothing: the moves do
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
        real_notices = queued(runtime, game_id)
        assert_public(real_notices, never_told(runtime, game_id), f"{runtime.config.base_url}/table/GAME")
        for seat, twin_id in twins.twin_ids.items():
            queue_for_twin(runtime, game_id, twin_id, told)
            assert read_by(queued(runtime, twin_id), mailboxes[seat]) == read_by(real_notices, mailboxes[seat]), (
                f"seat {seat} at move {seq} is notified of something hidden from it"
            )
        told = seq
        mover = engine.to_act(state)
        assert mover is not None
        result = runtime.games.submit_move(game_id, mover, choose(state, mover, rng), seq, f"move-{seq}")
        happened |= {event["type"] for event in result.events}

    assert "play" in phases and (choose is not dig_for_gold or "gold" in phases)
    kinds = {notice.kind for notice in queued(runtime, game_id)}
    assert {"whose_turn", "your_turn"} <= kinds and (choose is not dig_for_gold or "round_over" in kinds), kinds
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


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_notification_that_told_a_hand_would_be_caught_by_the_twin(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The notifications' comparison has teeth: a "whose turn" line that let slip the player's hand differs between
    the real game and a twin whose other hands are scrambled."""
    runtime = app_runtime(app)
    game_id = store_game(runtime, engine.new_game(["Ann", "Ben", "Cat"], seed=3))
    twins = Twins(runtime, game_id, 3, random.Random(3))
    for table in (game_id, *twins.twin_ids.values()):
        give_channel(runtime, table)

    def telling(game: Game, name: str, base_url: str, _language: str) -> Notification:
        session = object_session(game)
        assert session is not None
        hand = latest_state(session, game).hands[game.to_act_seat or 0]
        return Notification(title=game.title, body=f"{name}'s turn. {hand}\n{base_url}/table/{game.public_id}")

    monkeypatch.setattr(queue.words, "whose_turn", telling)
    state, seq = runtime.games.engine_state(game_id)
    mover = engine.to_act(state)
    assert mover is not None
    runtime.games.submit_move(game_id, mover, engine.bots.choose(state, mover, random.Random(1)), seq, "move-0")
    twins.follow()
    watcher = (mover + 2) % 3  # neither the mover nor the next player: the next hand is hidden from them
    queue_for_twin(runtime, game_id, twins.twin_ids[watcher], 0)

    assert read_by(queued(runtime, twins.twin_ids[watcher]), "") != read_by(queued(runtime, game_id), "")
