"""Card types: every path card is a set of tunnel segments, every action card an effect.

A segment is the set of edges it joins through the card. A dead end is modelled as stubs: each
stub is a one-edge segment marked `dead`, an opening for matching neighbours that leads nowhere.
Saboteur 2 cards fit the same model: a bridge is two segments, a door is a segment with a colour,
a ladder is a segment joined to the start wherever it lies.

The playable cards of each game are data (`engine/decks/`); only the start and the goals, which
every variant shares, are defined here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .geometry import letters, mask_from_letters, turned
from .shapes import SegmentInfo

TOOLS = ("pick", "lantern", "cart")


@dataclass(frozen=True)
class Segment:
    edges: int
    dead: bool = False
    door: str | None = None
    ladder: bool = False

    def to_dict(self) -> SegmentInfo:
        out: SegmentInfo = {"edges": letters(self.edges)}
        if self.dead:
            out["dead"] = True
        if self.door:
            out["door"] = self.door
        if self.ladder:
            out["ladder"] = True
        return out


def tunnel(edges: str, **kw: Any) -> Segment:
    return Segment(mask_from_letters(edges), **kw)


@dataclass(frozen=True)
class CardType:
    name: str
    kind: str  # "start" | "goal" | "path" | "action"
    label: str  # the printed name, as data: the application translates it (pbem/words/cards.py)
    segments: tuple[Segment, ...] = ()
    crystals: int = 0
    effect: str | None = None  # actions: "break", "repair", "rockfall", "map", ...
    tools: tuple[str, ...] = ()
    gold: bool = False
    openings: int = field(init=False)
    symmetric: bool = field(init=False)

    def __post_init__(self) -> None:
        mask = 0
        for seg in self.segments:
            mask |= seg.edges
        object.__setattr__(self, "openings", mask)
        upright = sorted((s.edges, s.dead, s.door or "", s.ladder) for s in self.segments)
        flipped = sorted((turned(s.edges), s.dead, s.door or "", s.ladder) for s in self.segments)
        object.__setattr__(self, "symmetric", upright == flipped)

    @property
    def dead_end(self) -> bool:
        return bool(self.segments) and all(s.dead for s in self.segments)

    @property
    def has_ladder(self) -> bool:
        return any(s.ladder for s in self.segments)


# The special path cards of every round.
START = CardType("start", "start", "Start", (tunnel("NESW"),))
GOLD = CardType("gold", "goal", "Gold", (tunnel("NESW"),), gold=True)
STONE_SE = CardType("stone_se", "goal", "Stone", (tunnel("SE"),))
STONE_SW = CardType("stone_sw", "goal", "Stone", (tunnel("SW"),))
