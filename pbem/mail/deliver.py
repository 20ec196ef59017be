"""The deliverer: the one place that sends email (the scheduler runs it every few seconds, `pbem mail deliver` on
demand).

Each row is claimed by a conditional UPDATE under a lease, sent outside any transaction and recorded by the
claim's holder: sent, queued again after a backoff, or failed. A stale turn email is dropped unsent; a reserved
row is composed by the claim that takes it. docs/architecture.md ("Mail") and docs/reliability.md tell the rest.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage

from sqlalchemy import ColumnElement, Update, and_, exists, not_, or_, select, update
from sqlalchemy.exc import InterfaceError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import Session, joinedload

from pbem.clock import Clock
from pbem.config import MailConfig
from pbem.db import Database
from pbem.mail.backends import Backend, Connection, DeliveryError, PermanentFailure, RelayUnavailable
from pbem.mail.catcher import CatcherBackend
from pbem.mail.message import InlineImage, OutgoingMail, build_message, outgoing_mail
from pbem.mail.smtp import SmtpBackend
from pbem.models import Game, GameStatus, OutboxMessage, Seat
from pbem.models.row_writes import rows_changed

log = logging.getLogger(__name__)

# A run stops after this many rows, so one scheduler tick never runs for ever; the next tick goes on.
RUN_LIMIT = 200
# Rows claimed in one transaction and sent over one connection; each is recorded as sent as soon as the relay has
# taken it, so a deliverer killed halfway through a batch sends again, once the lease runs out, only a message the
# relay took in the moment before the kill (at least once), never the ones it had recorded.
BATCH = 20
RECORD_RETRY_SECONDS = 1.0
STALE_REASON = "not sent: the decision it announced was taken before it could go out"
UNWANTED_REASON = "not sent: the seat no longer takes an email at each turn"

# Writes the content of a row queued without it (GameMail.compose); False: it should not be sent after all.
Composer = Callable[[Session, OutboxMessage], bool]
# The pictures an outbox row's HTML part shows, drawn when the message is built (GameMail's board painter).
Pictures = Callable[[Session, OutboxMessage], tuple[InlineImage, ...]]
# Tells the host that mail to a seat fails for good (host_notices.enqueue_mail_failing_notice).
FailureNotice = Callable[[Session, Game, Seat, str, datetime], object]


@dataclass(frozen=True)
class DeliverySettings:
    from_address: str
    lease: timedelta
    retry_base: timedelta
    retry_cap: timedelta
    max_attempts: int

    @classmethod
    def from_config(cls, mail: MailConfig) -> DeliverySettings:
        return cls(
            from_address=mail.from_address,
            lease=timedelta(seconds=mail.lease_seconds),
            retry_base=timedelta(seconds=mail.retry_base_seconds),
            retry_cap=timedelta(seconds=mail.retry_cap_seconds),
            max_attempts=mail.max_attempts,
        )

    def backoff(self, attempts: int) -> timedelta:
        """Wait after the `attempts`-th failed try: base, 2 x base, 4 x base, ... never more than the cap."""
        exponent = min(max(attempts - 1, 0), 32)
        return min(self.retry_cap, self.retry_base * (2**exponent))


@dataclass(frozen=True)
class Claim:
    """A row this deliverer holds: only the holder of `token` may record how sending it went."""

    mail: OutgoingMail
    token: str


@dataclass
class DeliveryReport:
    sent: int = 0
    retrying: int = 0
    failed: int = 0
    dropped: int = 0
    relay_unavailable: bool = False
    message_ids: list[str] = field(default_factory=list)  # those handed to the backend successfully

    @property
    def handled(self) -> int:
        return self.sent + self.retrying + self.failed + self.dropped


def backend_for(mail: MailConfig) -> Backend:
    return SmtpBackend(mail) if mail.backend == "smtp" else CatcherBackend()


class Deliverer:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        backend: Backend,
        settings: DeliverySettings,
        compose: Composer,
        notify_failure: FailureNotice, pictures: Pictures | None = None,
    ) -> None:
        self._db = db
        self._clock = clock
        self._backend = backend
        self._settings = settings
        self._compose = compose
        self._notify_failure = notify_failure
        self._pictures = pictures

    def run(self, limit: int | None = RUN_LIMIT) -> DeliveryReport:
        """Send what is due now (at most `limit` rows; None: all); stops early when the relay is unreachable."""
        report = DeliveryReport()
        self.drop_stale(report)
        swept = report.handled
        with ExitStack() as stack:
            connection: Connection | None = None
            while not report.relay_unavailable:
                room = BATCH if limit is None else min(BATCH, limit - (report.handled - swept))
                claims = self.claim(report, up_to=room) if room > 0 else []
                if not claims:
                    break
                for position, claim in enumerate(claims):
                    try:
                        message = _build(claim.mail, self._settings.from_address)
                        if connection is None:
                            connection = stack.enter_context(self._backend.open())
                        connection.send(message, claim.mail.to_address)
                    except DeliveryError as exc:
                        self._record_failure(claim, exc, report)
                        if isinstance(exc, RelayUnavailable):
                            report.relay_unavailable = True
                            self._release(claims[position + 1 :])
                            break
                    else:
                        self._record_sent([claim], report)
        return report

    def drop_stale(self, report: DeliveryReport) -> None:
        """Drop, in one statement, the waiting turn mail whose decision has been taken since it was queued
        (and any left `sending` by a deliverer that died, once its lease has run out).

        In a game played briskly most turn emails are stale before they could go out; dropping them one claim
        at a time would keep the deliverer from the mail that still matters. Claims pass over the rows that turn
        stale during a run (the next run drops them here); one that turns stale between the look and the claim
        is dropped by the claim."""
        with self._db.write() as session:
            dropped = rows_changed(
                session,
                update(OutboxMessage)
                .where(or_(OutboxMessage.status == "queued", self._claimable(self._clock.now())), _stale())
                .values(status="dropped", last_error=STALE_REASON, claim_token=None)
                .execution_options(synchronize_session=False)
            )
        if dropped:
            report.dropped += dropped
            log.info("dropped %d waiting turn emails: %s", dropped, STALE_REASON)

    def claim(self, report: DeliveryReport, *, up_to: int = BATCH) -> list[Claim]:
        """Claim up to `up_to` due rows for this deliverer, in one transaction; [] when nothing is due.

        Stale turn mail is passed over (`drop_stale` drops it). Of the rows claimed, one whose decision was taken
        in the meantime is dropped, one claimed too often fails, and one still unwritten is written now."""
        now = self._clock.now()
        token = secrets.token_hex(16)
        with self._db.write() as session:
            while True:
                candidates = session.scalars(
                    select(OutboxMessage.id)
                    .where(self._claimable(now), not_(_stale()))
                    .order_by(OutboxMessage.next_attempt_at, OutboxMessage.id)
                    .limit(up_to)
                ).all()
                if not candidates:
                    return []
                # Rows another deliverer claimed first no longer match, and do not come back.
                rows = session.scalars(
                    update(OutboxMessage)
                    .where(OutboxMessage.id.in_(candidates), self._claimable(now))
                    .values(status="sending", claim_token=token, claimed_at=now, attempts=OutboxMessage.attempts + 1)
                    .returning(OutboxMessage),
                    execution_options={"synchronize_session": False, "populate_existing": True},
                ).all()
                games = _load_games(session, rows)
                ordered = sorted(rows, key=lambda row: (row.next_attempt_at, row.id))
                claims = [
                    Claim(self._outgoing(session, row), token)
                    for row in ordered
                    if self._ready(session, row, games, now, report)
                ]
                if claims:
                    return claims
                # Every candidate was taken by another deliverer or settled here: look again.

    def preview(self, row_id: int) -> EmailMessage | None:
        """The message this deliverer would send for one outbox row, pictures and all, changing nothing (for the
        mail catcher); None when there is no such row or it is not written yet."""
        with self._db.read() as session:
            row = session.get(OutboxMessage, row_id)
            if row is None or not row.composed:
                return None
            return build_message(self._outgoing(session, row), self._settings.from_address)

    def _outgoing(self, session: Session, row: OutboxMessage) -> OutgoingMail:
        """A written row as plain data, with the pictures its HTML part shows."""
        return outgoing_mail(row, self._pictures(session, row) if self._pictures else ())

    def _ready(
        self, session: Session, row: OutboxMessage, games: dict[int, Game], now: datetime, report: DeliveryReport
    ) -> bool:
        """A claimed row is to be sent; otherwise it is settled here (dropped or failed) and False says so."""
        if _gone_stale(row, games):
            _drop(row, STALE_REASON, report, claimed=True)
            return False
        if row.attempts > self._settings.max_attempts:
            # Claimed again and again by deliverers that never finished: stop trying.
            reason = f"given up after {row.attempts - 1} attempts that never finished"
            self._fail(session, row, reason, now, report)
            return False
        return row.composed or self._composed(session, row, now, report, claimed=True)

    def compose_waiting(self) -> int:
        """Compose, without sending, every queued row still waiting for its content whose decision is pending.

        What the claim would do, done now: for a look at the outbox as it would go out (the tests read it so).
        Rows whose decision was taken stay as they are, for the deliverer to drop. Returns how many were composed.
        """
        report = DeliveryReport()
        composed = 0
        with self._db.write() as session:
            waiting = session.scalars(
                select(OutboxMessage)
                .where(OutboxMessage.status == "queued", OutboxMessage.body_text.is_(None))
                .order_by(OutboxMessage.id)
            ).all()
            games = _load_games(session, waiting)
            for row in waiting:
                if _gone_stale(row, games):
                    continue
                if self._composed(session, row, self._clock.now(), report, claimed=False):
                    composed += 1
        return composed

    def _composed(
        self, session: Session, row: OutboxMessage, now: datetime, report: DeliveryReport, *, claimed: bool
    ) -> bool:
        """Write the content of a row queued without it; a row that should no longer go is dropped, one whose
        content cannot be made fails (and the host hears of it), and False says so."""
        try:
            with session.begin_nested():
                wanted = self._compose(session, row)
        except SQLAlchemyError:
            raise  # the database, not the row: the claim rolls back and the row waits for the next run
        except Exception as exc:
            log.exception("%s mail %s to %s could not be composed", row.kind, row.message_id, row.to_address)
            self._fail(session, row, f"could not be composed: {exc}", now, report)
            return False
        if not wanted:
            _drop(row, UNWANTED_REASON, report, claimed=claimed)
            return False
        return True

    def _claimable(self, now: datetime) -> ColumnElement[bool]:
        return or_(
            and_(OutboxMessage.status == "queued", OutboxMessage.next_attempt_at <= now),
            and_(OutboxMessage.status == "sending", OutboxMessage.claimed_at <= now - self._settings.lease),
        )

    def _record_sent(self, claims: list[Claim], report: DeliveryReport) -> None:
        """Record claims as sent, in one statement; only the rows this deliverer still holds change."""
        if not claims:
            return
        now = self._clock.now()
        # The relay has the message: if the database is away just now, wait for it (within half the lease, before
        # another deliverer may take the row again) rather than leave the row to be sent a second time.
        give_up_at = time.monotonic() + self._settings.lease.total_seconds() / 2
        while True:
            try:
                with self._db.write() as session:
                    recorded = set(
                        session.scalars(
                            self._held(claims)
                            .values(status="sent", sent_at=now, last_error=None, claim_token=None)
                            .returning(OutboxMessage.id),
                            execution_options={"synchronize_session": False},
                        )
                    )
                break
            except (OperationalError, InterfaceError) as exc:
                if time.monotonic() >= give_up_at:
                    raise
                log.warning(
                    "mail %s was sent; recording it waits for the database: %s", claims[0].mail.message_id, exc.orig
                )
                time.sleep(RECORD_RETRY_SECONDS)
        report.sent += len(claims)
        report.message_ids.extend(claim.mail.message_id for claim in claims)
        for claim in claims:
            if claim.mail.id not in recorded:
                log.warning(
                    "mail %s was sent after its lease ran out; another deliverer may send it again",
                    claim.mail.message_id,
                )

    def _release(self, claims: list[Claim]) -> None:
        """Give back rows claimed and never tried (the relay went away first): queued again, no attempt counted."""
        if not claims:
            return
        with self._db.write() as session:
            session.execute(
                self._held(claims).values(status="queued", claim_token=None, attempts=OutboxMessage.attempts - 1),
                execution_options={"synchronize_session": False},
            )

    def _held(self, claims: list[Claim]) -> Update:
        """An UPDATE of the rows of `claims` (one batch, one token) that their holder still holds."""
        return update(OutboxMessage).where(
            OutboxMessage.id.in_([claim.mail.id for claim in claims]),
            OutboxMessage.claim_token == claims[0].token,
            OutboxMessage.status == "sending",
        )

    def _record_failure(self, claim: Claim, error: DeliveryError, report: DeliveryReport) -> None:
        now = self._clock.now()
        mail = claim.mail
        reason = str(error) or type(error).__name__
        with self._db.write() as session:
            permanent = isinstance(error, PermanentFailure)
            if permanent or mail.attempts >= self._settings.max_attempts:
                row = session.scalar(
                    select(OutboxMessage).where(OutboxMessage.id == mail.id, OutboxMessage.claim_token == claim.token)
                )
                if row is None:
                    log.warning("mail %s failed after its lease ran out: %s", mail.message_id, reason)
                    return
                if not permanent:
                    reason = f"{reason} (given up after {mail.attempts} attempts)"
                self._fail(session, row, reason, now, report)
                return
            retry_at = now + self._settings.backoff(mail.attempts)
            session.execute(
                self._held([claim]).values(
                    status="queued", next_attempt_at=retry_at, last_error=reason, claim_token=None
                ),
                execution_options={"synchronize_session": False},
            )
        report.retrying += 1
        log.warning(
            "%s mail %s to %s failed (attempt %d), retrying at %s: %s",
            mail.kind,
            mail.message_id,
            mail.to_address,
            mail.attempts,
            retry_at.isoformat(),
            reason,
        )

    def _fail(self, session: Session, row: OutboxMessage, reason: str, now: datetime, report: DeliveryReport) -> None:
        row.status, row.claim_token, row.last_error = "failed", None, reason
        report.failed += 1
        log.error("%s mail %s to %s failed for good: %s", row.kind, row.message_id, row.to_address, reason)
        if row.seat_id is None:
            return  # mail to the host itself: nobody else to tell; the log says it
        seat = session.get_one(Seat, row.seat_id)
        game = session.get_one(Game, row.game_id)
        self._notify_failure(session, game, seat, reason, now)


def _build(mail: OutgoingMail, from_address: str) -> EmailMessage:
    """The message as it goes out; a row that cannot become one (a header the email library refuses) never will."""
    try:
        return build_message(mail, from_address)
    except (ValueError, TypeError) as exc:
        raise PermanentFailure(f"the message cannot be built: {exc}") from None


def _drop(row: OutboxMessage, reason: str, report: DeliveryReport, *, claimed: bool) -> None:
    row.status, row.claim_token, row.last_error = "dropped", None, reason
    if claimed:
        row.attempts -= 1  # claimed, never tried
    report.dropped += 1
    log.info("dropped %s mail %s to %s: %s", row.kind, row.message_id, row.to_address, reason)


def _stale() -> ColumnElement[bool]:
    """Turn mail whose decision has been taken since it was queued (the game moved on, or is over)."""
    return and_(
        OutboxMessage.drop_when_stale.is_(True),
        exists().where(
            Game.id == OutboxMessage.game_id,
            or_(Game.status != GameStatus.ACTIVE, Game.current_seq != OutboxMessage.game_seq),
        ),
    )


def _load_games(session: Session, rows: Sequence[OutboxMessage]) -> dict[int, Game]:
    """The games of turn mail rows with their seats and clocks, in one query: checking and writing turn mail needs
    them, and while the caller holds them the session finds them without asking again (`GameMail.compose`)."""
    ids = {row.game_id for row in rows if row.game_id is not None and (row.drop_when_stale or not row.composed)}
    if not ids:
        return {}
    loaded = session.scalars(
        select(Game).where(Game.id.in_(ids)).options(joinedload(Game.seats), joinedload(Game.clock))
    ).unique()
    return {game.id: game for game in loaded}


def _gone_stale(row: OutboxMessage, games: dict[int, Game]) -> bool:
    """A turn email that waits on one decision, which its game has taken (`games`: from `_load_games`)."""
    if not row.drop_when_stale or row.game_id is None:
        return False
    game = games[row.game_id]
    return game.status != GameStatus.ACTIVE or game.current_seq != row.game_seq
