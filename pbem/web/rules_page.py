"""The rules in short, for players: `/rules`, and what each card does (the "?" on a card in the hand).

Every card on the page is drawn by the same code as the board and the hand (`pbem/drawing/card_art.py`), from the
cards the engine's variants list, so the pictures are the ones a player meets at the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, render_template
from markupsafe import Markup

import engine
from engine.variants import get_variant
from pbem.drawing.card_art import card_svg
from pbem.i18n import gettext
from pbem.words.board import drawn_words
from pbem.words.cards import printed
from pbem.words.counting import or_list
from pbem.words.table import N_, Words

blueprint = Blueprint("rules", __name__)

# A tool as the rules page names it ("pickaxe", where a short line says "pick").
TOOLS = Words({"pick": N_("pickaxe"), "lantern": N_("lantern"), "cart": N_("cart")})

# What a card does, by its effect: the words a player needs to choose it, and to whom it is played.
EFFECT_HELP = Words({
    "break": N_(
        "Lay it in front of a player (usually another): with a broken %(tools)s they cannot build tunnels until "
        "mended."
    ),
    "repair": N_("Mends a broken %(tools)s in front of any player, yourself included; then they may build again."),
    "rockfall": N_("Removes one tunnel card from the board (never the start or a goal): a way to cut a tunnel."),
    "map": N_("Look in secret at one face-down goal card: you alone learn whether the gold lies there."),
    "theft": N_("Lay it in front of yourself. After the round is paid you may steal 1 gold piece from any player."),
    "hands_off": N_("Removes the Theft lying in front of any player, yourself included: that Theft steals nothing."),
    "swap_hand": N_("Swap your whole hand with another player's; they then draw one card, you draw none."),
    "inspection": N_("Look in secret at another player's dwarf card: you alone learn who they are this round."),
    "swap_hats": N_("A player of your choice, yourself included, changes their dwarf card for one nobody has used."),
    "trapped": N_("Lay it in front of another player: trapped, they cannot build tunnels until freed."),
    "free": N_("Frees a trapped player, yourself included, by removing the Trapped! card in front of them."),
})


def card_help(info: Mapping[str, Any]) -> str:
    """One or two sentences on what this card does, for the "?" on a card and for the rules page."""
    effect = info.get("effect")
    if isinstance(effect, str) and effect in EFFECT_HELP:
        tools = or_list([TOOLS[tool] if tool in TOOLS else tool for tool in info.get("tools", [])])
        return EFFECT_HELP[effect] % {"tools": tools or gettext("tool")}
    if info.get("kind") == "goal":
        return gettext("A goal card: face down until a tunnel reaches it; one of the goals hides the gold.")
    if info.get("kind") == "start":
        return gettext("The start: every tunnel must lead back to it.")
    return _path_help(info)


def _path_help(info: Mapping[str, Any]) -> str:
    """The sentences of a path card: what it is, then one for each thing it carries."""
    segments = info.get("segments", [])
    dead_end = bool(segments) and all(segment.get("dead") for segment in segments)
    if dead_end:
        sentences = [gettext("A dead end: it lies like a tunnel card but blocks the way.")]
    else:
        sentences = [gettext(
            "A tunnel card: lay it next to the tunnel so every side it touches matches; it must join the start."
        )]
    if any(segment.get("door") for segment in segments):
        sentences.append(gettext("Its door lets only the dwarves of that colour through (Saboteur 2)."))
    if any(segment.get("ladder") for segment in segments):
        sentences.append(gettext("Its ladder joins the start's tunnel from anywhere; it may not lie next to a goal."))
    if info.get("crystals"):
        sentences.append(gettext("Its crystals go to the Geologists at the end of the round."))
    if not dead_end and info.get("symmetric") is False:
        sentences.append(gettext("You may turn it around before laying it."))
    return " ".join(sentences)


@dataclass(frozen=True)
class RulesCard:
    label: str
    art: Markup
    help: str
    count: int


def rules_cards(variant_name: str) -> list[RulesCard]:
    """One entry per printed card name in the variant's deck (the goals and the start included), drawn as at the
    table: the first card of that name stands for the others (a dead end has several shapes)."""
    variant = get_variant(variant_name)
    seen: dict[str, RulesCard] = {}
    counts: dict[str, int] = {}
    for card_id, card in enumerate(variant.cards):
        info = engine.card_info(variant, card_id)
        key = card.label
        counts[key] = counts.get(key, 0) + 1
        if key not in seen:
            seen[key] = RulesCard(label=printed(card.label), art=card_svg(info, words=drawn_words()),
                                  help=card_help(info), count=0)
    return [RulesCard(label=card.label, art=card.art, help=card.help, count=counts[key]) for key, card in seen.items()]


@blueprint.route("/rules", methods=["GET"])
def rules() -> str:
    """The base game and Saboteur 2 in short, each card with its picture and what it does."""
    return render_template("rules.html", base=rules_cards("base"), saboteur2=rules_cards("saboteur2"))
