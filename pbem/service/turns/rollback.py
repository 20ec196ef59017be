"""Rollback: going back within the round being played by appending a copy of an earlier snapshot."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from pbem.errors import (
    RollbackAcrossRound,
    ValidationError,
)
from pbem.i18n import gettext
from pbem.models import Game, GameStatus, Snapshot
from pbem.service.snapshots import latest_state, state_at
from pbem.service.turns.recording import GameCore
from pbem.service.turns.values import SERVER


class RollingBack(GameCore):
    """The host's rollback, within the round being played."""

    def rollback_in(self, session: Session, game: Game, to_seq: int, *, reason: str, actor_email: str) -> int:
        """Go back to snapshot `to_seq` by appending a copy of it (history is never rewritten).

        Only within the round being played (RollbackAcrossRound otherwise): a round's end showed everyone its
        roles and its deck, and a deal put the next round's cards in the players' hands (docs/fairness.md).
        The caller holds the game's lock (`lock_game`) and tells the table; the audit log is written here.
        """
        if game.status != GameStatus.ACTIVE or game.current_seq is None:
            raise ValidationError(gettext("Only a running game can be rolled back."))
        if type(to_seq) is not int or not 0 <= to_seq < game.current_seq:
            raise ValidationError(gettext("Choose an earlier turn, from 0 to %(last)d.", last=game.current_seq - 1))
        if to_seq < rollback_floor(session, game):
            raise RollbackAcrossRound()
        state = state_at(session, game, to_seq)
        current = latest_state(session, game)
        if (state.round, len(state.results)) != (current.round, len(current.results)):
            raise RollbackAcrossRound()  # a history that went back across a round before this rule existed
        from_seq = game.current_seq
        events: list[engine.Event] = [{"type": "rolled_back", "audience": "public", "to_seq": to_seq}]
        seq = self._append_snapshot(
            session, game, state, move=None, events=events, actor=None, submission_id=None, source=SERVER
        )
        self._log_host_action(
            session, game, actor_email, "rollback", {"from_seq": from_seq, "to_seq": to_seq, "reason": reason}
        )
        self.mail.after_move(session, game, state, events)
        return seq


ROUND_BOUNDARIES = ("round_ended", "round_started")


def rollback_floor(session: Session, game: Game) -> int:
    """The earliest snapshot a rollback may return to: the latest that ended or dealt a round (0 before any)."""
    rows = session.execute(
        select(Snapshot.seq, Snapshot.events)
        .where(Snapshot.game_id == game.id, Snapshot.seq <= (game.current_seq or 0))
        .order_by(Snapshot.seq.desc())
    )
    for seq, events in rows:
        if any(event.get("type") in ROUND_BOUNDARIES for event in events):
            return int(seq)
    return 0
