"""Everything at once, for when nothing is secret any more: a finished game, or a round that is over.

`open_view` is the one full-information view: the public view with every hand, role and goal added.
`describe_openly` tells any event in the third person, so a log of private events reads right for
everyone ("Ann discarded a map", not "You discarded a map"). `RECAP_KINDS` names the events a round's
declassified recap retells: the private ones that show who bluffed, and the public ones between players.

Only for a game that is over (or a round that has ended): the server decides when, these functions
never check, exactly like `view` never checks who is asking.
"""
from __future__ import annotations

from typing import Any, Callable

from .rounds import gold_totals
from .state import Game
from .text import card_label, describe_event, goal_place, role_name
from .variants import variant_of
from .views import card_info, view

# Private events told to everyone in a recap, and the public ones in which a player acts on another.
RECAP_KINDS = frozenset({
    "map_peek", "discarded", "tool_broken", "tool_repaired", "role_seen", "hats_swapped", "role_changed",
    "hands_swapped", "hand_received", "trapped", "freed", "theft_removed",
})


def open_view(g: Game) -> dict[str, Any]:
    """The public view plus what every seat holds: hands, roles, gold; goals shown as if looked at."""
    v = variant_of(g)
    out = view(g, None)
    for goal in out["goals"]:
        cell = (goal["x"], goal["y"])
        if not goal["revealed"]:
            goal["gold"] = v.cards[g.hidden_goals[cell]].gold
            goal["seen"] = True
    totals = gold_totals(g)
    for entry in out["seats"]:
        s = entry["seat"]
        entry["role"] = g.roles[s]
        entry["hand"] = [card_info(v, c) for c in g.hands[s]]
        entry["gold"] = sorted(g.gold[s], reverse=True)
        entry["gold_total"] = totals[s]
    out["spare_roles"] = list(g.spare_roles)
    out["discarded_roles"] = list(g.discarded_roles)
    out["open"] = True
    return out


def describe_openly(event: dict[str, Any], names: list[str]) -> str:
    """One line for anyone: private events in the third person, the rest as `describe_event` says them."""
    def who(key: str = "seat") -> str:
        seat = event.get(key)
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "someone"

    def cards() -> str:
        return ", ".join(card_label(n) for n in event.get("names", [])) or "nothing"

    private: dict[str, Callable[[], str]] = {
        "role_dealt": lambda: f"{who()} is dealt the role {role_name(event['role'])}.",
        "hand_dealt": lambda: f"{who()} is dealt {cards()}.",
        "map_peek": lambda: (f"{who()} looked at the {goal_place(event)} goal with a map: "
                             + ("the gold." if event["gold"] else "only stone.")),
        "discarded": lambda: f"{who()} discarded {cards()} face down.",
        "drew_cards": lambda: f"{who()} drew {cards()}.",
        "gold_offered": lambda: f"{who()} is offered gold cards worth {', '.join(str(v) for v in event['values'])}.",
        "gold_kept": lambda: f"{who()} received gold worth {' + '.join(str(v) for v in event['values']) or '0'}.",
        "hand_received": lambda: f"{who()} now holds {cards()}.",
        "role_seen": lambda: f"{who()} inspected {who('target')}'s dwarf card: {role_name(event['role'])}.",
        "role_changed": lambda: f"{who()} took a leftover dwarf card: {role_name(event['role'])}.",
    }
    render = private.get(event.get("type", ""))
    return render() if render is not None else describe_event(event, names)
