"""Everything at once, for when nothing is secret any more: a finished game, or a round that is over.

`open_view` is the one full-information view: the public view with every hand, role and goal added.
The application tells any event in the third person then (pbem/words/events.py, `describe_openly`), so a log of
private events reads right for everyone. `RECAP_KINDS` names the events a round's
declassified recap retells: the private ones that show who bluffed, and the public ones between players.

Only for a game that is over (or a round that has ended): the server decides when, these functions
never check, exactly like `view` never checks who is asking.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from .rounds import gold_totals
from .setup import option
from .shapes import Event, View
from .state import Game
from .variants import variant_of
from .views import card_info, view

# Private events told to everyone in a recap, and the public ones in which a player acts on another.
RECAP_KINDS = frozenset({
    "map_peek", "discarded", "tool_broken", "tool_repaired", "role_seen", "hats_swapped", "role_changed",
    "hands_swapped", "hand_received", "trapped", "freed", "theft_removed",
})
# Private events that tell which cards a seat held or what a map showed: the printed rules never reveal them.
# With option `recap_private_moves` off they stay private for good (recaps, replays, the pages of a game over).
PRIVATE_MOVE_KINDS = frozenset({"map_peek", "discarded", "hand_received", "hand_dealt", "drew_cards"})
# Events that name a seat's dwarf card, and which seat's.
ROLE_EVENTS = {"role_dealt": "seat", "role_seen": "target", "role_changed": "seat"}


def private_moves_open(options: dict[str, Any]) -> bool:
    """Whether a round that is over tells everyone its map results and face-down cards (option
    `recap_private_moves`, on unless the host turned it off)."""
    return bool(option(options, "recap_private_moves"))


def recap_kinds(options: dict[str, Any]) -> frozenset[str]:
    """The events a round's recap retells in a game with these options."""
    return RECAP_KINDS if private_moves_open(options) else RECAP_KINDS - PRIVATE_MOVE_KINDS


def tellable(event: Mapping[str, Any], options: dict[str, Any]) -> bool:
    """Whether an event may be told to everyone once its round is over (or the game is over)."""
    return event.get("audience") == "public" or private_moves_open(options) or (
        event.get("type") not in PRIVATE_MOVE_KINDS)


def roles_given_up(round_events: Sequence[Mapping[str, Any]]) -> list[frozenset[int]]:
    """For each event (of one round or several, in order): the seats whose dwarf card at that moment will later in that
    round go face down to Swap Your Hats. The rulebook has that card discarded without showing it to anyone, so nobody
    but its holder may ever learn it: not when the round ends, and not when the game is over."""
    later: set[int] = set()
    secret: list[frozenset[int]] = []
    for event in reversed(round_events):
        if event.get("type") == "round_ended":
            later = set()  # what follows belongs to the next round
        secret.append(frozenset(later))
        if event.get("type") == "role_changed":
            later.add(event["seat"])
    secret.reverse()
    return secret


def open_view(g: Game, *, secret_roles: frozenset[int] = frozenset()) -> View:
    """The public view plus what every seat holds: hands, roles, gold; goals shown as if looked at.

    `secret_roles`: seats whose dwarf card now is one they will give up to Swap Your Hats (`roles_given_up`);
    their `role` is None. With option `recap_private_moves` off, hands and goals nobody turned over stay hidden
    (they would tell what went face down and what the maps showed)."""
    v = variant_of(g)
    out = view(g, None)
    private = private_moves_open(g.options)
    if private:
        for goal in out["goals"]:
            cell = (goal["x"], goal["y"])
            if not goal["revealed"]:
                goal["gold"] = v.cards[g.hidden_goals[cell]].gold
                goal["seen"] = True
    totals = gold_totals(g)
    for entry in out["seats"]:
        s = entry["seat"]
        entry["role"] = None if s in secret_roles else g.roles[s]
        entry["hand"] = [card_info(v, c) for c in g.hands[s]] if private else None
        entry["gold"] = sorted(g.gold[s], reverse=True)
        entry["gold_total"] = totals[s]
    # The leftovers would tell a given-up card by elimination: hidden once a hat is swapped, and before it.
    out["spare_roles"] = [] if g.discarded_roles or secret_roles else list(g.spare_roles)
    out["hats_swapped"] = len(g.discarded_roles)
    out["open"] = True
    return out


def open_event(
    event: Event, options: dict[str, Any], secret_roles: frozenset[int] = frozenset()
) -> Event | None:
    """An event as everyone may read it once the game is over (the archive): None when it is not `tellable`;
    a dwarf card named for a seat in `secret_roles` (see `roles_given_up`) is left out (`role` None)."""
    if not tellable(event, options):
        return None
    kind = event.get("type", "")
    if ROLE_EVENTS.get(kind) and event.get(ROLE_EVENTS[kind]) in secret_roles:
        return cast(Event, {**event, "role": None})  # the one event whose role is None
    return event.copy()


# Moves whose cards go face down: what they were is a private move (`PRIVATE_MOVE_KINDS`' "discarded").
FACE_DOWN_MOVES = frozenset({"pass", "clear"})


def open_move(move: dict[str, Any] | None, options: dict[str, Any]) -> dict[str, Any] | None:
    """A move as everyone may read it once the game is over: with option `recap_private_moves` off, the cards
    of a discard stay face down (only how many)."""
    if move is None or private_moves_open(options) or move.get("type") not in FACE_DOWN_MOVES:
        return move
    cards = move.get("cards")
    return {**move, "cards": None, "count": len(cards) if isinstance(cards, list) else None}
