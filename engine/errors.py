"""Errors the rules raise.

`IllegalMove` carries a sentence a player can read: the web layer shows it as it is.
"""
from __future__ import annotations


class IllegalMove(ValueError):
    """A move that the rules do not allow, or that is not a move at all."""


class InvalidSetup(ValueError):
    """A game that cannot be set up: wrong player count, unknown variant or option."""


class NotYourTurn(IllegalMove):
    """A move by a seat whose decision is not pending."""
