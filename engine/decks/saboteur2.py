"""Saboteur 2: the base game's path and action cards plus the expansion's, as data (format: `reader.py`).

The expansion holds 30 path cards and 21 action cards (rulebook, contents). `shared/rules/cards.md`
identifies 24 of the path cards and 20 of the action cards; the other 6 path cards and the 21st
action card are STAND-INS chosen for this engine and marked so below. A host who owns the cards can
pass a corrected deck in the same format (`new_game(..., options={"deck": {...}})`).

Crystal counts: cards.md gives one crystal on each of the ten identified crystal cards, but it also
says the number of crystals per card is not confirmed by two sources.
"""
from __future__ import annotations

from typing import Any

from .base import BASE_ACTIONS, BASE_PATHS

EXPANSION_PATHS: list[dict[str, Any]] = [
    # rulebook ("The Bridge", 2 in the game) and cards.md: two separate straights, N-S and E-W
    {"name": "bridge", "label": "Bridge", "count": 2, "segments": [{"edges": "NS"}, {"edges": "EW"}]},
    # rulebook ("The Double Curve", 2) and cards.md picture: two separate curves, N-W and S-E
    {"name": "double_curve", "label": "Double curve", "count": 2, "segments": [{"edges": "NW"}, {"edges": "SE"}]},
    # rulebook ("Path with a Ladder", 4) and cards.md: one each of N only, E only, curve N-E, curve N-W
    {"name": "ladder_n", "label": "Ladder", "count": 1, "segments": [{"edges": "N", "ladder": True}]},
    {"name": "ladder_e", "label": "Ladder", "count": 1, "segments": [{"edges": "E", "ladder": True}]},
    {"name": "ladder_ne", "label": "Ladder", "count": 1, "segments": [{"edges": "NE", "ladder": True}]},
    {"name": "ladder_nw", "label": "Ladder", "count": 1, "segments": [{"edges": "NW", "ladder": True}]},
    # rulebook ("Path with a Door", 3 of each colour) and cards.md: blue doors on E-W, N-S and curve N-W
    {"name": "door_blue_ew", "label": "Blue door", "count": 1, "segments": [{"edges": "EW", "door": "blue"}]},
    {"name": "door_blue_ns", "label": "Blue door", "count": 1, "segments": [{"edges": "NS", "door": "blue"}]},
    {"name": "door_blue_nw", "label": "Blue door", "count": 1, "segments": [{"edges": "NW", "door": "blue"}]},
    # cards.md: green doors on E-W with a dead-end N stub, on N-S and on curve N-E
    {"name": "door_green_ew", "label": "Green door", "count": 1,
     "segments": [{"edges": "EW", "door": "green"}, {"edges": "N", "dead": True}]},
    {"name": "door_green_ns", "label": "Green door", "count": 1, "segments": [{"edges": "NS", "door": "green"}]},
    {"name": "door_green_ne", "label": "Green door", "count": 1, "segments": [{"edges": "NE", "door": "green"}]},
    # cards.md, crystal cards (10, one crystal each; crystal count unconfirmed): single dead end E
    {"name": "crystal_dead_e", "label": "Dead end with a crystal", "count": 1,
     "segments": [{"edges": "E", "dead": True}], "crystals": 1},
    # cards.md: single dead end N
    {"name": "crystal_dead_n", "label": "Dead end with a crystal", "count": 1,
     "segments": [{"edges": "N", "dead": True}], "crystals": 1},
    # cards.md: connected crossing
    {"name": "crystal_cross", "label": "Crossing with a crystal", "count": 1,
     "segments": [{"edges": "NESW"}], "crystals": 1},
    # cards.md: connected N-E-S, 3 of them
    {"name": "crystal_tee_nse", "label": "T-junction with a crystal", "count": 3,
     "segments": [{"edges": "NES"}], "crystals": 1},
    # cards.md: connected E-S-W
    {"name": "crystal_tee_ews", "label": "T-junction with a crystal", "count": 1,
     "segments": [{"edges": "ESW"}], "crystals": 1},
    # cards.md: connected E-S-W with a dead-end N stub
    {"name": "crystal_tee_ews_stub_n", "label": "T-junction with a crystal", "count": 1,
     "segments": [{"edges": "ESW"}, {"edges": "N", "dead": True}], "crystals": 1},
    # cards.md: connected N-E-S with a dead-end W stub
    {"name": "crystal_tee_nse_stub_w", "label": "T-junction with a crystal", "count": 1,
     "segments": [{"edges": "NES"}, {"edges": "W", "dead": True}], "crystals": 1},
    # cards.md: connected N-S with a dead-end E stub
    {"name": "crystal_straight_ns_stub_e", "label": "Straight with a crystal", "count": 1,
     "segments": [{"edges": "NS"}, {"edges": "E", "dead": True}], "crystals": 1},
    # STAND-IN (cards.md: 6 path cards unidentified, "crystal or mixed cards"): the base shapes that have
    # no crystal version yet, one crystal each, 4 connected and 2 dead ends like the base mix
    {"name": "crystal_straight_ns", "label": "Straight with a crystal", "count": 1,
     "segments": [{"edges": "NS"}], "crystals": 1},
    # STAND-IN
    {"name": "crystal_straight_ew", "label": "Straight with a crystal", "count": 1,
     "segments": [{"edges": "EW"}], "crystals": 1},
    # STAND-IN
    {"name": "crystal_curve_ne", "label": "Curve with a crystal", "count": 1,
     "segments": [{"edges": "NE"}], "crystals": 1},
    # STAND-IN
    {"name": "crystal_curve_nw", "label": "Curve with a crystal", "count": 1,
     "segments": [{"edges": "NW"}], "crystals": 1},
    # STAND-IN
    {"name": "crystal_dead_straight_ns", "label": "Dead end with a crystal", "count": 1,
     "segments": [{"edges": "N", "dead": True}, {"edges": "S", "dead": True}], "crystals": 1},
    # STAND-IN
    {"name": "crystal_dead_curve_nw", "label": "Dead end with a crystal", "count": 1,
     "segments": [{"edges": "N", "dead": True}, {"edges": "W", "dead": True}], "crystals": 1},
]

EXPANSION_ACTIONS: list[dict[str, Any]] = [
    # rulebook ("Theft", 4 in the game) and cards.md
    {"name": "theft", "label": "Theft", "count": 4, "effect": "theft"},
    # rulebook ("Hands Off", 3) and cards.md: 3 confirmed; the 4th is the STAND-IN for the unidentified
    # 21st action card (so each Theft has an answer, as each Trapped! has more than one)
    {"name": "hands_off", "label": "Hands Off", "count": 4, "effect": "hands_off"},
    # rulebook ("Swap Your Hand", 2) and cards.md
    {"name": "swap_hand", "label": "Swap Your Hand", "count": 2, "effect": "swap_hand"},
    # rulebook ("Inspection", 2) and cards.md
    {"name": "inspection", "label": "Inspection", "count": 2, "effect": "inspection"},
    # rulebook ("Swap Your Hats", 2) and cards.md
    {"name": "swap_hats", "label": "Swap Your Hats", "count": 2, "effect": "swap_hats"},
    # rulebook ("Trapped!", 3) and cards.md
    {"name": "trapped", "label": "Trapped!", "count": 3, "effect": "trapped"},
    # rulebook ("Free at last!", 4) and cards.md
    {"name": "free", "label": "Free at last!", "count": 4, "effect": "free"},
]

SABOTEUR2_DECK: dict[str, list[dict[str, Any]]] = {
    "paths": BASE_PATHS + EXPANSION_PATHS,
    "actions": BASE_ACTIONS + EXPANSION_ACTIONS,
}
