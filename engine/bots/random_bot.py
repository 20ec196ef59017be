"""The random bot: any legal move, each equally likely."""
from __future__ import annotations

import random

from ..rules import legal_moves
from ..shapes import Move
from ..state import Game


def choose(game: Game, seat: int, rng: random.Random) -> Move:
    moves = legal_moves(game, seat)
    if not moves:
        raise ValueError(f"seat {seat} has no decision to make")
    return rng.choice(moves)
