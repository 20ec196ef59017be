"""Moving cards between the places they can be: hands, the draw pile, the discard pile, and the
cards lying in front of a seat (broken tools, Theft, Trapped!).

Every card is always in exactly one place, so each helper moves a card rather than copying it.
"""
from __future__ import annotations

from .events import private, public
from .shapes import Event
from .state import Game
from .variants import variant_of


def draw_cards(g: Game, seat: int, count: int, events: list[Event]) -> None:
    """The seat draws up to `count` cards from the top of the pile, while it lasts."""
    drawn = [g.draw_pile.pop() for _ in range(min(count, len(g.draw_pile)))]
    if not drawn:
        return
    g.hands[seat] += drawn
    v = variant_of(g)
    events.append(public("drew", seat=seat, count=len(drawn), left=len(g.draw_pile)))
    events.append(private(seat, "drew_cards", seat=seat, cards=drawn, names=[v.cards[c].name for c in drawn]))
    if not g.draw_pile:
        events.append(public("draw_pile_empty"))


def card_in_front(g: Game, seat: int, effect: str) -> int | None:
    """The card with this effect lying in front of the seat (there is at most one of each)."""
    cards = variant_of(g).cards
    for card_id in g.front[seat]:
        if cards[card_id].effect == effect:
            return card_id
    return None


def is_trapped(g: Game, seat: int) -> bool:
    return card_in_front(g, seat, "trapped") is not None


def discard_from_front(g: Game, seat: int, card_id: int) -> None:
    """A card in front of a seat goes to the discard pile; a Theft leaves the stealing order with it."""
    g.front[seat].remove(card_id)
    g.discard.append(card_id)
    if variant_of(g).cards[card_id].effect == "theft" and seat in g.theft_order:
        g.theft_order.remove(seat)
