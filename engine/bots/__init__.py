"""Computer players. `choose(game, seat, rng)` is the random bot used by tests and demos."""
from __future__ import annotations

from .random_bot import choose

__all__ = ["choose"]
