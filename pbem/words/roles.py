"""Roles in words: each dwarf card's name, how it wins, and the sides that win a round."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.words.table import N_, Words

ROLE_NAMES = Words({
    "digger": N_("gold-digger"), "saboteur": N_("saboteur"), "blue_digger": N_("blue gold-digger"),
    "green_digger": N_("green gold-digger"), "boss": N_("Boss"), "profiteer": N_("Profiteer"),
    "geologist": N_("Geologist"),
})
# A role as what a player was when a round ends: "a saboteur", "the Boss" (one card each of the Boss and the Profiteer).
ROLE_CARDS = Words({
    "digger": N_("a gold-digger"), "saboteur": N_("a saboteur"), "blue_digger": N_("a blue gold-digger"),
    "green_digger": N_("a green gold-digger"), "boss": N_("the Boss"), "profiteer": N_("the Profiteer"),
    "geologist": N_("a Geologist"),
})
# A role as an Inspection shows it: "a saboteur", "a Boss".
A_ROLE = Words({
    "digger": N_("a gold-digger"), "saboteur": N_("a saboteur"), "blue_digger": N_("a blue gold-digger"),
    "green_digger": N_("a green gold-digger"), "boss": N_("a Boss"), "profiteer": N_("a Profiteer"),
    "geologist": N_("a Geologist"),
})
# How each role wins, one line each (the rules decide it; this only says it).
ROLE_GOALS = Words({
    "digger": N_("Build a tunnel from the start to the gold. Someone at the table may be working against you."),
    "saboteur": N_("Keep the tunnel from reaching the gold, without being found out."),
    "blue_digger": N_("Reach the gold on a way the blue team may use: a green door in the tunnel bars your team."),
    "green_digger": N_("Reach the gold on a way the green team may use: a blue door in the tunnel bars your team."),
    "boss": N_("Win with whichever team reaches the gold, for one gold piece less than the share."),
    "profiteer": N_("Win with every side, gold-diggers or saboteurs, for two gold pieces less."),
    "geologist": N_("Never mind the gold: you and the other Geologist share the crystals lying on the table."),
    # Saboteur 2's saboteur, and a Geologist under option `geologists_share_gold`
    "dwarf_saboteur": N_("Keep the gold from being reached; the gold-diggers and the Boss lose then."),
    "sharing_geologist": N_(
        "You and the other Geologist share the crystals lying on the table; and when the Boss, the Profiteer or a "
        "Geologist reaches the gold, you also win a share with both teams (this game's rule)."),
})
# The winning side of a base-game round (a round result's `winner`).
WINNING_SIDES = Words({"diggers": N_("the gold-diggers"), "saboteurs": N_("the saboteurs"), "nobody": N_("nobody")})


def role_name(role: str) -> str:
    """ "gold-digger", "Boss": a dwarf card's name as a sentence uses it."""
    return ROLE_NAMES[role] if role in ROLE_NAMES else role.replace("_", " ")


def role_card(role: str) -> str:
    """ "a gold-digger", "the Boss": the card a player held, as a round's end says who was what."""
    return ROLE_CARDS[role] if role in ROLE_CARDS else a_role(role)


def a_role(role: str) -> str:
    """ "a gold-digger", "a Boss": the card an Inspection shows."""
    if role in A_ROLE:
        return A_ROLE[role]
    name = role_name(role)
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name


def role_title(role: str) -> str:
    """A role's name at the start of a line or as a label: "Gold-digger", "Saboteur", "Boss"."""
    name = role_name(role)
    return name[:1].upper() + name[1:]


def role_goal(role: str, variant: str, options: Mapping[str, Any] | None = None) -> str:
    """One line on how a role wins, under the game's variant and options ('' for a role without one)."""
    if variant == "saboteur2" and role == "saboteur":
        return ROLE_GOALS["dwarf_saboteur"]
    if role == "geologist" and (options or {}).get("geologists_share_gold"):
        return ROLE_GOALS["sharing_geologist"]
    return ROLE_GOALS[role] if role in ROLE_GOALS else ""
