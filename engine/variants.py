"""What differs between games: the deck, the roles, hand sizes, player counts and how gold is paid.

A variant numbers its cards once (card ids are positions in `cards`), so a snapshot stores
small integers and a card id always means the same physical card. A Saboteur 2 game may bring
its own deck (option `deck`); `variant_of` gives every game the variant with its own cards.
"""
from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .cards import GOLD, START, STONE_SE, STONE_SW, CardType
from .decks import BASE_DECK, SABOTEUR2_DECK, read_deck
from .geometry import Cell, turned

if TYPE_CHECKING:
    from .state import Game

BASE_ROLES = {3: (1, 3), 4: (1, 4), 5: (2, 4), 6: (2, 5), 7: (3, 5), 8: (3, 6), 9: (3, 7), 10: (4, 7)}
BASE_GOLD = (1,) * 16 + (2,) * 8 + (3,) * 4

# Saboteur 2 dwarf cards: the same 15 whatever the number of players.
BLUE, GREEN, BOSS, PROFITEER, GEOLOGIST, SABOTEUR = (
    "blue_digger", "green_digger", "boss", "profiteer", "geologist", "saboteur")
SABOTEUR2_ROLES = (BLUE,) * 4 + (GREEN,) * 4 + (BOSS, PROFITEER) + (GEOLOGIST,) * 2 + (SABOTEUR,) * 3
TEAM_OF_ROLE = {BLUE: "blue", GREEN: "green"}

NUGGET_CARDS, GOLD_PIECES = "nugget_cards", "gold_pieces"


def base_hand_size(players: int) -> int:
    if players <= 5:
        return 6
    if players <= 7:
        return 5
    return 4


def base_role_deck(players: int) -> list[str]:
    saboteurs, diggers = BASE_ROLES[players]
    return ["saboteur"] * saboteurs + ["digger"] * diggers


def six_cards(players: int) -> int:
    return 6


def saboteur2_role_deck(players: int) -> list[str]:
    return list(SABOTEUR2_ROLES)


@dataclass(frozen=True)
class Variant:
    name: str
    min_players: int
    max_players: int
    cards: tuple[CardType, ...]
    hand_size: Callable[[int], int]
    role_deck: Callable[[int], list[str]]
    gold_cards: tuple[int, ...]
    goal_cells: tuple[Cell, ...] = ((8, 2), (8, 0), (8, -2))
    start_cell: Cell = (0, 0)
    removed_per_round: int = 0
    max_pass_cards: int = 1
    rounds: int = 3
    treasure: str = NUGGET_CARDS  # how winners are paid: nugget cards (base) or gold pieces (Saboteur 2)
    clear_cost: int = 0  # cards discarded to remove a card in front of you; 0: not allowed
    # derived lookups, indexed by card id
    start_id: int = field(init=False)
    goal_ids: tuple[int, ...] = field(init=False)
    playable_ids: tuple[int, ...] = field(init=False)
    openings: tuple[tuple[int, int], ...] = field(init=False)
    segment_edges: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = field(init=False)

    def __post_init__(self) -> None:
        kinds = [c.kind for c in self.cards]
        object.__setattr__(self, "start_id", kinds.index("start"))
        object.__setattr__(self, "goal_ids", tuple(i for i, k in enumerate(kinds) if k == "goal"))
        object.__setattr__(
            self, "playable_ids", tuple(i for i, k in enumerate(kinds) if k in ("path", "action"))
        )
        object.__setattr__(
            self, "openings", tuple((c.openings, turned(c.openings)) for c in self.cards)
        )
        object.__setattr__(
            self,
            "segment_edges",
            tuple(
                (tuple(s.edges for s in c.segments), tuple(turned(s.edges) for s in c.segments))
                for c in self.cards
            ),
        )

    def card(self, card_id: int) -> CardType:
        return self.cards[card_id]

    @property
    def pays_gold_pieces(self) -> bool:
        return self.treasure == GOLD_PIECES

    def cards_needed(self, players: int) -> int:
        """Playable cards a round uses up before the first turn: those set aside and the hands."""
        return self.removed_per_round + players * self.hand_size(players)


BOARD_CARDS = (START, GOLD, STONE_SE, STONE_SW)

BASE = Variant(
    name="base",
    min_players=3,
    max_players=10,
    cards=BOARD_CARDS + read_deck(BASE_DECK),
    hand_size=base_hand_size,
    role_deck=base_role_deck,
    gold_cards=BASE_GOLD,
)

SABOTEUR2 = Variant(
    name="saboteur2",
    min_players=2,
    max_players=12,
    cards=BOARD_CARDS + read_deck(SABOTEUR2_DECK),
    hand_size=six_cards,
    role_deck=saboteur2_role_deck,
    gold_cards=(),
    removed_per_round=10,
    max_pass_cards=3,
    treasure=GOLD_PIECES,
    clear_cost=2,
)

VARIANTS: dict[str, Variant] = {"base": BASE, "saboteur2": SABOTEUR2}


def get_variant(name: str) -> Variant:
    return VARIANTS[name]


def with_deck(name: str, deck: Any) -> Variant:
    """The variant `name` played with the cards of `deck` (checked; raises InvalidSetup)."""
    return _with_deck(name, json.dumps(deck, sort_keys=True))


@lru_cache(maxsize=32)
def _with_deck(name: str, deck_json: str) -> Variant:
    return dataclasses.replace(VARIANTS[name], cards=BOARD_CARDS + read_deck(json.loads(deck_json)))


def variant_of(g: Game) -> Variant:
    """The rules and cards of this game; a game with its own deck keeps its variant cached on itself."""
    cached: Variant | None = g.variant_cache
    if cached is None:
        deck = g.options.get("deck")
        cached = VARIANTS[g.variant] if deck is None else with_deck(g.variant, deck)
        g.variant_cache = cached
    return cached
