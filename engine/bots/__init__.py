"""Computer players.

`choose(game, seat, rng)` is the random bot used by tests and demos. `HeuristicBot(seed)` plays
its role from its seat's view only: `decide(view, moves, history)` is the pure decision, and
`choose(game, seat, history)` a convenience that builds the view and the legal moves first.
"""
from __future__ import annotations

from .heuristic import HeuristicBot, visible_to
from .random_bot import choose

__all__ = ["choose", "HeuristicBot", "visible_to"]
