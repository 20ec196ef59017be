"""Whole games between bots, for tests, benchmarks and demos.

The harness seats a bot at each seat by that round's role: it may read the roles, the bots may
not. Each bot decides from its seat's view, its legal moves and the events it may see (public or
addressed to it), exactly what a server would hand it.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..rules import apply_move, is_over, legal_moves, to_act
from ..shapes import Event, Move, View
from ..state import Game
from ..views import view
from .heuristic import HeuristicBot, visible_to

Seen = Mapping[str, Any]  # an event a seat was told (heuristic.visible_to)
Decider = Callable[[View, list[Move], list[Seen]], Move]
"""A bot as the harness calls it: (view, legal moves, events seen) -> one of the moves."""

KINDS = ("heuristic", "random")


@dataclass(frozen=True)
class Decision:
    """One decision of a game: the game before it, what the seat was given, and what followed."""

    game: Game
    seat: int
    view: View
    moves: list[Move]
    seen: list[Seen]
    move: Move
    events: list[Event]


def random_decider(seed: int) -> Decider:
    """The random bot: any legal move, each equally likely."""
    rng = random.Random(seed)
    return lambda _view, moves, _seen: rng.choice(moves)


def decider(kind: str, seed: int) -> Decider:
    if kind == "heuristic":
        return HeuristicBot(seed).decide
    if kind == "random":
        return random_decider(seed)
    raise ValueError(f"unknown bot {kind!r}; choose one of {', '.join(KINDS)}")


def unchanged(_kind: str, decide: Decider) -> Decider:
    return decide


def bot_game(game: Game, seed: int, diggers: str = "heuristic", saboteurs: str = "heuristic",
             wrap: Callable[[str, Decider], Decider] = unchanged) -> Iterator[Decision]:
    """Play `game` to its end, yielding every decision; saboteur seats get the `saboteurs` bot, all
    other roles the `diggers` bot. `wrap(kind, decider)` lets a caller time or record a kind of bot."""
    seats = len(game.players)
    bots = {kind: [wrap(kind, decider(kind, seed * 16 + seat)) for seat in range(seats)]
            for kind in (diggers, saboteurs)}
    seen: list[list[Seen]] = [[] for _ in range(seats)]
    while not is_over(game):
        seat = to_act(game)
        assert seat is not None
        kind = saboteurs if game.roles[seat] == "saboteur" else diggers
        seat_view, moves = view(game, seat), legal_moves(game, seat)
        move = bots[kind][seat](seat_view, moves, list(seen[seat]))
        after, events = apply_move(game, seat, move)
        yield Decision(game, seat, seat_view, moves, list(seen[seat]), move, events)
        for s in range(seats):
            seen[s] += visible_to(events, s)
        game = after
