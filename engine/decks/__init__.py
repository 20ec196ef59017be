"""The card decks as data: the base game's, Saboteur 2's, and the reader that checks any deck."""
from __future__ import annotations

from .base import BASE_DECK
from .reader import read_deck
from .saboteur2 import SABOTEUR2_DECK

__all__ = ["BASE_DECK", "SABOTEUR2_DECK", "read_deck"]
