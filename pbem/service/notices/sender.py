"""The notification worker: run by the scheduler at the mail's pace (`mail.deliver_interval_seconds`).

Like the deliverer of email: each due row is claimed by a conditional UPDATE under a lease, sent outside any
transaction and recorded by the claim's holder at once: sent, tried again after a backoff (no answer, 5xx), or
failed (a refusal, or out of tries). A turn's notification whose turn was played is dropped, never claimed. An
address refused for good `switch_off_after` times in a row is switched off and its owner told by email; a game's
channel is switched off the same way and its host told by email (its host page shows its failures). The game
itself never waits on any of this. URLs are read here and handed to the transport only: they are never logged.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import and_, or_, select, update
from sqlalchemy.orm import Session

from pbem.clock import Clock
from pbem.config import NotificationsConfig
from pbem.db import Database
from pbem.i18n import in_language
from pbem.mail.outbox import Outbox
from pbem.models import Game, GameChannel, Notice, NotificationAddress
from pbem.models.row_writes import rows_changed
from pbem.notify.safety import UrlRules
from pbem.notify.transport import Notification, Outcome, Result, send
from pbem.service.emails import HOST_CHANNEL_OFF, NOTIFICATIONS_OFF
from pbem.service.players.mailboxes import seats_of
from pbem.service.players.notices_instead import fall_back

BATCH = 20
LEASE = timedelta(minutes=10)
STALE_REASON = "not sent: the turn it announced was played first"

# Tells the owner of an address, by email, that it was switched off (in the worker's transaction).
SwitchedOff = Callable[[Session, NotificationAddress, str], object]
# Tells a game's host, by email, that the table's channel was switched off (in the worker's transaction).
ChannelOff = Callable[[Session, GameChannel, str], object]
Send = Callable[[str, Notification, UrlRules], Result]


@dataclass(frozen=True)
class Sent:
    sent: int = 0
    retried: int = 0
    failed: int = 0
    dropped: int = 0


class NoticeSender:
    def __init__(
        self, db: Database, clock: Clock, config: NotificationsConfig, switched_off: SwitchedOff,
        channel_off: ChannelOff, transport: Send = send,
    ) -> None:
        self._db, self._clock, self._config = db, clock, config
        self._dropped = 0
        self._rules = UrlRules.from_config(config)
        self._switched_off = switched_off
        self._channel_off = channel_off
        self._send = transport

    def backoff(self, attempts: int) -> timedelta:
        base, cap = self._config.retry_base_seconds, self._config.retry_cap_seconds
        return timedelta(seconds=min(cap, base * 2 ** min(max(attempts - 1, 0), 32)))

    def run(self) -> Sent:
        """Send what is due now; returns what became of it."""
        if not self._config.enabled:
            return Sent()
        totals = Sent()
        claimed = self._claim()
        for notice_id, token, url, notification in claimed:
            result = self._send(url, notification, self._rules)
            totals = self._record(notice_id, token, result, totals)
        return Sent(totals.sent, totals.retried, totals.failed, totals.dropped + self._dropped)

    def _claim(self) -> list[tuple[int, str, str, Notification]]:
        now = self._clock.now()
        self._dropped = 0
        with self._db.write() as session:
            self._dropped = rows_changed(
                session,
                update(Notice)
                .where(Notice.status == "queued", Notice.drop_when_stale, Notice.game_seq
                       < select(Game.current_seq).where(Game.id == Notice.game_id).scalar_subquery())
                .values(status="dropped", last_error=STALE_REASON)
                .execution_options(synchronize_session=False),
            )
            due = session.scalars(
                select(Notice).where(or_(
                    and_(Notice.status == "queued", Notice.next_attempt_at <= now),
                    and_(Notice.status == "sending", Notice.claimed_at <= now - LEASE),
                )).order_by(Notice.next_attempt_at, Notice.id).limit(BATCH)
            ).all()
            taken: list[tuple[int, str, str, Notification]] = []
            for notice in due:
                token = secrets.token_hex(16)
                won = rows_changed(
                    session,
                    update(Notice)
                    .where(Notice.id == notice.id, Notice.status == notice.status,
                           Notice.claim_token.is_(None) if notice.claim_token is None
                           else Notice.claim_token == notice.claim_token)
                    .values(status="sending", claim_token=token, claimed_at=now, attempts=Notice.attempts + 1)
                    .execution_options(synchronize_session=False),
                )
                if not won:
                    continue
                url = _target_url(session, notice)
                if url is None:
                    session.execute(update(Notice).where(Notice.id == notice.id).values(
                        status="dropped", last_error="not sent: the address was removed or switched off"))
                    self._dropped += 1
                    continue
                taken.append((notice.id, token, url, Notification(notice.title, notice.body)))
            return taken

    def _record(self, notice_id: int, token: str, result: Result, totals: Sent) -> Sent:
        now = self._clock.now()
        with self._db.write() as session:
            notice = session.scalar(select(Notice).where(Notice.id == notice_id, Notice.claim_token == token))
            if notice is None or notice.status != "sending":
                return totals  # the lease ran out and another worker holds it now
            notice.claim_token = None
            target: NotificationAddress | GameChannel | None = (
                session.get(NotificationAddress, notice.address_id) if notice.address_id is not None
                else session.get(GameChannel, notice.channel_game_id)
            )
            if result.outcome is Outcome.SENT:
                notice.status, notice.sent_at, notice.last_error = "sent", now, None
                if target is not None:
                    target.failures = 0
                return Sent(totals.sent + 1, totals.retried, totals.failed, totals.dropped)
            notice.last_error = result.error
            if result.outcome is Outcome.RETRY and notice.attempts < self._config.max_attempts:
                notice.status, notice.next_attempt_at = "queued", now + self.backoff(notice.attempts)
                return Sent(totals.sent, totals.retried + 1, totals.failed, totals.dropped)
            notice.status = "failed"
            if target is not None:
                target.failures += 1
                target.last_error = result.error
                if target.failures >= self._config.switch_off_after and target.switched_off_at is None:
                    target.switched_off_at = now
                    if isinstance(target, NotificationAddress):
                        self._switched_off(session, target, result.error)
                    else:
                        self._channel_off(session, target, result.error)
            return Sent(totals.sent, totals.retried, totals.failed + 1, totals.dropped)


def _target_url(session: Session, notice: Notice) -> str | None:
    if notice.address_id is not None:
        address = session.get(NotificationAddress, notice.address_id)
        return address.url if address is not None and address.switched_off_at is None else None
    channel = session.get(GameChannel, notice.channel_game_id)
    return channel.url if channel is not None and channel.switched_off_at is None else None


def tell_owner_switched_off(outbox: Outbox, my_games_url: str) -> SwitchedOff:
    """The owner of an address switched off is emailed once, at the mailbox the address belongs to, in the language
    of their newest game's seat (`owners_language`). When it was their last address for turns, the games where they
    chose notifications instead of turn emails go back to turn emails (a turn pending there is emailed now), and the
    email names them."""

    def tell(session: Session, address: NotificationAddress, error: str) -> None:
        back = fall_back(session, address.mailbox, outbox)
        language = owners_language(session, address.mailbox, outbox)
        with in_language(language) if language else nullcontext():  # its subject too
            outbox.enqueue_standalone(
                session, to_address=address.mailbox, kind=NOTIFICATIONS_OFF.kind,
                dedupe_key=NOTIFICATIONS_OFF.key(address.id), subject=NOTIFICATIONS_OFF.subject(),
                context={"shown_as": address.shown_as, "error": error, "my_games_url": my_games_url,
                         "back_to_email": back},
                language=language,
            )

    return tell


def owners_language(session: Session, mailbox: str, outbox: Outbox) -> str | None:
    """The language the player of `mailbox` reads: that of their seat in their newest game (the one they are most
    likely playing now); None for a mailbox with no seat (the server's language then)."""
    seats = seats_of(session, mailbox)
    if not seats:
        return None
    newest = max(seats, key=lambda seat: (seat.game.created_at, seat.game.id))
    return outbox.language_of(newest.game, newest)


def tell_host_channel_off(outbox: Outbox, host_games_url: str) -> ChannelOff:
    """The host of a game whose channel was switched off is emailed once, in the host's conversation about it, with
    the link to the game's host page (`host_games_url`/<game>)."""

    def tell(session: Session, channel: GameChannel, error: str) -> None:
        game = session.get(Game, channel.game_id)
        if game is None:
            return
        outbox.enqueue_to_host(
            session, game=game, kind=HOST_CHANNEL_OFF.kind,
            dedupe_key=HOST_CHANNEL_OFF.key(game.public_id, channel.switched_off_at),
            context={"shown_as": channel.shown_as, "error": error,
                     "host_url": f"{host_games_url}/{game.public_id}"},
        )

    return tell
