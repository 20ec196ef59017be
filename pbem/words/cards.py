"""Cards in words: each card's printed name, the three tools, a list of cards."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from engine.variants import VARIANTS
from pbem.i18n import gettext
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


def card_label(name: str) -> str:
    """A card's name as printed on it ("T-junction", "Swap Your Hand", "Free at last!"), never lower-cased."""
    return _labels().get(name, name.replace("_", " "))


def tool_name(tool: str) -> str:
    """ "pick", "lantern", "cart"."""
    return TOOL_NAMES[tool] if tool in TOOL_NAMES else tool


def card_list(names: Sequence[str]) -> str:
    """Cards by their printed names: "Map", "Curve and Map", "Curve, Map and Theft"."""
    return and_list([card_label(n) for n in names]) or gettext("nothing")
