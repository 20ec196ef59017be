"""Twin games: stored copies of a game that differ only in what one seat cannot know, to show that nothing
shown to that seat depends on it (tests/web/test_hidden_information.py explains the comparison)."""

from __future__ import annotations

import html
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from pbem.models import Game, RoundCommitment, Seat, Snapshot
from pbem.runtime import Runtime
from tests.support.games import dig_for_gold
from tests.support.tables import scramble_hidden

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


def hidden_cards(state: engine.Game, seat: int) -> set[int]:
    others = [hand for index, hand in enumerate(state.hands) if index != seat]
    return set().union(*others, state.draw_pile, state.discard, state.removed)


def cards_named(page: str, data: dict[str, Any]) -> set[int]:
    named = {int(card) for card in CARD_ATTRIBUTE.findall(page)}
    for value in MOVE_VALUE.findall(page):
        move = json.loads(html.unescape(value))
        named |= set(move.get("cards", [])) | ({move["card"]} if "card" in move else set())
    return named | set(json_cards(data))


def cards_of_finished_rounds(data: dict[str, Any]) -> set[int]:
    """Cards on the tables of finished rounds: public when their round ended, then shuffled into the next deal, so
    a page that draws such a table names them without telling anything of a hand or a pile now."""
    return set(json_cards(data.get("view", {}).get("results", [])))


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


# The games a page's twin test walks: (players, deal seed, how they play, moves to check, variant).
PAGE_TWIN_GAMES = [
    pytest.param(4, 3, engine.bots.choose, 30, "base", id="four-random"),
    pytest.param(3, 0, dig_for_gold, 30, "base", id="three-digging-through-a-gold-pick"),
    pytest.param(5, 1, stir_things_up, 30, "saboteur2", id="five-saboteur2-secrets"),
]
