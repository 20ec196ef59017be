"""Cards in words: each card's printed name, the three tools, a list of cards.

A card's printed name is its deck's `label` (engine/decks/: data, the catalogue's source for the game's own
cards, extracted by pbem/words/deck_labels.py), translated in the context "card" when read. A host's own deck names
its cards in its own words, which no catalogue holds: they read as the host wrote them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from engine.variants import VARIANTS
from pbem.i18n import gettext, pgettext
from pbem.words.counting import and_list
from pbem.words.table import N_, Words

TOOL_NAMES = Words({"pick": N_("pick"), "lantern": N_("lantern"), "cart": N_("cart")})


@cache  # the variants are fixed data: one table for the life of the process
def _labels() -> dict[str, str]:
    labels: dict[str, str] = {}
    for variant in VARIANTS.values():
        for card in variant.cards:
            labels.setdefault(card.name, card.label)
    return labels


def printed(label: str) -> str:
    """A label from a deck, in the reader's language: "Crossing", "Kreuzung"."""
    return pgettext("card", label)


def card_label(name: str) -> str:
    """A card's name as printed on it ("T-junction", "Swap Your Hand", "Free at last!"), never lower-cased."""
    label = _labels().get(name)
    return printed(label) if label is not None else name.replace("_", " ")


def card_name(info: Mapping[str, Any]) -> str:
    """The printed name of a card as a view shows it (`engine.card_info`: its `label`), for pages and emails."""
    return printed(str(info.get("label", "")))


def tool_name(tool: str) -> str:
    """ "pick", "lantern", "cart"."""
    return TOOL_NAMES[tool] if tool in TOOL_NAMES else tool


def card_list(names: Sequence[str]) -> str:
    """Cards by their printed names: "Map", "Curve and Map", "Curve, Map and Theft"."""
    return and_list([card_label(n) for n in names]) or gettext("nothing")
