"""The core of the game service: one append-only snapshot per decision, with its turn clock and deal seal,
and the audit log of host actions."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from sqlalchemy.orm import Session

import engine
from pbem.chance import Chance
from pbem.clock import Clock
from pbem.config import PolicyConfig
from pbem.db import Database
from pbem.mail.outbox import Outbox
from pbem.memo import remember_when_committed
from pbem.models import Game, GameStatus, HostAction, Snapshot
from pbem.models.row_writes import insert_row, update_row
from pbem.service.history.fairness import seal_dealt_round
from pbem.service.letters.game_mail import GameMail
from pbem.service.timing.turn_clock import plan_turn
from pbem.tokens import LinkSigner, SpectatorLinkSigner


class GameCore:
    """What every part of the game service shares: its collaborators, and the one function that records a decision."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        links: LinkSigner,
        outbox: Outbox,
        policies: PolicyConfig,
        link_max_age_days: int,
        spectator_links: SpectatorLinkSigner,
        chance: Chance,
        *,
        notices_enabled: bool,
    ) -> None:
        self._db = db
        self._clock = clock
        self.chance = chance  # deals here; computer players, timeouts and seatings draw from it too
        self._links = links
        self._default_policies = dataclasses.asdict(policies)
        self.outbox = outbox  # the host notices of computer seats and timeouts queue here
        # Composes every email about a game; the scheduler's sweeps reach it here too (daily digests).
        self.mail = GameMail(outbox, links, link_max_age_days, spectator_links, notices_enabled=notices_enabled)

    def _append_snapshot(
        self,
        session: Session,
        game: Game,
        state: engine.Game,
        *,
        move: Mapping[str, object] | None,
        events: list[engine.Event],
        actor: int | None,
        submission_id: str | None,
        source: str,
    ) -> int:
        """The one function that records a decision: the next snapshot, and the game's cached fields.

        Returns the new snapshot's sequence number."""
        now = self._clock.now()
        seq = 0 if game.current_seq is None else game.current_seq + 1
        # Written as statements (pbem/models/row_writes.py): the snapshot is never changed after this.
        insert_row(
            session,
            Snapshot,
            {
                "game_id": game.id,
                "seq": seq,
                "state": state.to_dict(),
                "move": move,
                "events": events,
                "actor_seat": actor,
                "submission_id": submission_id,
                "source": source,
                "created_at": now,
            },
        )
        remember_when_committed(session, "state", (game.public_id, seq), state)
        update_row(
            session,
            game,
            current_seq=seq,
            to_act_seat=engine.to_act(state),
            turn_started_at=now,
            updated_at=now,
            bot_lease_until=None,
            status=GameStatus.FINISHED if engine.is_over(state) else game.status,
        )
        # A snapshot that deals a round seals that deal, in this same transaction (docs/fairness.md).
        seal_dealt_round(session, game, seq, state, events, now)
        # The new pending decision gets its reminders and deadline (pbem/service/timing/turn_clock.py).
        plan_turn(session, game, now)
        return seq

    def log_host_action(
        self, session: Session, game: Game, actor_email: str, action: str, details: dict[str, Any]
    ) -> None:
        """The audit log of host actions (moderation writes here too)."""
        self._log_host_action(session, game, actor_email, action, details)

    def _log_host_action(
        self, session: Session, game: Game, actor_email: str, action: str, details: dict[str, Any]
    ) -> None:
        session.add(
            HostAction(
                game_id=game.id, actor_email=actor_email, action=action, details=details, created_at=self._clock.now()
            )
        )

