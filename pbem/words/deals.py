"""A round's deal in words, for the fairness pages and emails: role names, card labels, the draw pile next card
first, and what an opening leaves out."""

from __future__ import annotations

from typing import Any

from engine.variants import VARIANTS, with_deck
from pbem.i18n import gettext
from pbem.words.cards import printed
from pbem.words.places import goal_place
from pbem.words.roles import role_name


def readable_deal(record: dict[str, Any], options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The deal record (engine.deal_record) in words.

    `record` may be a `shown_record`: a withheld part is None here too. `options` are the game's (a host's own
    deck names its cards differently)."""
    deck = (options or {}).get("deck")
    v = VARIANTS[record["variant"]] if deck is None else with_deck(record["variant"], deck)

    def labels(cards: list[int] | None) -> list[str] | None:
        return None if cards is None else [printed(v.cards[card].label) for card in cards]

    def role(card: str | None) -> str | None:
        return None if card is None else role_name(card)

    return {
        "seats": [
            {"name": name, "role": role(dealt), "hand": labels(hand)}
            for name, dealt, hand in zip(record["players"], record["roles"], record["hands"], strict=False)
        ],
        "first": record["players"][record["first"]],
        "spare_roles": None if record["spare_roles"] is None else [role_name(card) for card in record["spare_roles"]],
        "goals": [
            {"place": goal_place(goal), "gold": goal["gold"]} if goal is not None
            else {"place": goal_place(cell), "gold": None}
            for goal, cell in zip(record["goals"], _goal_cells(record), strict=False)
        ],
        "draw_pile": None if record["draw_pile"] is None else labels(list(reversed(record["draw_pile"]))),
        "set_aside": labels(record["set_aside"]),
        "withheld": _withheld_in_words(record),
    }


def _withheld_in_words(record: dict[str, Any]) -> list[str]:
    """The parts a shown record leaves out, in words, in the order of the parts."""
    names = record["players"]
    words = [gettext("%(name)s's dwarf card", name=names[seat])
             for seat, role in enumerate(record["roles"]) if role is None]
    if record["spare_roles"] is None:
        words.append(gettext("the leftover dwarf cards"))
    cells = zip(record["goals"], _goal_cells(record), strict=False)
    words += [gettext("the %(place)s goal", place=goal_place(cell)) for goal, cell in cells if goal is None]
    words += [gettext("%(name)s's hand", name=names[seat]) for seat, hand in enumerate(record["hands"]) if hand is None]
    if record["draw_pile"] is None:
        words.append(gettext("the draw pile"))
    if record["set_aside"] is None:
        words.append(gettext("the cards set aside"))
    return words


def _goal_cells(record: dict[str, Any]) -> list[dict[str, int]]:
    return [{"x": x, "y": y} for x, y in VARIANTS[record["variant"]].goal_cells]
