"""What differs between games: the deck, the roles, hand sizes and player counts.

A variant numbers its cards once (card ids are positions in `cards`), so a snapshot stores
small integers and a card id always means the same physical card.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .cards import BASE_ACTIONS, BASE_PATHS, GOLD, START, STONE_SE, STONE_SW, CardType
from .geometry import Cell, turned

BASE_ROLES = {3: (1, 3), 4: (1, 4), 5: (2, 4), 6: (2, 5), 7: (3, 5), 8: (3, 6), 9: (3, 7), 10: (4, 7)}
BASE_GOLD = (1,) * 16 + (2,) * 8 + (3,) * 4


def base_hand_size(players: int) -> int:
    if players <= 5:
        return 6
    if players <= 7:
        return 5
    return 4


def base_role_deck(players: int) -> list[str]:
    saboteurs, diggers = BASE_ROLES[players]
    return ["saboteur"] * saboteurs + ["digger"] * diggers


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


def expand(groups: tuple[tuple[CardType, int], ...]) -> tuple[CardType, ...]:
    return tuple(card for card, count in groups for _ in range(count))


BASE = Variant(
    name="base",
    min_players=3,
    max_players=10,
    cards=(START, GOLD, STONE_SE, STONE_SW) + expand(BASE_PATHS) + expand(BASE_ACTIONS),
    hand_size=base_hand_size,
    role_deck=base_role_deck,
    gold_cards=BASE_GOLD,
)

VARIANTS: dict[str, Variant] = {"base": BASE}


def get_variant(name: str) -> Variant:
    return VARIANTS[name]
