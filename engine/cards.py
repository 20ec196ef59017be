"""Card types: every path card is a set of tunnel segments, every action card an effect.

A segment is the set of edges it joins through the card. A dead end is modelled as stubs: each
stub is a one-edge segment marked `dead`, an opening for matching neighbours that leads nowhere.
Saboteur 2 cards fit the same model: a bridge is two segments, a door is a segment with a colour,
a ladder is a segment joined to the start wherever it lies.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .geometry import letters, mask_from_letters, turned

TOOLS = ("pick", "lantern", "cart")


@dataclass(frozen=True)
class Segment:
    edges: int
    dead: bool = False
    door: str | None = None
    ladder: bool = False

    def to_dict(self) -> dict:
        out: dict = {"edges": letters(self.edges)}
        if self.dead:
            out["dead"] = True
        if self.door:
            out["door"] = self.door
        if self.ladder:
            out["ladder"] = True
        return out


def tunnel(edges: str, **kw) -> Segment:
    return Segment(mask_from_letters(edges), **kw)


def stubs(edges: str) -> tuple[Segment, ...]:
    return tuple(Segment(mask_from_letters(e), dead=True) for e in edges)


@dataclass(frozen=True)
class CardType:
    name: str
    kind: str  # "start" | "goal" | "path" | "action"
    label: str
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
    def is_path(self) -> bool:
        return self.kind == "path"

    @property
    def dead_end(self) -> bool:
        return bool(self.segments) and all(s.dead for s in self.segments)


def path(name: str, label: str, *segments: Segment, crystals: int = 0) -> CardType:
    return CardType(name, "path", label, tuple(segments), crystals=crystals)


def action(name: str, label: str, effect: str, tools: tuple[str, ...] = ()) -> CardType:
    return CardType(name, "action", label, effect=effect, tools=tools)


# The special path cards of every round.
START = CardType("start", "start", "Start", (tunnel("NESW"),))
GOLD = CardType("gold", "goal", "Gold", (tunnel("NESW"),), gold=True)
STONE_SE = CardType("stone_se", "goal", "Stone", (tunnel("SE"),))
STONE_SW = CardType("stone_sw", "goal", "Stone", (tunnel("SW"),))

BASE_PATHS: tuple[tuple[CardType, int], ...] = (
    (path("cross", "Crossing", tunnel("NESW")), 5),
    (path("tee_nse", "T junction", tunnel("NSE")), 5),
    (path("tee_ews", "T junction", tunnel("EWS")), 5),
    (path("straight_ns", "Straight", tunnel("NS")), 4),
    (path("straight_ew", "Straight", tunnel("EW")), 3),
    (path("curve_ne", "Curve", tunnel("NE")), 5),
    (path("curve_nw", "Curve", tunnel("NW")), 4),
    (path("dead_cross", "Dead end", *stubs("NESW")), 1),
    (path("dead_tee_nse", "Dead end", *stubs("NSE")), 1),
    (path("dead_tee_ews", "Dead end", *stubs("EWS")), 1),
    (path("dead_straight_ns", "Dead end", *stubs("NS")), 1),
    (path("dead_straight_ew", "Dead end", *stubs("EW")), 1),
    (path("dead_curve_ne", "Dead end", *stubs("NE")), 1),
    (path("dead_curve_nw", "Dead end", *stubs("NW")), 1),
    (path("dead_n", "Dead end", *stubs("N")), 1),
    (path("dead_e", "Dead end", *stubs("E")), 1),
)

BASE_ACTIONS: tuple[tuple[CardType, int], ...] = (
    (action("break_pick", "Broken pick", "break", ("pick",)), 3),
    (action("break_lantern", "Broken lantern", "break", ("lantern",)), 3),
    (action("break_cart", "Broken cart", "break", ("cart",)), 3),
    (action("repair_pick", "Repair pick", "repair", ("pick",)), 2),
    (action("repair_lantern", "Repair lantern", "repair", ("lantern",)), 2),
    (action("repair_cart", "Repair cart", "repair", ("cart",)), 2),
    (action("repair_pick_lantern", "Repair pick or lantern", "repair", ("pick", "lantern")), 1),
    (action("repair_pick_cart", "Repair pick or cart", "repair", ("pick", "cart")), 1),
    (action("repair_lantern_cart", "Repair lantern or cart", "repair", ("lantern", "cart")), 1),
    (action("rockfall", "Rockfall", "rockfall"), 3),
    (action("map", "Map", "map"), 6),
)
