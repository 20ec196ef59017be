"""The rules of Saboteur as a pure library: a game is a value, a move makes a new one.

No I/O, no clock, no randomness from outside the game: the same seed and moves give the
same game on any machine. See docs/engine.md for the formats.
"""
from __future__ import annotations

from typing import Any

from .deal import (
    commitment,
    deal_record,
    opened_commitment,
    opening,
    opening_text,
    sealed_bytes,
    sealed_whole,
    shown_record,
    withheld_parts,
)
from .errors import EngineError, IllegalMove, InvalidSetup, NotYourTurn
from .reveal import (
    PRIVATE_MOVE_KINDS,
    RECAP_KINDS,
    open_event,
    open_move,
    open_view,
    private_moves_open,
    recap_kinds,
    roles_given_up,
    tellable,
)
from .rng import seed_state
from .rounds import deal_round
from .rules import apply_move, is_over, legal_moves, scores, to_act
from .setup import OPTION_VARIANTS, OPTIONS, check_setup
from .shapes import CardInfo, Event, FinalBoard, Move, Payout, RoundResult, Theft, View
from .state import GOLD_PICK, PLAY, STEAL, Game
from .variants import VARIANTS, get_variant
from .views import card_info, view
from .winners import round_winners

# isort: off
from . import bots  # (bots use the rules above)
# isort: on

__all__ = [
    "Game",
    "EngineError",
    "IllegalMove",
    "InvalidSetup",
    "NotYourTurn",
    "new_game",
    "to_act",
    "legal_moves",
    "apply_move",
    "view",
    "is_over",
    "scores",
    "card_info",
    "Move",
    "Event",
    "CardInfo",
    "View",
    "FinalBoard",
    "RoundResult",
    "Payout",
    "Theft",
    "OPTIONS",
    "VARIANTS",
    "get_variant",
    "deal_record",
    "sealed_bytes",
    "commitment",
    "open_view",
    "RECAP_KINDS",
    "OPTION_VARIANTS",
    "PRIVATE_MOVE_KINDS",
    "private_moves_open",
    "recap_kinds",
    "roles_given_up",
    "tellable",
    "opening",
    "opening_text",
    "opened_commitment",
    "shown_record",
    "sealed_whole",
    "withheld_parts",
    "open_event",
    "open_move",
    "round_winners",
    "PLAY",
    "GOLD_PICK",
    "STEAL",
    "bots",
]


def new_game(players: list[str], *, seed: int, variant: str = "base", options: dict[str, Any] | None = None) -> Game:
    """Seat the players in the order given (play passes to the next index) and deal round 1."""
    v, chosen = check_setup(players, seed, variant, options)
    n = len(players)
    g = Game(
        variant=variant,
        players=list(players),
        options=chosen,
        seed=seed,
        rng=seed_state(seed),
        round=0,
        phase=PLAY,
        turn=0,
        board={},
        hidden_goals={},
        roles=[],
        spare_roles=[],
        hands=[[] for _ in range(n)],
        draw_pile=[],
        discard=[],
        front=[[] for _ in range(n)],
        peeks=[[] for _ in range(n)],
        gold_pile=[],
        gold=[[] for _ in range(n)],
        offer=[],
        last_actor=None,
        last_placed=None,
        results=[],
        gold_pieces=[0] * n,
        inspections=[[] for _ in range(n)],
        variant_cache=v,
    )
    deal_round(g, 0, [])
    return g
