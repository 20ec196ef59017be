"""Games for tests: the Ann/Ben/Cat table, games started by the service or stored in a chosen position,
and moves played by the engine's bots."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

import engine
from pbem.models import Game, Seat, Snapshot
from pbem.runtime import Runtime
from pbem.service.turns.bots import play_due_bot_turns
from pbem.service.turns.values import PlayerSpec

NewGame = Callable[..., str]  # the `new_game` fixture
Arranged = Callable[..., str]  # the `arranged_game` fixture

PEOPLE = (
    PlayerSpec("Ann", "ann@example.org"),
    PlayerSpec("Ben", "ben@example.org"),
    PlayerSpec("Cat", "cat@example.org"),
)


@pytest.fixture
def new_game(runtime: Runtime) -> Callable[..., str]:
    """Create (and by default start) a game; returns its public id."""

    def make(players: Sequence[PlayerSpec] = PEOPLE, *, start: bool = True, **options: Any) -> str:
        game_id = runtime.games.create_game(
            title="Test mine", players=players, host_email="host@example.org", **options
        )
        if start:
            runtime.games.start_game(game_id)
        return game_id

    return make


def random_move(runtime: Runtime, game_id: str, rng: random.Random) -> tuple[int, dict[str, Any], int]:
    """Whose turn it is, a legal move for them (the engine's random bot) and the current sequence number."""
    state, seq = runtime.games.engine_state(game_id)
    seat = engine.to_act(state)
    assert seat is not None, "the game is over"
    return seat, engine.bots.choose(state, seat, rng), seq


def play(runtime: Runtime, game_id: str, seat: int, move: dict[str, Any]) -> None:
    """`seat` makes `move` at the game's current snapshot, as its turn page would send it."""
    seq = runtime.games.current_state(game_id).seq
    assert seq is not None
    runtime.games.submit_move(game_id, seat, move, seq, f"m-{seq}")


BOT_DELAY = timedelta(seconds=3)  # how long the tests' computer seats wait before they move


def play_bots(runtime: Runtime) -> int:
    """The bot job, as the scheduler runs it, with computer seats that wait `BOT_DELAY`; returns the moves made."""
    return play_due_bot_turns(runtime.db, runtime.clock, runtime.games, BOT_DELAY)


def play_moves(runtime: Runtime, game_id: str, count: int, rng: random.Random) -> None:
    for _ in range(count):
        seat, move, seq = random_move(runtime, game_id, rng)
        runtime.games.submit_move(game_id, seat, move, seq, f"test-{seq}")


def arranged_in(runtime: Runtime) -> Arranged:
    """Running games whose current state is `state`, laid out by a test (tests/engine/tables.py), in `runtime`.

    Seats are people named as in the state, mailed at <name>@example.org; nothing is emailed at the start.
    """

    def make(state: engine.Game, **options: Any) -> str:
        players = [PlayerSpec(name, f"{name.lower()}@example.org") for name in state.players]
        game_id = runtime.games.create_game(
            title=options.pop("title", "Test mine"), players=players, host_email="host@example.org", **options
        )
        now = runtime.clock.now()
        with runtime.db.write() as session:
            game = session.scalars(select(Game).where(Game.public_id == game_id)).one()
            session.add(
                Snapshot(game_id=game.id, seq=0, state=state.to_dict(), move=None, events=[], created_at=now)
            )
            game.status, game.current_seq, game.turn_started_at = "active", 0, now
            game.to_act_seat = engine.to_act(state)
        return game_id

    return make


@pytest.fixture
def arranged_game(runtime: Runtime) -> Arranged:
    """A running game whose current state is `state`, laid out by a test (see `arranged_in`)."""
    return arranged_in(runtime)


@pytest.fixture
def game_id(new_game: Callable[..., str]) -> str:
    """A started game of three (Ann, Ben, Cat), hosted by host@example.org."""
    return new_game()


# -- games in chosen positions ------------------------------------------------------------------------------


Chooser = Callable[[engine.Game, int, random.Random], dict[str, Any]]


def dig_for_gold(state: engine.Game, seat: int, rng: random.Random) -> dict[str, Any]:
    """A player who only tunnels east: the legal path card (no dead end) that reaches furthest, else a repair
    of their own tools, else a pass. Random play almost never finds the gold; this does within a few rounds."""
    moves = engine.legal_moves(state, seat)
    hand = {card["id"]: card for card in engine.view(state, seat)["you"]["hand"]}
    builds = [m for m in moves if m["type"] == "play" and "rotated" in m
              and not all(s.get("dead") for s in hand[m["card"]]["segments"])]
    if builds:
        return max(builds, key=lambda m: (m["x"], -abs(m["y"])))
    repairs = [m for m in moves if m.get("target") == seat and hand[m["card"]].get("effect") == "repair"]
    return (repairs or [m for m in moves if m["type"] == "pass"] or moves)[0]


def dig_one_move(runtime: Runtime, game_id: str, rng: random.Random) -> engine.Game:
    """One move through the service of a player who tunnels for the gold (`dig_for_gold`; outside the play phase,
    such as a gold pick, the first legal move), so rounds end within a few dozen moves; returns the state after."""
    state, seq = runtime.games.engine_state(game_id)
    seat = engine.to_act(state)
    assert seat is not None
    move = dig_for_gold(state, seat, rng) if state.phase == "play" else engine.legal_moves(state, seat)[0]
    runtime.games.submit_move(game_id, seat, move, seq, f"dig-{seq}")
    return runtime.games.engine_state(game_id)[0]


def play_until(
    state: engine.Game, done: Callable[[engine.Game], bool], rng: random.Random, choose: Chooser = engine.bots.choose
) -> engine.Game:
    """Legal moves (the engine's random bot unless told) until `done` holds; fails if the game ends first."""
    while not done(state):
        seat = engine.to_act(state)
        assert seat is not None, "the game ended before reaching the position the test needs"
        state, _ = engine.apply_move(state, seat, choose(state, seat, rng))
    return state


def store_game(runtime: Runtime, state: engine.Game, *, title: str = "Test mine", computers: Sequence[int] = ()) -> str:
    """A running game whose latest snapshot is `state`, for tests that need a given hand or phase.

    Games normally start from a secret seed (`GameService.start_game`); a test that needs, say, a broken tool
    in seat 0's hand or a gold pick reaches that position with the engine and stores it as snapshot 0.
    Everything after goes through the service as usual.
    """
    now = runtime.clock.now()
    with runtime.db.write() as session:
        game = Game(
            title=title,
            variant=state.variant,
            options=dict(state.options),
            policies=dataclasses.asdict(runtime.config.policies),
            status="finished" if engine.is_over(state) else "active",
            paused=False,
            is_demo=False,
            host_email="host@example.org",
            created_at=now,
            updated_at=now,
            current_seq=0,
            to_act_seat=engine.to_act(state),
            turn_started_at=now,
        )
        game.seats = [
            Seat(seat_index=index, display_name=name, is_bot=index in computers,
                 email=None if index in computers else f"{name.lower()}@example.org")
            for index, name in enumerate(state.players)
        ]
        session.add(game)
        session.flush()
        session.add(Snapshot(game_id=game.id, seq=0, state=state.to_dict(), move=None, events=[], actor_seat=None,
                             submission_id=None, created_at=now))
        return game.public_id


def snapshot_count(runtime: Runtime, game_id: str | None = None) -> int:
    """How many snapshots are stored: of the game `game_id`, or of every game."""
    query = select(func.count()).select_from(Snapshot)
    if game_id is not None:
        query = query.join(Game).where(Game.public_id == game_id)
    with runtime.db.read() as session:
        return session.scalar(query) or 0


def link_token(link: str) -> str:
    """The token at the end of a link (a seat's magic link, a sign-in link)."""
    return link.rsplit("/", 1)[1]


def seat_token(runtime: Runtime, game_id: str, seat: int) -> str:
    """The token of a fresh magic link to that seat."""
    return link_token(runtime.games.invites(game_id)[seat].link)


def seat_to_act(runtime: Runtime, game_id: str) -> int:
    seat = runtime.games.current_state(game_id).to_act
    assert seat is not None
    return seat


def play_until_turn_of(runtime: Runtime, game_id: str, seat: int, *, limit: int = 60) -> None:
    """Play random legal moves until `seat` is to act (at most `limit` moves)."""
    rng = random.Random(seat)
    for _ in range(limit):
        state, _seq = runtime.games.engine_state(game_id)
        if engine.to_act(state) == seat:
            return
        play_moves(runtime, game_id, 1, rng)
    raise AssertionError(f"seat {seat} never came to act")
