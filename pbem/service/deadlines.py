"""When the current turn's time runs out, by the game's policy.

The turn page shows it; reminders and the timeout sweep (issue 6) will refine it (quiet hours, away time)
here, so every place that names a deadline agrees.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any


def turn_deadline(turn_started_at: datetime | None, policies: dict[str, Any]) -> datetime | None:
    """The moment the turn that began at `turn_started_at` times out; None when the game sets no deadline."""
    hours = policies.get("deadline_hours")
    if turn_started_at is None or hours is None:
        return None
    return turn_started_at + timedelta(hours=hours)
