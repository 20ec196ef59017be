"""Why a card in the hand has no move but a discard, in the player's words, for the card itself.

Read only from the seat's own view (its hand, the board, and what lies in front of each player, all of it
public or the seat's own), so the reason never tells more than the table already shows. It is asked only
about a card the legal moves leave with nothing but a pass: the first rule that bars it is the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.i18n import gettext, pgettext
from pbem.words.cards import tool_name
from pbem.words.counting import and_list, or_list
from pbem.words.table import NP_, Words


@dataclass(frozen=True)
class Unplayable:
    """`short` fits on the card in the hand (its messages in the context "on a card": a few short words);
    `sentence` is said when the card is chosen, and to screen readers."""

    short: str
    sentence: str


def _no_target() -> str:
    return pgettext("on a card", "No one to target")


def unplayable_reason(card: Mapping[str, Any], view: Mapping[str, Any]) -> Unplayable:
    """Why `card`, from the seat's hand in `view`, can only be discarded now, in the reader's language."""
    you = (view.get("you") or {}).get("seat")
    seats = view.get("seats", [])
    mine: Mapping[str, Any] = next((row for row in seats if row["seat"] == you), {})
    others = [row for row in seats if row["seat"] != you]
    if card.get("kind") == "path":
        return _no_building(list(mine.get("broken", [])), bool(mine.get("trapped")))
    effect = card.get("effect", "")
    tools = list(card.get("tools", []))
    if effect == "break" and tools:
        return Unplayable(_no_target(), gettext("Every %(tool)s at the table is broken already.",
                                                tool=tool_name(tools[0])))
    if effect == "repair":
        return Unplayable(pgettext("on a card", "Nothing to repair"),
                          gettext("No one has a broken %(tools)s.", tools=or_list([tool_name(t) for t in tools])))
    if effect == "rockfall":
        return Unplayable(pgettext("on a card", "Nothing to remove"), gettext("No tunnel card on the board to remove."))
    if effect == "map":
        return Unplayable(pgettext("on a card", "No goal to look at"),
                          gettext("Every goal card is turned over already."))
    if effect == "theft" and mine.get("theft"):
        return Unplayable(pgettext("on a card", "Theft already out"),
                          gettext("You already have a Theft in front of you."))
    if effect == "hands_off":
        return Unplayable(_no_target(), gettext("No one has a Theft in front of them."))
    if effect == "swap_hats":
        return Unplayable(pgettext("on a card", "No dwarf cards left"),
                          gettext("No dwarf cards are left to swap this round."))
    if effect == "trapped" and others and all(row.get("trapped") for row in others):
        return Unplayable(_no_target(), gettext("Everyone else is trapped already."))
    if effect == "free":
        return Unplayable(pgettext("on a card", "No one to free"), gettext("No one is trapped."))
    return Unplayable(pgettext("on a card", "No move now"), gettext("This card has no place or player to go to now."))


def _no_building(broken: list[str], trapped: bool) -> Unplayable:
    if len(broken) == 1:
        return Unplayable(BROKEN_SHORT[broken[0]] if broken[0] in BROKEN_SHORT else
                          pgettext("on a card", "%(tool)s broken", tool=tool_name(broken[0]).capitalize()),
                          gettext("Your %(tool)s is broken: you can't build.", tool=tool_name(broken[0])))
    if broken:
        return Unplayable(pgettext("on a card", "Tools broken"), gettext("Your %(tools)s are broken: you can't build.",
                                                           tools=and_list([tool_name(t) for t in broken])))
    if trapped:
        return Unplayable(pgettext("on a card", "Trapped"), gettext("You are trapped: you can't build."))
    return Unplayable(pgettext("on a card", "No place fits"), gettext("No place on the board fits this card."))


# What a card says when one broken tool bars building: a word of its own for each tool, short enough for a card.
BROKEN_SHORT = Words({"pick": NP_("on a card", "Pick broken"), "lantern": NP_("on a card", "Lantern broken"),
                     "cart": NP_("on a card", "Cart broken")})
