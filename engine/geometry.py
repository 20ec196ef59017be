"""The frame of the table: cells, the four card edges as bits, and turning a card around.

x grows toward the goals (east), y grows north. N, E, S, W are the top, right, bottom and
left edges of a card as it lies on the table. A card may be turned 180 degrees, never 90.
"""
from __future__ import annotations

from collections.abc import Iterator

N, E, S, W = 1, 2, 4, 8
DIRECTIONS: tuple[int, ...] = (N, E, S, W)
LETTER = {N: "N", E: "E", S: "S", W: "W"}
FROM_LETTER = {v: k for k, v in LETTER.items()}
OPPOSITE = {N: S, E: W, S: N, W: E}
STEP = {N: (0, 1), E: (1, 0), S: (0, -1), W: (-1, 0)}

Cell = tuple[int, int]


def turned(mask: int) -> int:
    """The same edges after turning the card 180 degrees (N<->S, E<->W)."""
    return ((mask << 2) | (mask >> 2)) & 15


def neighbour(cell: Cell, direction: int) -> Cell:
    dx, dy = STEP[direction]
    return (cell[0] + dx, cell[1] + dy)


def bits(mask: int) -> Iterator[int]:
    for d in DIRECTIONS:
        if mask & d:
            yield d


def mask_from_letters(letters: str) -> int:
    mask = 0
    for ch in letters:
        mask |= FROM_LETTER[ch]
    return mask


def letters(mask: int) -> str:
    return "".join(LETTER[d] for d in DIRECTIONS if mask & d)
