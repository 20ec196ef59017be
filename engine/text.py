"""The game's words, in one place: role, goal, side and payout names, and one line of English per event.

Pages and emails take their words from here. An event line uses only the event and the seat names, so a line
never says more than its event.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from .geometry import FROM_LETTER, SIDE_NAME
from .treasure import LESS_FOR_ROLE, SHARE_BY_WINNERS, SHARE_FOR_MANY
from .variants import VARIANTS

ROLE_NAMES = {"digger": "gold-digger", "saboteur": "saboteur", "blue_digger": "blue gold-digger",
              "green_digger": "green gold-digger", "boss": "Boss", "profiteer": "Profiteer", "geologist": "Geologist"}
# How each role wins, one line each (the rules decide it; this only says it).
ROLE_GOALS = {
    "digger": "Build a tunnel from the start to the gold. Someone at the table may be working against you.",
    "saboteur": "Keep the tunnel from reaching the gold, without being found out.",
    "blue_digger": "Reach the gold on a way the blue team may use: a green door in the tunnel bars your team.",
    "green_digger": "Reach the gold on a way the green team may use: a blue door in the tunnel bars your team.",
    "boss": "Win with whichever team reaches the gold, for one gold piece less than the share.",
    "profiteer": "Win with every side, gold-diggers or saboteurs, for two gold pieces less.",
    "geologist": "Never mind the gold: you and the other Geologist share the crystals lying on the table.",
}
DWARF_SABOTEUR_GOAL = "Keep the gold from being reached; the gold-diggers and the Boss lose then."
# With option `geologists_share_gold` a Geologist also wins alongside both teams in some rounds.
GEOLOGIST_SHARING_GOAL = (
    "You and the other Geologist share the crystals lying on the table; and when the Boss, the Profiteer or a "
    "Geologist reaches the gold, you also win a share with both teams (this game's rule)."
)
# The winning side of a base-game round (a round result's `winner`).
WINNING_SIDES = {"diggers": "the gold-diggers", "saboteurs": "the saboteurs", "nobody": "nobody"}
# The three goals, top to bottom (goal rows y = 2, 0, -2).
GOAL_PLACES = ("top", "middle", "bottom")
PAYOUT_REASONS = {
    "blue": "for the blue team", "green": "for the green team", "boss": "as the Boss, one less than the share",
    "profiteer": "as the Profiteer, two less than the share", "saboteur": "as a saboteur",
    "crystals": "for the crystals in the tunnels", "trapped": "nothing, being trapped",
    "geologist": "as a Geologist, sharing the win of the non-saboteurs",
}
# Why a Theft took nothing (a theft's `outcome` other than "stole").
THEFT_OUTCOMES = {"declined": "chose not to steal", "trapped": "could not steal, being trapped",
                  "no_gold_to_steal": "found nobody with gold to steal"}
COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


@cache  # the variants are fixed data: one table for the life of the process
def _labels() -> dict[str, str]:
    labels: dict[str, str] = {}
    for variant in VARIANTS.values():
        for card in variant.cards:
            labels.setdefault(card.name, card.label)
    return labels


def card_label(name: str) -> str:
    label = _labels().get(name, name.replace("_", " "))
    return label[0].lower() + label[1:] if label not in ("Start",) else label


def goal_place(event: Mapping[str, Any]) -> str:
    y = event.get("y", 0)
    return dict(zip((2, 0, -2), GOAL_PLACES, strict=False)).get(y, f"({event.get('x')}, {y})")


def side_name(letter: str) -> str:
    """A card edge by its letter (N, E, S, W): top, right, bottom, left."""
    return SIDE_NAME[FROM_LETTER[letter]]


def role_name(role: str) -> str:
    return ROLE_NAMES.get(role, role.replace("_", " "))


def role_title(role: str) -> str:
    """A role's name at the start of a line or as a label: "Gold-digger", "Saboteur", "Boss"."""
    name = role_name(role)
    return name[:1].upper() + name[1:]


def dwarf_name(role: str) -> str:
    """A Saboteur 2 dwarf card: capitalised like the cards (Boss, Profiteer, Geologist, Saboteur)."""
    return "Saboteur" if role == "saboteur" else role_name(role)


def role_goal(role: str, variant: str, options: Mapping[str, Any] | None = None) -> str:
    """One line on how a role wins, under the game's variant and options ('' for a role without one)."""
    if variant == "saboteur2" and role == "saboteur":
        return DWARF_SABOTEUR_GOAL
    if role == "geologist" and (options or {}).get("geologists_share_gold"):
        return GEOLOGIST_SHARING_GOAL
    return ROLE_GOALS.get(role, "")


def share_table() -> str:
    """Saboteur 2's gold pieces per winner, in words, from the table the payout uses."""
    most = max(SHARE_BY_WINNERS)
    parts = [f"{share} for a single winner" if winners == 1 else f"{share} each for {COUNT_WORDS[winners]}"
             for winners, share in sorted(SHARE_BY_WINNERS.items())]
    parts.append(f"{SHARE_FOR_MANY} each for {COUNT_WORDS[most + 1]} or more")
    return ", ".join(parts)


def less_for_role(role: str) -> str:
    """How much less than the share a role is paid, in words: "one less" (the Boss), "two less" (the Profiteer)."""
    return f"{COUNT_WORDS[LESS_FOR_ROLE[role]]} less"


def _cards(names: list[str]) -> str:
    return ", ".join(card_label(n) for n in names) or "nothing"


def describe_event(event: dict[str, Any], names: list[str]) -> str:
    def who(key: str = "seat") -> str:
        seat = event.get(key)
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "someone"

    describe: dict[str, Callable[[], str]] = {
        "round_started": lambda: _round_started(event, names),
        "role_dealt": lambda: f"Your role this round: {role_name(event['role'])}.",
        "hand_dealt": lambda: f"Your hand: {_cards(event.get('names', []))}.",
        "path_placed": lambda: (f"{who()} built a {card_label(event['name'])} at ({event['x']}, {event['y']})"
                                + (", turned around." if event.get("rotated") else ".")),
        "goal_revealed": lambda: (f"The {goal_place(event)} goal is turned over: "
                                  + ("GOLD!" if event["gold"] else "only stone.")),
        "tool_broken": lambda: f"{who()} broke {who('target')}'s {event['tool']}.",
        "tool_repaired": lambda: (f"{who()} repaired "
                                  + ("their own" if event["seat"] == event["target"] else f"{who('target')}'s")
                                  + f" {event['tool']}."),
        "rockfall": lambda: (f"{who()} caused a rockfall and removed the {card_label(event['name'])} "
                             f"at ({event['x']}, {event['y']})."),
        "map_used": lambda: f"{who()} looked at the {goal_place(event)} goal with a map.",
        "map_peek": lambda: (f"You saw the {goal_place(event)} goal: "
                             + ("it holds the gold." if event["gold"] else "only stone.")),
        "passed": lambda: f"{who()} passed, discarding {event['count']} card{'s' if event['count'] != 1 else ''}.",
        "discarded": lambda: f"You discarded {_cards(event.get('names', []))}.",
        "drew": lambda: f"{who()} drew {event['count']} card{'s' if event['count'] != 1 else ''}.",
        "drew_cards": lambda: f"You drew {_cards(event.get('names', []))}.",
        "draw_pile_empty": lambda: "The draw pile is empty.",
        "out_of_cards": lambda: f"{who()} has no cards left this round.",
        "no_playable_cards": lambda: "The draw pile is empty and nobody holds a card they could play.",
        "round_ended": lambda: _round_ended(event, names),
        "gold_drawn": lambda: f"{event['count']} gold cards are drawn; {who('first')} chooses first.",
        "gold_offered": lambda: f"Choose a gold card: {', '.join(str(v) for v in event['values'])}.",
        "gold_picked": lambda: f"{who()} kept a gold card.",
        "gold_kept": lambda: f"You received gold worth {' + '.join(str(v) for v in event['values']) or '0'}.",
        "saboteur_paid": lambda: (f"{who()} takes {event['nuggets']} nugget{'s' if event['nuggets'] != 1 else ''}"
                                  f" in {event['card_count']} card{'s' if event['card_count'] != 1 else ''}"
                                  + ("." if event["nuggets"] == event["due"]
                                     else f" (the gold left could not make the {event['due']} due).")),
        "game_over": lambda: _game_over(event, names),
        "cards_set_aside": lambda: f"The top {event['count']} cards are set aside unseen for this round.",
        "theft_played": lambda: f"{who()} put a Theft in front of themselves.",
        "theft_removed": lambda: f"{who()} played Hands Off and removed {who('target')}'s Theft.",
        "trapped": lambda: f"{who()} trapped {who('target')}.",
        "freed": lambda: f"{who()} set {_them(event, names)} free.",
        "hands_swapped": lambda: f"{who()} swapped hands with {who('target')}, who draws a card.",
        "hand_received": lambda: f"Your hand is now: {_cards(event.get('names', []))}.",
        "inspected": lambda: f"{who()} looked at {who('target')}'s dwarf card.",
        "role_seen": lambda: f"{who('target')} is a {role_name(event['role'])}.",
        "hats_swapped": lambda: f"{who()} made {_them(event, names)} swap their dwarf card for a leftover one.",
        "role_changed": lambda: f"Your new role this round: {role_name(event['role'])}.",
        "cleared": lambda: (f"{who()} discarded {event['count']} cards to remove the "
                            f"{card_label(event['name'])} lying in front of them."),
        "gold_paid": lambda: _gold_paid(event, names),
        "gold_stolen": lambda: f"{who()} stole a gold piece from {who('target')}.",
        "theft_unused": lambda: f"{who()} {THEFT_OUTCOMES.get(event['reason'], 'did not steal')}.",
    }
    render = describe.get(event.get("type", ""))
    if render is None:
        return str(event.get("type", "event")).replace("_", " ").capitalize() + "."
    line = render()
    # a card name may end in its own exclamation mark ("Free at last!"): no full stop after it
    return line[:-1] if line.endswith("!.") else line


def _them(event: dict[str, Any], names: list[str]) -> str:
    """The target of an action, or "themselves" when a player played it on their own seat."""
    return "themselves" if event["seat"] == event["target"] else names[event["target"]]


def _gold_paid(event: dict[str, Any], names: list[str]) -> str:
    amount = event["amount"]
    pieces = f"{amount} gold piece{'s' if amount != 1 else ''}"
    reason = event["reason"]
    if reason == "trapped":
        return f"{names[event['seat']]} gets nothing, being trapped."
    if reason == "crystals":
        return f"{names[event['seat']]} gets {pieces} for the {event['base']} crystals in the tunnels."
    return f"{names[event['seat']]} gets {pieces} {PAYOUT_REASONS.get(reason, '')}".rstrip() + "."


def _round_started(event: dict[str, Any], names: list[str]) -> str:
    line = f"Round {event['round']} begins; {names[event['first']]} plays first"
    after = event.get("after")
    if after is None:
        return line + "."
    why = "built the last path card" if event.get("because") == "last_path" else "played the last card"
    return f"{line}, sitting left of {names[after]}, who {why} of the round before."


NOT_REACHED = {
    "no_playable_cards": "the draw pile ran out and nobody could play a card, so the gold was not reached",
    "hands_empty": "every hand is played out, so the gold was not reached",
}


def _not_reached(event: dict[str, Any]) -> str:
    return NOT_REACHED.get(event.get("reason", ""), "the gold was not reached")


def _round_ended(event: dict[str, Any], names: list[str]) -> str:
    if "teams" in event:
        return _round_ended_with_teams(event, names)
    winner = event["winner"]
    if winner == "diggers":
        reached = names[event["reached_by"]]
        head = f"Round {event['round']} is over: {reached} reached the gold and the gold-diggers win."
    elif winner == "saboteurs":
        head = f"Round {event['round']} is over: {_not_reached(event)} and the saboteurs win."
    else:
        head = f"Round {event['round']} is over: {_not_reached(event)} and there was no saboteur, so nobody wins."
    roles = ", ".join(f"{names[s]} {role_name(r)}" for s, r in enumerate(event["roles"]))
    return f"{head} Roles: {roles}."


def _round_ended_with_teams(event: dict[str, Any], names: list[str]) -> str:
    teams = event["teams"]
    start = f"Round {event['round']} is over: "
    if teams:
        reached = names[event["reached_by"]]
        who_wins = " and ".join(teams) + (" team" if len(teams) == 1 else " teams")
        blocked = [t for t in ("blue", "green") if not event["claims"][t]]
        door = f" (a door bars the {blocked[0]} team)" if blocked else ""
        head = f"{start}{reached} reached the gold and the {who_wins} win{'s' if len(teams) == 1 else ''}{door}."
    elif event["reached_by"] is not None:
        head = (
            f"{start}{names[event['reached_by']]} reached the gold, but doors bar both teams, "
            f"so the saboteurs' side wins."
        )
    elif event["winner"] == "saboteurs":
        head = f"{start}{_not_reached(event)} and the saboteurs' side wins."
    else:
        head = f"{start}{_not_reached(event)} and nobody wins."
    roles = ", ".join(f"{names[s]} {role_name(r)}" for s, r in enumerate(event["roles"]))
    return f"{head} Roles: {roles}."


def _game_over(event: dict[str, Any], names: list[str]) -> str:
    scores = ", ".join(f"{names[s]} {t}" for s, t in enumerate(event["scores"]))
    winners = " and ".join(names[s] for s in event["winners"])
    return f"The game is over. Gold: {scores}. Winner: {winners}."
