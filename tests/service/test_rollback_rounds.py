"""A rollback stays within the round being played: a round's end showed everyone its roles and its deck, and a
deal put the next round's cards in the players' hands, so going back across either is refused with a clear
message (said on the host page beforehand). A game rolled back across a round end before this rule still plays
that round to its end again: the round dealt again gets a seal of its own."""

from __future__ import annotations

import random
import re
from typing import Any

from flask.testing import FlaskClient
from sqlalchemy import select

import engine
from pbem.models import Game, RoundCommitment, Snapshot
from pbem.runtime import Runtime
from pbem.service.turns.values import SERVER
from tests.support.database import dump
from tests.support.games import dig_one_move, seat_token
from tests.support.web import post


def dig_to_round(runtime: Runtime, game_id: str, round_number: int, rng: random.Random) -> engine.Game:
    state, _ = runtime.games.engine_state(game_id)
    while state.round < round_number:
        state = dig_one_move(runtime, game_id, rng)
    return state


def seq_of_first(runtime: Runtime, game_id: str, event_type: str) -> int:
    with runtime.db.read() as session:
        rows = session.execute(
            select(Snapshot.seq, Snapshot.events).join(Game).where(Game.public_id == game_id).order_by(Snapshot.seq)
        ).all()
    return next(seq for seq, events in rows if any(event["type"] == event_type for event in events))


def seals(runtime: Runtime, game_id: str) -> list[tuple[int, int, str]]:
    """(round, dealt at, commitment) of every seal of the game, in the order they were made."""
    with runtime.db.read() as session:
        return [
            (row.round, row.dealt_seq, row.commitment) for row in session.execute(
                select(RoundCommitment.round, RoundCommitment.dealt_seq, RoundCommitment.commitment)
                .join(Game, Game.id == RoundCommitment.game_id)
                .where(Game.public_id == game_id)
                .order_by(RoundCommitment.id)
            )
        ]


def rollback(host: FlaskClient, game_id: str, to_seq: int) -> Any:
    return post(host, f"/host/games/{game_id}/rollback", confirm="yes", to=str(to_seq), reason="a misclick")


def test_a_rollback_across_a_round_end_or_a_deal_is_refused_and_changes_nothing(
    host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    rng = random.Random(5)
    dig_to_round(runtime_of, game_id, 2, rng)
    dig_one_move(runtime_of, game_id, rng)
    ended, dealt = seq_of_first(runtime_of, game_id, "round_ended"), seq_of_first(runtime_of, game_id, "round_started")
    before = dump(runtime_of.db)

    for to_seq in sorted({0, ended - 1, dealt - 1}):  # before the end, and in between (the gold picks, if any)
        refused = rollback(host, game_id, to_seq)
        assert refused.status_code == 409
        assert "rolled back within the round being played" in refused.get_data(as_text=True)
        review = host.get(f"/host/games/{game_id}/rollback?to={to_seq}")
        assert review.status_code == 409 and b"Roll back and tell the table" not in review.data

    assert dump(runtime_of.db) == before
    assert runtime_of.games.engine_state(game_id)[0].round == 2


def test_the_host_page_offers_only_turns_of_the_round_being_played_and_says_why(
    host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    rng = random.Random(5)
    dig_to_round(runtime_of, game_id, 2, rng)
    dig_one_move(runtime_of, game_id, rng)
    dealt = seq_of_first(runtime_of, game_id, "round_started")
    _, current = runtime_of.games.engine_state(game_id)

    page = host.get(f"/host/games/{game_id}").get_data(as_text=True)

    offered = [int(seq) for seq in re.findall(r'<option value="(\d+)">turn', page)]
    assert offered == list(range(current - 1, dealt - 1, -1))
    assert f"A rollback stays within the round being played (turn {dealt} at the earliest)" in page
    assert "Roll back to turn" in host.get(f"/host/games/{game_id}/rollback?to={dealt}").get_data(as_text=True)
    assert rollback(host, game_id, dealt).status_code == 303
    assert runtime_of.games.engine_state(game_id)[0].round == 2


def test_a_game_rolled_back_across_a_round_end_before_the_rule_can_end_that_round_again(
    host: FlaskClient, runtime_of: Runtime, game_id: str
) -> None:
    rng = random.Random(5)
    dig_to_round(runtime_of, game_id, 2, rng)
    ended = seq_of_first(runtime_of, game_id, "round_ended")
    with runtime_of.db.write() as session:  # what a rollback to before the round's end used to write
        game = session.scalar(select(Game).where(Game.public_id == game_id))
        earlier = session.scalar(select(Snapshot.state).where(Snapshot.game_id == game.id, Snapshot.seq == ended - 1))
        runtime_of.games._append_snapshot(
            session, game, engine.Game.from_dict(earlier), move=None,
            events=[{"type": "rolled_back", "audience": "public", "to_seq": ended - 1}], actor=None,
            submission_id=None, source=SERVER,
        )

    state = dig_to_round(runtime_of, game_id, 2, rng)

    assert state.round == 2
    assert [round_number for round_number, _, _ in seals(runtime_of, game_id)] == [1, 2, 2]
    [(_, first_deal, first_seal), (_, second_deal, second_seal)] = [s for s in seals(runtime_of, game_id) if s[0] == 2]
    assert second_deal > first_deal
    host.get(f"/play/{seat_token(runtime_of, game_id, 0)}")  # the link sets the seat cookie and leads to the table
    page = host.get(f"/table/{game_id}").get_data(as_text=True)
    assert second_seal in page and first_seal not in page  # the fair-deal panel shows the deal being played
