"""The games a host can start, and a host's own Saboteur 2 deck read from a TOML file.

The engine alone knows the rules: which variants exist, how many players each takes, and whether a deck
is valid (`engine.new_game` checks it when the game is created). This module only lists what the engine
offers, in words for a host's form or the command line, and turns a TOML file into the plain data the
engine's `deck` option takes (docs/engine.md, "Deck format").
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import engine
from engine.setup import DECK_OPTION
from pbem.errors import ValidationError

# Past this a file is not a deck (the shipped deck is about 10 KB as TOML).
MAX_DECK_BYTES = 256 * 1024

DESCRIPTIONS = {
    "base": (
        "Saboteur",
        "The original game: gold-diggers against saboteurs, broken tools, maps and rockfalls.",
    ),
    "saboteur2": (
        "Saboteur 2",
        "The expansion: blue and green teams with doors, the Boss, the Profiteer, Geologists counting "
        "crystals, ladders and bridges, thefts, traps and swapped hands; gold pieces instead of gold cards.",
    ),
}


@dataclass(frozen=True)
class VariantChoice:
    """One variant as a host chooses it: its engine name, a title, a line about it and its player range."""

    name: str
    title: str
    description: str
    min_players: int
    max_players: int
    takes_deck: bool  # accepts a host's own deck (option "deck")


def variant_choices() -> list[VariantChoice]:
    """Every variant the engine plays, the base game first."""
    choices = []
    for name, variant in engine.VARIANTS.items():
        title, description = DESCRIPTIONS.get(name, (name.replace("_", " ").capitalize(), ""))
        choices.append(
            VariantChoice(
                name=name,
                title=title,
                description=description,
                min_players=variant.min_players,
                max_players=variant.max_players,
                takes_deck=name in DECK_OPTION,
            )
        )
    return choices


def parse_deck(text: str, source: str = "the deck file") -> dict[str, Any]:
    """A deck from TOML text: `[[paths]]` and `[[actions]]` tables. Only the syntax is checked here; the
    engine judges the contents when the game is created, and its message names the faulty entry."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValidationError(f"{source} is not valid TOML: {exc}.") from None


def load_deck(path: str | Path) -> dict[str, Any]:
    """A host's deck file, as the engine's `deck` option: `options={"deck": load_deck(path)}`."""
    file = Path(path)
    try:
        raw = file.read_bytes()
    except OSError as exc:
        raise ValidationError(f"The deck file {file} cannot be read: {exc.strerror or exc}.") from None
    if len(raw) > MAX_DECK_BYTES:
        raise ValidationError(f"The deck file {file} is larger than {MAX_DECK_BYTES // 1024} KB.")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValidationError(f"The deck file {file} is not UTF-8 text.") from None
    return parse_deck(text, f"The deck file {file}")
