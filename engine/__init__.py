"""The rules of Saboteur as a pure library: a game is a value, a move makes a new one.

No I/O, no clock, no randomness from outside the game: the same seed and moves give the
same game on any machine. See docs/engine.md for the formats.
"""
from __future__ import annotations

from typing import Any

from .errors import IllegalMove, InvalidSetup, NotYourTurn
from .rng import seed_state
from .rounds import deal_round
from .rules import apply_move, is_over, legal_moves, scores, to_act
from .state import PLAY, Game
from .text import describe_event
from .variants import VARIANTS, get_variant
from .views import card_info, view
from . import bots  # noqa: E402  (bots use the rules above)

__all__ = [
    "Game", "IllegalMove", "InvalidSetup", "NotYourTurn", "new_game", "to_act", "legal_moves",
    "apply_move", "view", "is_over", "scores", "describe_event", "card_info", "OPTIONS",
]

OPTIONS: dict[str, tuple[Any, ...]] = {
    "auto_pick_gold": (False, True),
    "digger_gold_cards": ("players", "diggers"),
}


def new_game(players: list[str], *, seed: int, variant: str = "base", options: dict | None = None) -> Game:
    """Seat the players in the order given (play passes to the next index) and deal round 1."""
    if variant not in VARIANTS:
        raise InvalidSetup(f"Unknown variant {variant!r}; choose one of {', '.join(sorted(VARIANTS))}")
    v = get_variant(variant)
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise InvalidSetup("Players must be a list of names")
    if not v.min_players <= len(players) <= v.max_players:
        raise InvalidSetup(f"This game needs {v.min_players} to {v.max_players} players, not {len(players)}")
    if type(seed) is not int:
        raise InvalidSetup("The seed must be a whole number")
    chosen = {name: values[0] for name, values in OPTIONS.items()}
    for name, value in (options or {}).items():
        if name not in OPTIONS:
            raise InvalidSetup(f"Unknown option {name!r}")
        if value not in OPTIONS[name] or type(value) is not type(OPTIONS[name][0]):
            allowed = ", ".join(repr(a) for a in OPTIONS[name])
            raise InvalidSetup(f"Option {name!r} must be one of {allowed}")
        chosen[name] = value
    n = len(players)
    g = Game(
        variant=variant, players=list(players), options=chosen, seed=seed, rng=seed_state(seed),
        round=0, phase=PLAY, turn=0, board={}, hidden_goals={}, roles=[], spare_roles=[],
        hands=[[] for _ in range(n)], draw_pile=[], discard=[], front=[[] for _ in range(n)],
        peeks=[[] for _ in range(n)], gold_pile=[], gold=[[] for _ in range(n)], offer=[],
        last_actor=None, last_placed=None, results=[],
    )
    deal_round(g, 0, [])
    return g
