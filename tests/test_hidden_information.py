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

import html
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from pbem.models import Game, RoundCommitment, Seat, Snapshot
from pbem.runtime import Runtime
from tests.conftest import Chooser, app_runtime, dig_for_gold, seat_token, store_game
from tests.engine.test_engine_properties import scramble_hidden

SUBMISSION_ID = re.compile(r'(name="submission_id" value=")[^"]*(")')
CARD_ATTRIBUTE = re.compile(r'data-card="(\d+)"')
MOVE_VALUE = re.compile(r'name="move" value="([^"]*)"')


class Twins:
    """For each seat, a stored copy of a game that differs only in what that seat cannot see."""

    def __init__(self, runtime: Runtime, game_id: str, seats: int, rnd: random.Random) -> None:
        self.runtime, self.game_id, self.rnd = runtime, game_id, rnd
        self.copied = -1
        self.twin_ids = {seat: self._create(seat) for seat in range(seats)}

    def _create(self, seat: int) -> str:
        with self.runtime.db.write() as session:
            real = session.scalar(select(Game).where(Game.public_id == self.game_id))
            assert real is not None
            twin = Game(
                **{
                    column: getattr(real, column)
                    for column in (
                        "title",
                        "variant",
                        "options",
                        "policies",
                        "status",
                        "paused",
                        "is_demo",
                        "host_email",
                        "created_at",
                        "updated_at",
                        "current_seq",
                        "to_act_seat",
                        "turn_started_at",
                    )
                }
            )
            twin.seats = [
                Seat(seat_index=s.seat_index, display_name=s.display_name, email=s.email, is_bot=s.is_bot)
                for s in real.seats
            ]
            session.add(twin)
            session.flush()
            return twin.public_id

    def follow(self) -> None:
        """Copy the real game's new snapshots into every twin, scrambled for that twin's seat."""
        with self.runtime.db.write() as session:
            real = session.scalar(select(Game).where(Game.public_id == self.game_id))
            assert real is not None
            new = list(
                session.scalars(
                    select(Snapshot)
                    .where(Snapshot.game_id == real.id, Snapshot.seq > self.copied)
                    .order_by(Snapshot.seq)
                )
            )
            for seat, twin_id in self.twin_ids.items():
                twin = session.scalar(select(Game).where(Game.public_id == twin_id))
                assert twin is not None
                for snapshot in new:
                    state = scramble_hidden(engine.Game.from_dict(snapshot.state), seat, self.rnd)
                    session.add(
                        Snapshot(
                            game_id=twin.id,
                            seq=snapshot.seq,
                            state=state.to_dict(),
                            move=None,
                            events=[
                                e if audience_holds(e, seat) else scramble_event(e, self.rnd) for e in snapshot.events
                            ],
                            actor_seat=snapshot.actor_seat,
                            submission_id=None,
                            created_at=snapshot.created_at,
                        )
                    )
                for column in ("status", "current_seq", "to_act_seat", "turn_started_at", "updated_at"):
                    setattr(twin, column, getattr(real, column))
                copy_seals(session, real, twin, self.rnd)
            if new:
                self.copied = new[-1].seq


def copy_seals(session: Session, real: Game, twin: Game, rnd: random.Random) -> None:
    """A round's fingerprint is public from the deal on: the twin shows the same one (its salt and record,
    secret until the round ends, are junk)."""
    copied = set(session.scalars(select(RoundCommitment.round).where(RoundCommitment.game_id == twin.id)))
    for seal in session.scalars(select(RoundCommitment).where(RoundCommitment.game_id == real.id)):
        if seal.round not in copied:
            session.add(RoundCommitment(game_id=twin.id, round=seal.round, dealt_seq=seal.dealt_seq,
                                        commitment=seal.commitment, salt=f"{rnd.getrandbits(256):064x}",
                                        record=junk(seal.record, rnd), created_at=seal.created_at))


def audience_holds(event: dict[str, Any], seat: int) -> bool:
    """The engine's rule (docs/engine.md), restated here so a mistake in the server's filter cannot hide."""
    return event["audience"] == "public" or seat in event["audience"]


def scramble_event(event: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    """The same kind of event for the same audience, with every other field changed."""
    return {key: value if key in ("type", "audience") else junk(value, rnd) for key, value in event.items()}


def junk(value: Any, rnd: random.Random) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rnd.randint(1, 9)
    if isinstance(value, str):
        return rnd.choice(["saboteur", "digger", "cross", "map", "gold"]) + "x"
    if isinstance(value, list):
        return [junk(item, rnd) for item in value] + [junk(0, rnd)]
    if isinstance(value, dict):
        return {key: junk(item, rnd) for key, item in value.items()}
    return value


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


def hidden_cards(state: engine.Game, seat: int) -> set[int]:
    others = [hand for index, hand in enumerate(state.hands) if index != seat]
    return set().union(*others, state.draw_pile, state.discard, state.removed)


def cards_named(page: str, data: dict[str, Any]) -> set[int]:
    named = {int(card) for card in CARD_ATTRIBUTE.findall(page)}
    for value in MOVE_VALUE.findall(page):
        move = json.loads(html.unescape(value))
        named |= set(move.get("cards", [])) | ({move["card"]} if "card" in move else set())
    return named | set(json_cards(data))


def json_cards(value: Any) -> Iterator[int]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("id", "card") and isinstance(item, int):
                yield item
            elif key == "cards" and isinstance(item, list):
                yield from (card for card in item if isinstance(card, int))
            else:
                yield from json_cards(item)
    elif isinstance(value, list):
        for item in value:
            yield from json_cards(item)


def role_paths(value: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("role", "roles"):
                yield (*path, key)
            yield from role_paths(item, (*path, key))
    elif isinstance(value, list):
        for item in value:
            yield from role_paths(item, (*path, "[]"))


EXPANSION_ACTIONS = ("swap_hand", "inspection", "swap_hats", "theft", "trapped", "free", "hands_off")


def stir_things_up(state: engine.Game, seat: int, rng: random.Random) -> dict[str, Any]:
    """Saboteur 2 played for its secrets: mostly swapped hands, inspections, swapped dwarf cards, thefts and
    traps when the hand has them, else building, else any legal move."""
    moves = engine.legal_moves(state, seat)
    hand = {card["id"]: card for card in engine.view(state, seat)["you"]["hand"]}
    actions = [m for m in moves if hand.get(m.get("card"), {}).get("effect") in EXPANSION_ACTIONS]
    builds = [m for m in moves if "rotated" in m]
    if actions and rng.random() < 0.8:
        return rng.choice(actions)
    if builds and rng.random() < 0.6:
        return rng.choice(builds)
    return rng.choice(moves)


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
            assert not cards_named(real_page, real_data) & hidden_cards(state, seat)
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
