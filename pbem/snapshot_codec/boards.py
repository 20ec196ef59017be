"""Cards, roles and boards as digits: a card by its rank among those not yet written, cells as small numbers."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from math import perm
from typing import Any

from pbem.snapshot_codec.digits import Digits, Reader, put_many
from pbem.snapshot_codec.tags import ROLE_INDEX, ROLES, SPAN, CorruptPayload, Unfit


def put_cards(digits: Digits, cards: Sequence[int], universe: int) -> None:
    """Distinct card ids below `universe`, each as its rank among the ids not yet written (one digit for all:
    the same integer as a digit per card)."""
    left = list(range(universe))
    ranks = []
    for card in cards:
        index = bisect_left(left, card)
        if index == len(left) or left[index] != card:
            raise Unfit("card ids repeat or lie outside the deck")
        ranks.append(index)
        del left[index]
    number = 0
    for count, index in zip(range(universe - len(ranks) + 1, universe + 1), reversed(ranks), strict=True):
        number = number * count + index
    if ranks:
        digits.put(number, perm(universe, len(ranks)))


def get_cards(reader: Reader, count: int, left: list[int]) -> list[int]:
    """`count` cards written by `put_cards`; `left` (the ids not yet read, sorted) loses them."""
    if count == 0:
        return []
    chunk = reader.get(perm(len(left), count))
    cards = []
    for _ in range(count):
        chunk, index = divmod(chunk, len(left))
        cards.append(left.pop(index))
    return cards


def put_roles(digits: Digits, roles: Any) -> None:
    if type(roles) is not list or any(type(role) is not str or role not in ROLE_INDEX for role in roles):
        raise Unfit("unknown role")
    digits.count(len(roles))
    put_many(digits, [ROLE_INDEX[role] for role in roles], len(ROLES))


def get_roles(reader: Reader) -> list[str]:
    return [ROLES[index] for index in reader.many(reader.count(), len(ROLES))]


def board(value: Any) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """A board as the engine writes it (`[x, y, card, rot]` sorted by cell): cells, cards, rotations."""
    if type(value) is not list:
        raise Unfit("a board is a list")
    cells: list[tuple[int, int]] = []
    cards: list[int] = []
    rotations: list[int] = []
    for entry in value:
        if type(entry) is not list or len(entry) != 4 or any(type(item) is not int for item in entry):
            raise Unfit("a board entry is [x, y, card, rot]")
        x, y, card, rot = entry
        if rot not in (0, 1) or (cells and (x, y) <= cells[-1]):
            raise Unfit("a board is sorted by cell, its rotations 0 or 1")
        cells.append((x, y))
        cards.append(card)
        rotations.append(rot)
    return cells, cards, rotations


def put_cells(digits: Digits, cells: Sequence[tuple[int, int]]) -> None:
    """Sorted distinct cells: their bounding box, then which of its cells are taken (one bit each)."""
    if not cells:
        return
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    left, bottom = xs[0], min(ys)
    width, height = xs[-1] - left + 1, max(ys) - bottom + 1
    if digits.tight:
        if not (-SPAN // 2 <= left < SPAN // 2 and -SPAN // 2 <= bottom < SPAN // 2 and width <= SPAN >= height):
            raise Unfit("a board wider or higher than SPAN")
        for value in (zigzag(left), zigzag(bottom), width - 1, height - 1):
            digits.count(value)
    else:
        digits.put(left + SPAN // 2, SPAN)
        digits.put(bottom + SPAN // 2, SPAN)
        digits.put(width - 1, SPAN)
        digits.put(height - 1, SPAN)
    bits = 0
    for x, y in cells:
        bits |= 1 << ((x - left) * height + (y - bottom))
    digits.put(bits, 1 << (width * height))


def get_cells(reader: Reader, count: int) -> list[tuple[int, int]]:
    if count == 0:
        return []
    if reader.tight:
        left, bottom = unzigzag(reader.count()), unzigzag(reader.count())
        width, height = reader.count() + 1, reader.count() + 1
        if width > SPAN or height > SPAN:
            raise CorruptPayload("a board wider or higher than SPAN")
    else:
        left = reader.get(SPAN) - SPAN // 2
        bottom = reader.get(SPAN) - SPAN // 2
        width = reader.get(SPAN) + 1
        height = reader.get(SPAN) + 1
    bits = reader.get(1 << (width * height))
    cells = []
    index = 0
    while bits:
        if bits & 1:
            column, row = divmod(index, height)
            cells.append((left + column, bottom + row))
        bits >>= 1
        index += 1
    if len(cells) != count:
        raise CorruptPayload("a board's cells do not match its cards")
    return cells


def zigzag(value: int) -> int:
    return 2 * value if value >= 0 else -2 * value - 1


def unzigzag(value: int) -> int:
    return value // 2 if value % 2 == 0 else -(value + 1) // 2


def board_entries(cells: Sequence[tuple[int, int]], cards: Sequence[int], rotations: Sequence[int]) -> list[list[int]]:
    return [[x, y, card, rot] for (x, y), card, rot in zip(cells, cards, rotations, strict=True)]
