"""Rate limits kept in the database, so they hold across web workers and restarts.

Each limit counts requests per key in fixed windows of time (a window starts at a multiple of its length
since the epoch). The count is one atomic upsert, `INSERT ... ON CONFLICT DO UPDATE ... RETURNING`, on
SQLite and PostgreSQL alike, so two workers counting at the same moment never both see the last free slot.
Keys are HMACs of what they name (a client address, a seat), so the table stores nothing readable.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from pbem.clock import Clock
from pbem.models import RateLimitHit

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# Windows older than this are deleted as new hits arrive; no limit may use a longer window.
MAX_WINDOW = timedelta(days=2)


@dataclass(frozen=True)
class Limit:
    """At most `count` requests per `window` for one key of this `scope`."""

    scope: str
    count: int
    window: timedelta

    def __post_init__(self) -> None:
        if not timedelta(0) < self.window <= MAX_WINDOW:
            raise ValueError(f"a rate limit window must be positive and at most {MAX_WINDOW}")


class RateLimiter:
    def __init__(self, clock: Clock, secret: str) -> None:
        self._clock = clock
        self._secret = secret.encode()

    def allow(self, session: Session, limit: Limit, subject: str, *, cost: int = 1) -> bool:
        """Count one request by `subject` (worth `cost` hits: e.g. the emails it sends) against `limit`, in the
        caller's transaction; False once over it.

        Refused requests count too, so someone hammering stays refused until the window ends.
        """
        now = self._clock.now()
        window_start = EPOCH + ((now - EPOCH) // limit.window) * limit.window
        insert = postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert
        statement = (
            insert(RateLimitHit)
            .values(key=self._key(limit.scope, subject), window_start=window_start, hits=cost)
            .on_conflict_do_update(
                index_elements=[RateLimitHit.key, RateLimitHit.window_start],
                set_={"hits": RateLimitHit.hits + cost},
            )
            .returning(RateLimitHit.hits)
        )
        hits = session.scalar(statement)
        session.execute(delete(RateLimitHit).where(RateLimitHit.window_start < now - MAX_WINDOW))
        return hits is not None and hits <= limit.count

    def _key(self, scope: str, subject: str) -> str:
        digest = hmac.new(self._secret, f"{scope}\x00{subject}".encode(), hashlib.sha256).hexdigest()
        return f"{scope}:{digest[:64]}"
