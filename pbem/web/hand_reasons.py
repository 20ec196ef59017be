"""Why a card in the hand has no move but a discard, in the player's words, for the card itself.

Read only from the seat's own view (its hand, the board, and what lies in front of each player, all of it
public or the seat's own), so the reason never tells more than the table already shows. It is asked only
about a card the legal moves leave with nothing but a pass: the first rule that bars it is the reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.web.moves import join_words


@dataclass(frozen=True)
class Unplayable:
    """`short` fits on the card in the hand; `sentence` is said when the card is chosen, and to screen readers."""

    short: str
    sentence: str


NO_TARGET = "No one to target"


def unplayable_reason(card: Mapping[str, Any], view: Mapping[str, Any]) -> Unplayable:
    """Why `card`, from the seat's hand in `view`, can only be discarded now."""
    you = (view.get("you") or {}).get("seat")
    seats = view.get("seats", [])
    mine: Mapping[str, Any] = next((row for row in seats if row["seat"] == you), {})
    others = [row for row in seats if row["seat"] != you]
    if card.get("kind") == "path":
        return _no_building(list(mine.get("broken", [])), bool(mine.get("trapped")))
    effect = card.get("effect", "")
    tools = list(card.get("tools", []))
    if effect == "break" and tools:
        return Unplayable(NO_TARGET, f"Every {tools[0]} at the table is broken already.")
    if effect == "repair":
        return Unplayable("Nothing to repair", f"No one has a broken {_or_words(tools)}.")
    if effect == "rockfall":
        return Unplayable("Nothing to remove", "No tunnel card on the board to remove.")
    if effect == "map":
        return Unplayable("No goal to look at", "Every goal card is turned over already.")
    if effect == "theft" and mine.get("theft"):
        return Unplayable("Theft already out", "You already have a Theft in front of you.")
    if effect == "hands_off":
        return Unplayable(NO_TARGET, "No one has a Theft in front of them.")
    if effect == "swap_hats":
        return Unplayable("No dwarf cards left", "No dwarf cards are left to swap this round.")
    if effect == "trapped" and others and all(row.get("trapped") for row in others):
        return Unplayable(NO_TARGET, "Everyone else is trapped already.")
    if effect == "free":
        return Unplayable("No one to free", "No one is trapped.")
    return Unplayable("No move now", "This card has no place or player to go to now.")


def _no_building(broken: list[str], trapped: bool) -> Unplayable:
    if len(broken) == 1:
        return Unplayable(f"{broken[0].capitalize()} broken", f"Your {broken[0]} is broken: you can't build.")
    if broken:
        return Unplayable("Tools broken", f"Your {join_words(broken)} are broken: you can't build.")
    if trapped:
        return Unplayable("Trapped", "You are trapped: you can't build.")
    return Unplayable("No place fits", "No place on the board fits this card.")


def _or_words(words: Sequence[str]) -> str:
    """'pick', 'pick or cart'."""
    return join_words(list(words)).replace(" and ", " or ")
