"""Verifiable deals: seal each round's deal before anyone plays, open it when the round is over.

When a snapshot deals a round (snapshot 0 deals round 1; a move whose events hold `round_started` deals the
next), `seal_dealt_round` stores a commitment in the same transaction: SHA-256 over the engine's canonical
bytes of the deal with a fresh salt from `secrets` inside (`engine.sealed_bytes`). The commitment is shown
from then on; the salt and the record only once the round is over (`pbem/service/disclosure.py`), so the
server cannot change the deal halfway without the published fingerprint giving it away.
See docs/fairness.md.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from pbem.models import Game, RoundCommitment
from pbem.service.disclosure import Disclosure

SALT_BYTES = 32


@dataclass(frozen=True)
class Opening:
    """What opens a sealed deal, published once its round is over."""

    salt: str
    record: dict[str, Any]
    sealed_text: str  # exactly the bytes the commitment was computed over (UTF-8)
    readable: dict[str, Any]  # the same deal in words (engine.readable_deal)

    @property
    def sealed_bytes(self) -> bytes:
        return self.sealed_text.encode("utf-8")


@dataclass(frozen=True)
class SealedRound:
    round: int
    commitment: str
    sealed_at: datetime
    dealt_seq: int
    opening: Opening | None  # None while the round is being played


def dealt_round(seq: int, state: engine.Game, events: list[dict[str, Any]]) -> int | None:
    """The round this snapshot deals, if it deals one."""
    if seq == 0:
        return state.round
    for event in events:
        if event.get("type") == "round_started":
            return int(event["round"])
    return None


def seal_dealt_round(
    session: Session, game: Game, seq: int, state: engine.Game, events: list[dict[str, Any]], now: datetime
) -> RoundCommitment | None:
    """Called by the game service with every new snapshot; stores the commitment when it deals a round."""
    round_number = dealt_round(seq, state, events)
    if round_number is None:
        return None
    record = engine.deal_record(state)
    salt = secrets.token_hex(SALT_BYTES)
    row = RoundCommitment(
        game_id=game.id,
        round=round_number,
        dealt_seq=seq,
        commitment=engine.commitment(record, salt),
        salt=salt,
        record=record,
        created_at=now,
    )
    session.add(row)
    session.flush()
    return row


def sealed_rounds(session: Session, game: Game, disclosure: Disclosure) -> list[SealedRound]:
    """Every sealed round of the game, oldest first, opened where its round is over."""
    rows = session.scalars(
        select(RoundCommitment)
        .where(RoundCommitment.game_id == game.id)
        .order_by(RoundCommitment.round, RoundCommitment.dealt_seq)
    )
    newest = {row.round: row for row in rows}  # a round dealt again (see RoundCommitment): its latest deal
    return [_sealed(row, game, disclosure.round_is_over(row.round)) for row in newest.values()]


def sealed_round(session: Session, game: Game, round_number: int, disclosure: Disclosure) -> SealedRound | None:
    """One round's seal, its latest deal's (None when the round was dealt without one, e.g. before seals existed)."""
    row = session.scalar(
        select(RoundCommitment)
        .where(RoundCommitment.game_id == game.id, RoundCommitment.round == round_number)
        .order_by(RoundCommitment.dealt_seq.desc())
        .limit(1)
    )
    return None if row is None else _sealed(row, game, disclosure.round_is_over(round_number))


def _sealed(row: RoundCommitment, game: Game, open_it: bool) -> SealedRound:
    opening = None
    if open_it:
        opening = Opening(
            salt=row.salt,
            record=dict(row.record),
            sealed_text=engine.sealed_bytes(row.record, row.salt).decode("utf-8"),
            readable=engine.readable_deal(row.record, game.options),
        )
    return SealedRound(
        round=row.round, commitment=row.commitment, sealed_at=row.created_at, dealt_seq=row.dealt_seq, opening=opening
    )
