"""The random bot: any legal move, each equally likely."""
from __future__ import annotations

import random
from typing import Any

from ..rules import legal_moves
from ..state import Game


def choose(game: Game, seat: int, rng: random.Random) -> dict[str, Any]:
    moves = legal_moves(game, seat)
    if not moves:
        raise ValueError(f"seat {seat} has no decision to make")
    return rng.choice(moves)
