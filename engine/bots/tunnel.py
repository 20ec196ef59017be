"""The tunnel as one seat sees it: what joins the start, where cards can go, how far each goal is.

Everything here is computed from a view's `board` and `goals` (segments as the cards lie), never
from the game state, so a bot using it cannot know more than its seat. The measure of a tunnel is
its *cost* toward a face-down goal: the fewest cards still to lay, through empty cells, from the
nearest building site until a joined opening faces that goal. Diggers want it small, saboteurs
large; a move is judged by how it changes the cost, weighted by where the gold may lie.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

from ..geometry import DIRECTIONS, OPPOSITE, STEP, Cell, mask_from_letters, turned

Opening = tuple[int, int, int]
SegmentRef = tuple[Cell, int]

UNREACHABLE = 30
"""The cost of a goal no site can reach: worse than any real tunnel, yet finite so it can be averaged."""

MARGIN = 3
"""How far beyond the cards and goals a detour is still considered."""


def readable_segments(card: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The segments of a card that name their edges; anything else on the card is passed over."""
    out = []
    for segment in card.get("segments") or ():
        edges = segment.get("edges") if isinstance(segment, dict) else None
        if isinstance(edges, str) and edges and not set(edges) - set("NESW"):
            out.append(segment)
    return out


def segment_masks(card: Mapping[str, Any], rotated: bool = False) -> tuple[int, ...]:
    """Edge masks of a card's segments; `rotated` turns a hand card (board cards already lie turned)."""
    masks = (mask_from_letters(s["edges"]) for s in readable_segments(card))
    return tuple(turned(m) if rotated else m for m in masks)


def is_dead_end(card: Mapping[str, Any]) -> bool:
    """A path card whose openings lead nowhere: every segment a stub."""
    segments = card.get("segments") or ()
    return bool(segments) and all(isinstance(s, dict) and s.get("dead") for s in segments)


@dataclass(frozen=True, eq=False)
class Layout:
    """The cards on the table as segment masks, and the goals still face down.

    Two layouts with the same cards are equal (and hash alike), so measurements can be memoised.
    """

    cells: Mapping[Cell, tuple[int, ...]]
    seeds: frozenset[SegmentRef]
    """Segments joined to the start wherever they lie: the start's, and ladders."""
    hidden: frozenset[Cell]

    @cached_property
    def key(self) -> tuple[object, ...]:
        return (frozenset(self.cells.items()), self.seeds, self.hidden)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Layout) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def with_card(self, cell: Cell, masks: tuple[int, ...]) -> Layout:
        cells = dict(self.cells)
        cells[cell] = masks
        return Layout(cells, self.seeds, self.hidden - {cell})

    def without_card(self, cell: Cell) -> Layout:
        cells = dict(self.cells)
        cells.pop(cell, None)
        return Layout(cells, frozenset(s for s in self.seeds if s[0] != cell), self.hidden)

    def is_free(self, cell: Cell) -> bool:
        return cell not in self.cells and cell not in self.hidden


def layout_from_view(view: Mapping[str, Any]) -> Layout:
    """Read the table of a view; unknown card kinds count as plain tunnel, unknown fields are ignored."""
    cells: dict[Cell, tuple[int, ...]] = {}
    seeds: set[SegmentRef] = set()
    for card in view.get("board") or ():
        cell = (card["x"], card["y"])
        cells[cell] = segment_masks(card)
        for index, segment in enumerate(readable_segments(card)):
            if card.get("kind") == "start" or segment.get("ladder"):
                seeds.add((cell, index))
    hidden = frozenset((g["x"], g["y"]) for g in view.get("goals") or () if not g.get("revealed"))
    return Layout(cells, frozenset(seeds), hidden)


def flood(cells: Mapping[Cell, tuple[int, ...]], seeds: Iterable[SegmentRef],
          known: frozenset[Opening] = frozenset()) -> set[Opening]:
    """Openings joined to `seeds` through joined segments, beyond those already `known`."""
    found: set[Opening] = set()
    stack = list(seeds)
    while stack:
        (x, y), index = stack.pop()
        mask = cells[(x, y)][index]
        first = (x, y, mask & -mask)
        if first in found or first in known:
            continue
        for d in DIRECTIONS:
            if not mask & d:
                continue
            found.add((x, y, d))
            dx, dy = STEP[d]
            other = cells.get((x + dx, y + dy))
            if other is None:
                continue
            facing = OPPOSITE[d]
            for j, m in enumerate(other):
                if m & facing:
                    stack.append(((x + dx, y + dy), j))
                    break
    return found


def sites_of(layout: Layout, openings: Iterable[Opening], exclude: Cell | None = None) -> set[Cell]:
    """Free cells that these openings face: where the next card may join the tunnel."""
    out = set()
    for x, y, d in openings:
        dx, dy = STEP[d]
        q = (x + dx, y + dy)
        if q != exclude and layout.is_free(q):
            out.add(q)
    return out


def goals_faced(layout: Layout, openings: Iterable[Opening]) -> set[Cell]:
    out = set()
    for x, y, d in openings:
        dx, dy = STEP[d]
        if (x + dx, y + dy) in layout.hidden:
            out.add((x + dx, y + dy))
    return out


def distances_to(layout: Layout, goal: Cell) -> dict[Cell, int]:
    """For each free cell near the table: cards to lay, starting there, until one faces `goal`."""
    taken = set(layout.cells) | set(layout.hidden)
    xs = [c[0] for c in taken]
    ys = [c[1] for c in taken]
    low_x, high_x, low_y, high_y = min(xs) - MARGIN, max(xs) + MARGIN, min(ys) - MARGIN, max(ys) + MARGIN
    dist: dict[Cell, int] = {}
    frontier = [goal]
    steps = 0
    while frontier:
        steps += 1
        following = []
        for x, y in frontier:
            for q in ((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)):
                if q in dist or q in taken or not (low_x <= q[0] <= high_x and low_y <= q[1] <= high_y):
                    continue
                dist[q] = steps
                following.append(q)
        frontier = following
    return dist


@dataclass(frozen=True)
class Outcome:
    """A tunnel's cost toward each face-down goal, and how many sites share the best cost (its width)."""

    costs: Mapping[Cell, int]
    widths: Mapping[Cell, int]

    def expected(self, belief: Mapping[Cell, float]) -> float:
        return sum(p * self.costs.get(goal, UNREACHABLE) for goal, p in belief.items())

    def width(self, belief: Mapping[Cell, float]) -> float:
        return sum(p * self.widths.get(goal, 0) for goal, p in belief.items())


@dataclass
class Survey:
    """One table measured once, so that each candidate move is judged in a few steps.

    For each face-down goal it keeps the sites ranked by distance; a move changes only a few sites,
    so its outcome is the best old site it leaves alone or the best new one it opens.
    """

    layout: Layout
    reach: frozenset[Opening]
    sites: frozenset[Cell]
    distance: dict[Cell, dict[Cell, int]] = field(default_factory=dict)

    @cached_property
    def ranked(self) -> dict[Cell, list[tuple[int, Cell]]]:
        return {goal: sorted((min(self.distances(goal).get(s, UNREACHABLE), UNREACHABLE), s) for s in self.sites)
                for goal in sorted(self.layout.hidden)}

    @cached_property
    def now(self) -> Outcome:
        return self._outcome(set(), set())

    def after_placing(self, cell: Cell, masks: tuple[int, ...]) -> Outcome:
        """The tunnel once a card with these segments lies at `cell`."""
        cells = dict(self.layout.cells)
        cells[cell] = masks
        joined = [(cell, i) for i, m in enumerate(masks) if self._faces_reach(cell, m)]
        added = flood(cells, joined, self.reach)
        new_layout = Layout(cells, self.layout.seeds, self.layout.hidden)
        return self._outcome(sites_of(new_layout, added), goals_faced(self.layout, added), gone=cell)

    def after_removing(self, cell: Cell) -> Outcome:
        """The tunnel once a rockfall clears `cell`: cut-off cards carry nothing until a card fills
        the gap, so the diggers need the better of a new way round and that one card more."""
        layout = self.layout.without_card(cell)
        sites = sites_of(layout, flood(layout.cells, layout.seeds))
        costs: dict[Cell, int] = {}
        widths: dict[Cell, int] = {}
        for goal in sorted(self.layout.hidden):
            dist = self.distances(goal)
            near = [0 if q == goal else dist.get(q, UNREACHABLE) for q in _around(cell)]
            values = [min(near) + 1 if s == cell else dist.get(s, UNREACHABLE) for s in sites]
            if cell in sites:
                values.append(min(self.now.costs[goal] + 1, UNREACHABLE))
            costs[goal], widths[goal] = _best_and_width(values)
        return Outcome(costs, widths)

    def distances(self, goal: Cell) -> dict[Cell, int]:
        if goal not in self.distance:
            self.distance[goal] = distances_to(self.layout, goal)
        return self.distance[goal]

    def _faces_reach(self, cell: Cell, mask: int) -> bool:
        for d in DIRECTIONS:
            if mask & d and (cell[0] + STEP[d][0], cell[1] + STEP[d][1], OPPOSITE[d]) in self.reach:
                return True
        return False

    def _outcome(self, new_sites: set[Cell], reached: set[Cell], gone: Cell | None = None) -> Outcome:
        """Costs once `gone` is no longer a site and `new_sites` are."""
        costs: dict[Cell, int] = {}
        widths: dict[Cell, int] = {}
        for goal, ranked in self.ranked.items():
            if goal in reached:
                costs[goal], widths[goal] = 0, 1
                continue
            kept = _best_and_width(_leaving_out(ranked, gone))
            opened = _best_and_width([self.distances(goal).get(s, UNREACHABLE) for s in new_sites])
            costs[goal], widths[goal] = _merge(kept, opened)
        return Outcome(costs, widths)


def _leaving_out(ranked: list[tuple[int, Cell]], gone: Cell | None) -> list[int]:
    """The best distances among ranked sites other than `gone` (all that tie for best, no more)."""
    out: list[int] = []
    for d, site in ranked:
        if site == gone:
            continue
        if out and d > out[0]:
            break
        out.append(d)
    return out


def _merge(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    if a[0] != b[0]:
        return min(a, b)
    return a[0], a[1] + b[1]


def _best_and_width(values: list[int]) -> tuple[int, int]:
    best = min(values, default=UNREACHABLE)
    if best >= UNREACHABLE:
        return UNREACHABLE, 0
    return best, values.count(best)


def _around(cell: Cell) -> list[Cell]:
    return [(cell[0] + STEP[d][0], cell[1] + STEP[d][1]) for d in DIRECTIONS]


@lru_cache(maxsize=4096)
def survey(layout: Layout) -> Survey:
    """Measure a table; memoised by its cards only, so a result never depends on what came before."""
    reach = frozenset(flood(layout.cells, layout.seeds))
    return Survey(layout, reach, frozenset(sites_of(layout, reach)))
