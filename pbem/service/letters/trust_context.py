"""What the game's emails say about trust: the seal of a round just dealt, and a finished round opened.

- The email that announces a round (game_started for round 1; the round digest that announces rounds 2 and 3)
  carries the new round's commitment, so every player holds it before anyone plays.
- The email that ends a round (its round digest, or game_over for the last round) publishes the salt and the
  deal that open the commitment, and the round's declassified recap.

The same for every recipient: a commitment is public, and a round that is over hides nothing any more.
Rendered by templates/email/_trust.html and .txt, included by those emails.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from pbem.models import Game
from pbem.service.history.disclosure import disclosure
from pbem.service.history.fairness import sealed_round
from pbem.service.history.recap import round_recap


def sealed_context(session: Session, game: Game, round_number: int) -> dict[str, Any]:
    """The commitment of the round just dealt (nothing when it has none)."""
    seal = sealed_round(session, game, round_number, disclosure(session, game))
    return {"sealed": seal} if seal is not None else {}


def round_over_context(session: Session, game: Game, round_number: int) -> dict[str, Any]:
    """The opened seal and the recap of a round that has just ended."""
    known = disclosure(session, game)
    context: dict[str, Any] = {"recap": round_recap(session, game, round_number, known)}
    seal = sealed_round(session, game, round_number, known)
    if seal is not None and seal.opening is not None:
        context["opened"] = seal
    return context
