"""Checking what a host asks for when a game is created: players, seed, variant and options.

Everything is refused with `InvalidSetup` and a sentence the host can act on, before any card
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
# What each option changes, in a host's words (the create form shows these).
OPTION_NOTES: dict[str, str] = {
    "auto_pick_gold": "After a gold-diggers' win, each digger's pick takes the highest gold card left, "
                      "without asking.",
    "digger_gold_cards": "Gold cards drawn after a gold-diggers' win: one per player (the printed rule) "
                         "or one per gold-digger.",
    "play_out_hands": "Off: once the draw pile is empty and nobody can play a card, the round ends at once "
                      "(the printed rule). On: play on, discarding, until every hand is empty.",
    "recap_private_moves": "On: when a round ends, its recap, replay and archive tell everyone what each map "
                           "showed and which cards went face down (discards, swapped hands). The printed "
                           "rules never reveal these. Off: only what the table saw.",
    "geologists_share_gold": "Saboteur 2: when the Boss, the Profiteer or a Geologist reaches the gold, do "
                             "the Geologists also count as winners and take a share? Off: they only take "
                             "their crystals. On: a share as well.",
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
        raise InvalidSetup(f"Unknown variant {variant!r}; choose one of {', '.join(sorted(VARIANTS))}")
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise InvalidSetup("Players must be a list of names")
    v = VARIANTS[variant]
    if not v.min_players <= len(players) <= v.max_players:
        raise InvalidSetup(f"This game needs {v.min_players} to {v.max_players} players, not {len(players)}")
    if type(seed) is not int:
        raise InvalidSetup("The seed must be a whole number")
    if options is not None and not isinstance(options, dict):
        raise InvalidSetup("Options must be a table of names and values")
    choices = CHOICE_OPTIONS[variant]
    chosen: dict[str, Any] = {name: values[0] for name, values in choices.items()}
    for name, value in (options or {}).items():
        if name == "deck" and variant in DECK_OPTION:
            read_deck(value)  # strict checks on the host's own objects before anything is copied
            chosen["deck"] = copy.deepcopy(value)
            v = with_deck(variant, value)
            continue
        if name in OPTIONS and name not in choices:
            raise InvalidSetup(f"Option {name!r} belongs to the {', '.join(OPTION_VARIANTS[name])} game, "
                               f"not the {variant} game")
        if name not in choices:
            raise InvalidSetup(f"Unknown option {name!r} for the {variant} game")
        if value not in choices[name] or type(value) is not type(choices[name][0]):
            allowed = ", ".join(repr(a) for a in choices[name])
            raise InvalidSetup(f"Option {name!r} must be one of {allowed}")
        chosen[name] = value
    needed = v.cards_needed(len(players))
    playable = len(v.playable_ids)
    if playable < needed:
        raise InvalidSetup(f"The deck has {playable} cards but {len(players)} players need at least {needed} "
                           f"({v.removed_per_round} set aside and {v.hand_size(len(players))} in each hand)")
    return v, chosen
