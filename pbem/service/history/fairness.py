"""Verifiable deals: seal each round's deal before anyone plays, open it when the round is over.

When a snapshot deals a round (snapshot 0 deals round 1; a move whose events hold `round_started` deals the
next), `seal_dealt_round` stores a commitment in the same transaction: the engine seals each part of the deal
with its own salt, all drawn from one fresh secret from `secrets` (`engine.commitment`). The commitment is shown
from then on; the deal only once the round is over (`pbem/service/history/disclosure.py`), and then only the parts the
rules let anyone see (`engine.withheld_parts`: a dwarf card given up to Swap Your Hats, ...), with just the
digest of the others, so the server cannot change the deal halfway without the published fingerprint giving it
away, and a card that stays face down for good is never shown. Seals stored before parts existed
(`saboteur-deal-1`) are opened whole, as before. See docs/fairness.md.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from pbem.models import Game, RoundCommitment, Snapshot
from pbem.service.history.disclosure import Disclosure
from pbem.words.deals import readable_deal

SALT_BYTES = 32


@dataclass(frozen=True)
class Opening:
    """What opens a sealed deal, published once its round is over."""

    record: dict[str, Any]  # the deal as shown: a withheld part is None
    sealed_text: str  # the published opening (UTF-8): what the fingerprint is recomputed from
    readable: dict[str, Any]  # the same deal in words (pbem.words.deals); a withheld part is None
    withheld: tuple[str, ...] = ()  # the parts shown only by their digest
    salt: str | None = None  # a whole seal's salt (saboteur-deal-1); a deal sealed in parts keeps its secret

    @property
    def whole(self) -> bool:
        """Sealed as one piece (saboteur-deal-1): the text is exactly the bytes the fingerprint was computed over."""
        return self.salt is not None

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


def dealt_round(seq: int, state: engine.Game, events: list[engine.Event]) -> int | None:
    """The round this snapshot deals, if it deals one."""
    if seq == 0:
        return state.round
    for event in events:
        if event.get("type") == "round_started":
            return int(event["round"])
    return None


def seal_dealt_round(
    session: Session, game: Game, seq: int, state: engine.Game, events: list[engine.Event], now: datetime
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
    newest = list({row.round: row for row in rows}.values())  # a round dealt again (see RoundCommitment): its latest
    opened = [row for row in newest if disclosure.round_is_over(row.round)]
    events = _events_after(session, game, opened)
    return [_sealed(row, game, events if row in opened else None) for row in newest]


def sealed_round(session: Session, game: Game, round_number: int, disclosure: Disclosure) -> SealedRound | None:
    """One round's seal, its latest deal's (None when the round was dealt without one, e.g. before seals existed)."""
    row = session.scalar(
        select(RoundCommitment)
        .where(RoundCommitment.game_id == game.id, RoundCommitment.round == round_number)
        .order_by(RoundCommitment.dealt_seq.desc())
        .limit(1)
    )
    if row is None:
        return None
    opened = [row] if disclosure.round_is_over(round_number) else []
    return _sealed(row, game, _events_after(session, game, opened) if opened else None)


Moves = list[tuple[int, list[engine.Event]]]


def _events_after(session: Session, game: Game, rows: list[RoundCommitment]) -> Moves:
    """The events of every snapshot after the earliest of these deals sealed in parts (none for whole seals)."""
    parted = [row.dealt_seq for row in rows if not engine.sealed_whole(row.record)]
    if not parted:
        return []
    return [
        (seq, events) for seq, events in session.execute(
            select(Snapshot.seq, Snapshot.events)
            .where(Snapshot.game_id == game.id, Snapshot.seq > min(parted))
            .order_by(Snapshot.seq)
        )
    ]


def _round_events(moves: Moves, dealt_seq: int) -> list[engine.Event]:
    """The events of the round dealt at `dealt_seq`: after the deal, up to the next round's deal."""
    told: list[engine.Event] = []
    for seq, events in moves:
        if seq <= dealt_seq:
            continue
        for event in events:
            if event.get("type") == "round_started":
                return told
            told.append(event)
    return told


def _sealed(row: RoundCommitment, game: Game, moves: Moves | None) -> SealedRound:
    """`moves`: the events after the deal when the round is over (None while it is played: nothing opens)."""
    return SealedRound(
        round=row.round, commitment=row.commitment, sealed_at=row.created_at, dealt_seq=row.dealt_seq,
        opening=None if moves is None else _opening(row, game, moves),
    )


def _opening(row: RoundCommitment, game: Game, moves: Moves) -> Opening:
    if engine.sealed_whole(row.record):
        return Opening(
            record=dict(row.record),
            sealed_text=engine.sealed_bytes(row.record, row.salt).decode("utf-8"),
            readable=readable_deal(row.record, game.options),
            salt=row.salt,
        )
    withheld = engine.withheld_parts(row.record, _round_events(moves, row.dealt_seq), game.options)
    opened = engine.opening(row.record, row.salt, withheld)
    shown = engine.shown_record(opened)
    return Opening(
        record=shown,
        sealed_text=engine.opening_text(opened),
        readable=readable_deal(shown, game.options),
        withheld=tuple(part["part"] for part in opened["parts"] if "digest" in part),
    )
