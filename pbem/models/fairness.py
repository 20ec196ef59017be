"""Sealed deals: for each round, the commitment published before anyone plays, and what opens it.

The salt and the deal record stay in this table, unseen, until the round is over (`pbem/service/history/disclosure.py`
decides when); the commitment itself is public from the moment the round is dealt. Written in the same
transaction as the snapshot that deals the round, so no move can come before it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from pbem.models.base import Base


class RoundCommitment(Base):
    __tablename__ = "round_commitments"
    # One seal per deal. A round is dealt once (a rollback never goes back across a round's end or a deal:
    # GameService.rollback_in), but a game rolled back across one before that rule still gets its own seal for
    # the round dealt again; the newest seal of a round is the one that counts (pbem/service/history/fairness.py).
    __table_args__ = (UniqueConstraint("game_id", "dealt_seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    round: Mapped[int]
    # The snapshot whose state is the deal (0 for round 1, else the move that dealt the round).
    dealt_seq: Mapped[int]
    # SHA-256 (hex) of engine.sealed_bytes(record, salt).
    commitment: Mapped[str] = mapped_column(String(64))
    salt: Mapped[str] = mapped_column(String(64))
    record: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]
