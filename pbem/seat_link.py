"""What a seat's magic link claims, once its signature is checked (`pbem.tokens.LinkSigner` signs and reads it).

A plain value below both the tokens and the errors: an expired link still says whose seat it was.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SeatLink:
    """What a valid token claims."""

    game_id: str
    seat: int
    version: int
