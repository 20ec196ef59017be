"""The base game's 40 playable path cards and 27 action cards, as data (format: `reader.py`).

Every count comes from the base card sheet as written down in `shared/rules/cards.md` (tables
"40 playable" and "27 action cards"); all of them are confirmed. The order of the entries fixes the
base game's card ids: after the start (0) and the goals (1-3), paths are 4-43 and actions 44-70.
"""
from __future__ import annotations

from typing import Any

BASE_PATHS: list[dict[str, Any]] = [
    # cards.md, connected cards: 5 crossings
    {"name": "cross", "label": "Crossing", "count": 5, "segments": [{"edges": "NESW"}]},
    # cards.md: 5 T junctions N-S with an E branch
    {"name": "tee_nse", "label": "T-junction", "count": 5, "segments": [{"edges": "NES"}]},
    # cards.md: 5 T junctions E-W with an S branch
    {"name": "tee_ews", "label": "T-junction", "count": 5, "segments": [{"edges": "ESW"}]},
    # cards.md: 4 straights N-S (not 3: the card sheet prints them sideways)
    {"name": "straight_ns", "label": "Straight", "count": 4, "segments": [{"edges": "NS"}]},
    # cards.md: 3 straights E-W
    {"name": "straight_ew", "label": "Straight", "count": 3, "segments": [{"edges": "EW"}]},
    # cards.md: 5 curves N-E
    {"name": "curve_ne", "label": "Curve", "count": 5, "segments": [{"edges": "NE"}]},
    # cards.md: 4 curves N-W
    {"name": "curve_nw", "label": "Curve", "count": 4, "segments": [{"edges": "NW"}]},
    # cards.md, dead ends (one of each): crossing
    {"name": "dead_cross", "label": "Dead end", "count": 1,
     "segments": [{"edges": "N", "dead": True}, {"edges": "E", "dead": True}, {"edges": "S", "dead": True},
                  {"edges": "W", "dead": True}]},
    # cards.md: dead-end T N-S-E
    {"name": "dead_tee_nse", "label": "Dead end", "count": 1,
     "segments": [{"edges": "N", "dead": True}, {"edges": "S", "dead": True}, {"edges": "E", "dead": True}]},
    # cards.md: dead-end T E-W-S
    {"name": "dead_tee_ews", "label": "Dead end", "count": 1,
     "segments": [{"edges": "E", "dead": True}, {"edges": "W", "dead": True}, {"edges": "S", "dead": True}]},
    # cards.md: dead-end straight N-S
    {"name": "dead_straight_ns", "label": "Dead end", "count": 1,
     "segments": [{"edges": "N", "dead": True}, {"edges": "S", "dead": True}]},
    # cards.md: dead-end straight E-W
    {"name": "dead_straight_ew", "label": "Dead end", "count": 1,
     "segments": [{"edges": "E", "dead": True}, {"edges": "W", "dead": True}]},
    # cards.md: dead-end curve N-E
    {"name": "dead_curve_ne", "label": "Dead end", "count": 1,
     "segments": [{"edges": "N", "dead": True}, {"edges": "E", "dead": True}]},
    # cards.md: dead-end curve N-W
    {"name": "dead_curve_nw", "label": "Dead end", "count": 1,
     "segments": [{"edges": "N", "dead": True}, {"edges": "W", "dead": True}]},
    # cards.md: single dead end N
    {"name": "dead_n", "label": "Dead end", "count": 1, "segments": [{"edges": "N", "dead": True}]},
    # cards.md: single dead end E
    {"name": "dead_e", "label": "Dead end", "count": 1, "segments": [{"edges": "E", "dead": True}]},
]

BASE_ACTIONS: list[dict[str, Any]] = [
    # cards.md, action cards: 3 of each broken tool
    {"name": "break_pick", "label": "Broken pick", "count": 3, "effect": "break", "tools": ["pick"]},
    {"name": "break_lantern", "label": "Broken lantern", "count": 3, "effect": "break", "tools": ["lantern"]},
    {"name": "break_cart", "label": "Broken cart", "count": 3, "effect": "break", "tools": ["cart"]},
    # cards.md: 2 of each single repair
    {"name": "repair_pick", "label": "Repair pick", "count": 2, "effect": "repair", "tools": ["pick"]},
    {"name": "repair_lantern", "label": "Repair lantern", "count": 2, "effect": "repair", "tools": ["lantern"]},
    {"name": "repair_cart", "label": "Repair cart", "count": 2, "effect": "repair", "tools": ["cart"]},
    # cards.md: 1 of each double repair
    {"name": "repair_pick_lantern", "label": "Repair pick or lantern", "count": 1, "effect": "repair",
     "tools": ["pick", "lantern"]},
    {"name": "repair_pick_cart", "label": "Repair pick or cart", "count": 1, "effect": "repair",
     "tools": ["pick", "cart"]},
    {"name": "repair_lantern_cart", "label": "Repair lantern or cart", "count": 1, "effect": "repair",
     "tools": ["lantern", "cart"]},
    # cards.md: 3 rockfalls
    {"name": "rockfall", "label": "Rockfall", "count": 3, "effect": "rockfall"},
    # cards.md: 6 maps
    {"name": "map", "label": "Map", "count": 6, "effect": "map"},
]

BASE_DECK: dict[str, list[dict[str, Any]]] = {"paths": BASE_PATHS, "actions": BASE_ACTIONS}
