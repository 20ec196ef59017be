"""Saboteur 2's action cards that act on players rather than on tunnels.

Theft, Hands Off, Swap Your Hand, Inspection, Swap Your Hats, Trapped! and Free at last!. Each
effect has one function saying why a target is refused (None when it is allowed) and one that
carries the card out. `legal_moves` lists exactly the targets that are not refused and
`apply_move` refuses with the same refusal, so listing and accepting cannot drift apart.
"""
from __future__ import annotations

from collections.abc import Callable

from .errors import IllegalMove
from .events import private, public
from .piles import card_in_front, discard_from_front, draw_cards
from .shapes import Event
from .state import Game
from .variants import variant_of

EFFECTS = ("theft", "hands_off", "swap_hand", "inspection", "swap_hats", "trapped", "free")
# Theft always goes in front of the player who plays it, so its move names no target.
UNTARGETED = ("theft",)

Refusal = Callable[[Game, int, int], "IllegalMove | None"]


def _theft(g: Game, seat: int, target: int) -> IllegalMove | None:
    if card_in_front(g, seat, "theft") is not None:
        return IllegalMove("theft_in_front")
    return None


def _hands_off(g: Game, seat: int, target: int) -> IllegalMove | None:
    if card_in_front(g, target, "theft") is None:
        return IllegalMove("no_theft_in_front", seat=target, player=g.players[target])
    return None


def _swap_hand(g: Game, seat: int, target: int) -> IllegalMove | None:
    return IllegalMove("swap_hand_with_another") if target == seat else None


def _inspection(g: Game, seat: int, target: int) -> IllegalMove | None:
    return IllegalMove("inspect_another") if target == seat else None


def _swap_hats(g: Game, seat: int, target: int) -> IllegalMove | None:
    return IllegalMove("no_dwarf_cards_left") if not g.spare_roles else None


def _trapped(g: Game, seat: int, target: int) -> IllegalMove | None:
    if target == seat:
        return IllegalMove("trap_another")
    if card_in_front(g, target, "trapped") is not None:
        return IllegalMove("already_trapped", seat=target, player=g.players[target])
    return None


def _free(g: Game, seat: int, target: int) -> IllegalMove | None:
    if card_in_front(g, target, "trapped") is None:
        return IllegalMove("not_trapped", seat=target, player=g.players[target])
    return None


REFUSALS: dict[str, Refusal] = {
    "theft": _theft, "hands_off": _hands_off, "swap_hand": _swap_hand, "inspection": _inspection,
    "swap_hats": _swap_hats, "trapped": _trapped, "free": _free,
}


def refusal(g: Game, seat: int, effect: str, target: int) -> IllegalMove | None:
    """Why this card may not be played on `target` now; None when it may."""
    return REFUSALS[effect](g, seat, target)


def targets(g: Game, seat: int, effect: str) -> list[int]:
    """The seats this card may be played on now (for a Theft: the player's own seat, or nobody)."""
    candidates = [seat] if effect in UNTARGETED else range(g.seats)
    return [t for t in candidates if refusal(g, seat, effect, t) is None]


def resolve(g: Game, seat: int, card_id: int, effect: str, target: int, events: list[Event]) -> int:
    """Carry out a checked card; returns how many cards the player then draws."""
    g.hands[seat].remove(card_id)
    if effect == "theft":
        g.front[seat].append(card_id)
        g.theft_order.append(seat)
        events.append(public("theft_played", seat=seat, card=card_id))
        return 1
    if effect == "trapped":
        g.front[target].append(card_id)
        events.append(public("trapped", seat=seat, target=target, card=card_id))
        return 1
    g.discard.append(card_id)
    if effect in ("hands_off", "free"):
        removed = card_in_front(g, target, "theft" if effect == "hands_off" else "trapped")
        assert removed is not None
        discard_from_front(g, target, removed)
        events.append(public("theft_removed" if effect == "hands_off" else "freed", seat=seat, target=target,
                             card=card_id))
        return 1
    if effect == "inspection":
        role = g.roles[target]
        g.inspections[seat].append((target, role))
        events.append(public("inspected", seat=seat, target=target, card=card_id))
        events.append(private(seat, "role_seen", seat=seat, target=target, role=role))
        return 1
    if effect == "swap_hats":
        g.discarded_roles.append(g.roles[target])
        g.roles[target] = g.spare_roles.pop()
        events.append(public("hats_swapped", seat=seat, target=target, card=card_id))
        events.append(private(target, "role_changed", seat=target, role=g.roles[target]))
        return 1
    # swap_hand: the hands change owners; the other player draws one, the player who swapped does not
    g.hands[seat], g.hands[target] = g.hands[target], g.hands[seat]
    names = variant_of(g).cards
    events.append(public("hands_swapped", seat=seat, target=target, card=card_id))
    for holder in (seat, target):
        events.append(private(holder, "hand_received", seat=holder, cards=list(g.hands[holder]),
                              names=[names[c].name for c in g.hands[holder]]))
    draw_cards(g, target, 1, events)
    return 0
