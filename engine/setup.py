"""Checking what a host asks for when a game is created: players, seed, variant and options.

Everything is refused with `InvalidSetup` and a code the host's page tells in words, before any card
is dealt, so a game that exists is always a game that can be played to the end.
"""
from __future__ import annotations

import copy
from typing import Any

from .decks import read_deck
from .errors import InvalidSetup
from .variants import VARIANTS, Variant, with_deck

# Options with a fixed set of values; the first value is the default.
OPTIONS: dict[str, tuple[Any, ...]] = {
    "auto_pick_gold": (False, True),
    "digger_gold_cards": ("players", "diggers"),
    "play_out_hands": (False, True),
    "recap_private_moves": (True, False),
    "geologists_share_gold": (False, True),
}
# The variants an option belongs to; an option not named here belongs to every variant.
OPTION_VARIANTS: dict[str, tuple[str, ...]] = {
    "auto_pick_gold": ("base",),
    "digger_gold_cards": ("base",),
    "geologists_share_gold": ("saboteur2",),
}
CHOICE_OPTIONS: dict[str, dict[str, tuple[Any, ...]]] = {
    variant: {name: values for name, values in OPTIONS.items() if variant in OPTION_VARIANTS.get(name, (variant,))}
    for variant in VARIANTS
}


def option(g_options: dict[str, Any], name: str) -> Any:
    """The value of an option in a game's options; a game stored before the option existed has its default."""
    return g_options.get(name, OPTIONS[name][0])
# Variants whose deck a host may replace with option `deck` (format: engine/decks/reader.py).
DECK_OPTION = ("saboteur2",)


def check_setup(players: Any, seed: Any, variant: Any, options: Any) -> tuple[Variant, dict[str, Any]]:
    """The variant to play (with the host's deck, if any) and the options to store in the game."""
    if variant not in VARIANTS:
        raise InvalidSetup("unknown_variant", variant=variant, variants=sorted(VARIANTS))
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise InvalidSetup("players_not_names")
    v = VARIANTS[variant]
    if not v.min_players <= len(players) <= v.max_players:
        raise InvalidSetup("player_count", least=v.min_players, most=v.max_players, count=len(players))
    if type(seed) is not int:
        raise InvalidSetup("seed_not_whole_number")
    if options is not None and not isinstance(options, dict):
        raise InvalidSetup("options_not_table")
    choices = CHOICE_OPTIONS[variant]
    chosen: dict[str, Any] = {name: values[0] for name, values in choices.items()}
    for name, value in (options or {}).items():
        if name == "deck" and variant in DECK_OPTION:
            read_deck(value)  # strict checks on the host's own objects before anything is copied
            chosen["deck"] = copy.deepcopy(value)
            v = with_deck(variant, value)
            continue
        if name in OPTIONS and name not in choices:
            raise InvalidSetup("option_of_other_variant", option=name, variants=list(OPTION_VARIANTS[name]),
                               variant=variant)
        if name not in choices:
            raise InvalidSetup("unknown_option", option=name, variant=variant)
        if value not in choices[name] or type(value) is not type(choices[name][0]):
            raise InvalidSetup("option_value", option=name, allowed=list(choices[name]))
        chosen[name] = value
    needed = v.cards_needed(len(players))
    playable = len(v.playable_ids)
    if playable < needed:
        raise InvalidSetup("deck_too_small", cards=playable, players=len(players), needed=needed,
                           set_aside=v.removed_per_round, hand=v.hand_size(len(players)))
    return v, chosen
