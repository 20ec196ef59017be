"""The tunnel network: which openings join the start, where a card may go, which goals are reached.

"Reach" is the set of open card edges `(x, y, edge)` joined to the start through joined segments
(ladders count as joined to the start). A new card connects when one of its openings meets a
reachable opening of a neighbour. Face-down goals are not on the board: they constrain no
neighbour and carry no tunnel until they are turned over.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from .errors import IllegalMove
from .geometry import DIRECTIONS, LETTER, OPPOSITE, STEP, Cell
from .variants import Variant

Board = Mapping[Cell, tuple[int, bool]]
Opening = tuple[int, int, int]


def reach_from_start(variant: Variant, board: Board, exclude_door: str | None = None) -> frozenset[Opening]:
    """Every opening joined to the start; `exclude_door` treats doors of that colour as walls."""
    seeds: list[tuple[Cell, int]] = []
    cards = variant.cards
    for cell, (card_id, _rot) in board.items():
        card = cards[card_id]
        for index, segment in enumerate(card.segments):
            if segment.ladder or card.kind == "start":
                seeds.append((cell, index))
    out: set[Opening] = set()
    _flood(variant, board, out, seeds, exclude_door)
    return frozenset(out)


def extend_reach(variant: Variant, board: Board, reach: frozenset[Opening], cell: Cell) -> frozenset[Opening]:
    """Reach after the card now at `cell` was added; adding a card never cuts a tunnel."""
    card_id, rot = board[cell]
    card = variant.cards[card_id]
    masks = variant.segment_edges[card_id][rot]
    x, y = cell
    seeds = []
    for index, mask in enumerate(masks):
        if card.segments[index].ladder or _touches_reach(reach, x, y, mask):
            seeds.append((cell, index))
    if not seeds:
        return reach
    out = set(reach)
    _flood(variant, board, out, seeds, None)
    return frozenset(out)


def _touches_reach(reach: frozenset[Opening], x: int, y: int, mask: int) -> bool:
    for d in DIRECTIONS:
        if mask & d:
            dx, dy = STEP[d]
            if (x + dx, y + dy, OPPOSITE[d]) in reach:
                return True
    return False


def _flood(
    variant: Variant, board: Board, out: set[Opening], seeds: Iterable[tuple[Cell, int]], exclude_door: str | None
) -> None:
    cards = variant.cards
    edges = variant.segment_edges
    stack = list(seeds)
    while stack:
        (x, y), index = stack.pop()
        card_id, rot = board[(x, y)]
        mask = edges[card_id][rot][index]
        if (x, y, mask & -mask) in out:
            continue
        if exclude_door is not None and cards[card_id].segments[index].door == exclude_door:
            continue
        for d in DIRECTIONS:
            if not mask & d:
                continue
            out.add((x, y, d))
            dx, dy = STEP[d]
            q = (x + dx, y + dy)
            other = board.get(q)
            if other is None:
                continue
            facing = OPPOSITE[d]
            for j, m in enumerate(edges[other[0]][other[1]]):
                if m & facing:
                    stack.append((q, j))
                    break


def neighbourhood(variant: Variant, board: Board, cell: Cell) -> tuple[int, int]:
    """(sides with a card, sides where that card has an opening facing `cell`)."""
    x, y = cell
    occupied = required = 0
    openings = variant.openings
    for d in DIRECTIONS:
        dx, dy = STEP[d]
        other = board.get((x + dx, y + dy))
        if other is not None:
            occupied |= d
            if openings[other[0]][other[1]] & OPPOSITE[d]:
                required |= d
    return occupied, required


def reach_sides(reach: frozenset[Opening], cell: Cell) -> int:
    """Sides of `cell` that face a reachable opening of a neighbour."""
    x, y = cell
    sides = 0
    for d in DIRECTIONS:
        dx, dy = STEP[d]
        if (x + dx, y + dy, OPPOSITE[d]) in reach:
            sides |= d
    return sides


def mismatch(openings: int, occupied: int, required: int) -> IllegalMove | None:
    """Why a card with these openings does not fit its neighbours (`side`: the edge's letter, N, E, S or W)."""
    for d in DIRECTIONS:
        if not occupied & d:
            continue
        if openings & d and not required & d:
            return IllegalMove("tunnel_meets_wall", side=LETTER[d])
        if required & d and not openings & d:
            return IllegalMove("wall_meets_tunnel", side=LETTER[d])
    return None


def building_sites(board: Board, hidden_goals: Mapping[Cell, int], reach: frozenset[Opening]) -> dict[Cell, int]:
    """Empty cells next to a reachable opening, with the sides that face one."""
    sites: dict[Cell, int] = {}
    for x, y, d in reach:
        dx, dy = STEP[d]
        q = (x + dx, y + dy)
        if q in board or q in hidden_goals:
            continue
        sites[q] = sites.get(q, 0) | OPPOSITE[d]
    return sites


def reached_goals(hidden_goals: Mapping[Cell, int], reach: frozenset[Opening]) -> list[tuple[Cell, int]]:
    """Face-down goals that a reachable opening now faces, with the side it comes from."""
    found = []
    for cell in sorted(hidden_goals):
        sides = reach_sides(reach, cell)
        if sides:
            found.append((cell, sides))
    return found


def goal_orientation(variant: Variant, board: Board, card_id: int, cell: Cell, reached_from: int) -> bool:
    """Turn a goal 180 degrees when that makes it fit; the side it was reached from counts most."""
    occupied, required = neighbourhood(variant, board, cell)

    def score(rotated: bool) -> tuple[int, int]:
        openings = variant.openings[card_id][rotated]
        joins_reacher = int(bool(openings & reached_from))
        matches = sum(1 for d in DIRECTIONS if occupied & d and bool(openings & d) == bool(required & d))
        return joins_reacher, matches

    return score(True) > score(False)


def next_to_goal(cell: Cell, goal_cells: Iterable[Cell]) -> bool:
    """Whether `cell` shares an edge with a goal cell, face down or turned over."""
    x, y = cell
    return any(abs(x - gx) + abs(y - gy) == 1 for gx, gy in goal_cells)


def ladder_sites(board: Board, hidden_goals: Mapping[Cell, int], goal_cells: Iterable[Cell]) -> list[Cell]:
    """Empty cells where a ladder may go: touching a card on the table and not next to a goal."""
    goals = tuple(goal_cells)
    sites: set[Cell] = set()
    for x, y in board:
        for dx, dy in STEP.values():
            q = (x + dx, y + dy)
            if q not in board and q not in hidden_goals and not next_to_goal(q, goals):
                sites.add(q)
    return sorted(sites)


def gold_reachable(variant: Variant, board: Board, exclude_door: str | None = None) -> bool:
    """Whether the turned-over gold is joined to the start, treating doors of `exclude_door` as walls."""
    gold = [cell for cell, (card_id, _) in board.items() if variant.cards[card_id].gold]
    if not gold:
        return False
    reach = reach_from_start(variant, board, exclude_door=exclude_door)
    x, y = gold[0]
    return any((x, y, d) in reach for d in DIRECTIONS)
