"""The clock of each game's pending decision: what the scheduler's sweep filters by, without engine state.

One row per game, rewritten by the game service with every snapshot (`pbem/service/timing/turn_clock.py`).
`due_at` is the next moment the sweep has something to do for this decision (a reminder, the warning, the
deadline); it is indexed, so a sweep costs what is due, not what is running. `version` makes every claim a
conditional update: two sweeps that read the same row cannot both act on it.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, false
from sqlalchemy.orm import Mapped, mapped_column

from pbem.models.base import Base


class TurnClock(Base):
    __tablename__ = "turn_clocks"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int]  # the snapshot whose pending decision this clock times
    seat: Mapped[int | None]  # who must decide (None: nobody, the game is over)
    started_at: Mapped[datetime]
    version: Mapped[int] = mapped_column(default=0)
    due_at: Mapped[datetime | None] = mapped_column(index=True)
    deadline_at: Mapped[datetime | None]
    reminders_sent: Mapped[int] = mapped_column(default=0)
    last_reminder_at: Mapped[datetime | None]
    warned: Mapped[bool] = mapped_column(default=False, server_default=false())
    # notify-host: the deadline passed and the host was told; nothing more happens until someone acts.
    timed_out: Mapped[bool] = mapped_column(default=False, server_default=false())
    # Time that does not count against the player: pauses by the host, the seat's away time, extensions.
    paused_at: Mapped[datetime | None]
    paused_seconds: Mapped[int] = mapped_column(default=0)
    extended_seconds: Mapped[int] = mapped_column(default=0)
    away_from: Mapped[datetime | None]
    away_seconds: Mapped[int] = mapped_column(default=0)
    # The deadline the turn began with (what its first email said): a later one is shown as moved from it.
    first_deadline_at: Mapped[datetime | None]
    # The deadline a seat's own settings may not bring earlier, less the time held back when it was kept.
    kept_deadline_base: Mapped[datetime | None]
