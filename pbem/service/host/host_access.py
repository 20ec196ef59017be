"""Host sign-in without passwords: an emailed host link, spent once, then a session that lasts days.

Who may host comes from the configuration (`access.game_creators`, `creator_domains`, `admin_emails`);
anyone who already hosts a game may sign in to look after it. A request for a link answers the same
whether or not a link was sent, so the form tells nobody which addresses host here; it is rate limited per
address and per client so it cannot be used to fill a stranger's inbox.

A link is bound to one browser session by being one-use (table `host_sign_ins`): the browser that presses
"continue" spends it and gets the session cookie; every later use is refused. We chose this over a nonce in
the requesting browser's cookie because hosts often ask on a computer and open the email on a phone: the
one-use record keeps a leaked or forwarded link from signing in a second browser without tying the link
to the browser that asked.

A signed-in browser is a row of `host_sessions`, named by a random token in its cookie: signing out ends that
row, "sign out everywhere" ends every row of the host's mailbox, and a row older than
`access.host_session_days` no longer signs anyone in. A copied cookie is worth nothing once its row has ended.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, exists, func, select, update

from pbem.addresses import mailbox_key
from pbem.clock import Clock
from pbem.config import AccessConfig
from pbem.db import Database
from pbem.errors import BadLink, RateLimited
from pbem.mail.outbox import Outbox
from pbem.models import Game, HostSessionRecord, HostSignIn
from pbem.models.row_writes import rows_changed
from pbem.service.host.invitations import confirm_mailbox
from pbem.service.rate_limits import Limit, RateLimiter
from pbem.service.text import EMAIL_PATTERN
from pbem.tokens import HostLink, HostLinkSigner

HOST_LINK_MAX_AGE = timedelta(hours=1)
PER_ADDRESS = Limit("host_link_address", count=3, window=timedelta(hours=1))
PER_CLIENT = Limit("host_link_client", count=10, window=timedelta(hours=1))
TOO_MANY = "Too many host links were asked for from here. Please wait an hour and try again."
SPENT = "This host link has been used already (each works once). Ask for a new one on the host page."


@dataclass(frozen=True)
class HostSession:
    """Who is signed in on the host pages, and whether they see every game."""

    email: str
    is_admin: bool


@dataclass(frozen=True)
class SignedIn:
    """A new session: who it signs in, and the random token its browser keeps (stored here only hashed)."""

    host: HostSession
    token: str


def normal_email(email: str) -> str:
    return email.strip().casefold()


class HostAccess:
    def __init__(
        self, db: Database, clock: Clock, signer: HostLinkSigner, outbox: Outbox, limiter: RateLimiter,
        access: AccessConfig,
    ) -> None:
        self._db = db
        self._clock = clock
        self._signer = signer
        self._outbox = outbox
        self._limiter = limiter
        self.access = access

    def request_link(self, email: str, client: str) -> None:
        """Email a host link if this address may host; RateLimited for a noisy client, silence otherwise."""
        address = (email or "").strip()
        with self._db.write() as session:
            if not self._limiter.allow(session, PER_CLIENT, client):
                raise RateLimited(TOO_MANY)
            if not EMAIL_PATTERN.match(address) or len(address) > 320:
                return
            if not self._limiter.allow(session, PER_ADDRESS, mailbox_key(address)):
                return
            hosts_a_game = session.scalar(select(exists().where(func.lower(Game.host_email) == normal_email(address))))
            if not (self.access.may_create_games(address) or hosts_a_game):
                return
            nonce = secrets.token_urlsafe(24)
            now = self._clock.now()
            session.add(HostSignIn(nonce_hash=_hash(nonce), email=address, created_at=now))
            self._outbox.enqueue_standalone(
                session,
                to_address=address,
                kind="host_link",
                dedupe_key=f"host_link:{_hash(nonce)[:32]}",
                subject="Your host link - Saboteur",
                context={
                    "link": self._signer.url(HostLink(email=address, nonce=nonce)),
                    "link_minutes": int(HOST_LINK_MAX_AGE.total_seconds() // 60),
                },
            )

    def check_link(self, token: str) -> HostLink:
        """The address a link signs in, without spending it (the GET behind the email's button)."""
        link = self._signer.verify(token)
        with self._db.read() as session:
            record = session.scalar(select(HostSignIn).where(HostSignIn.nonce_hash == _hash(link.nonce)))
            if record is None or record.email != link.email:
                raise BadLink()
            if record.used_at is not None:
                raise BadLink(SPENT)
        return link

    def sign_in(self, token: str) -> SignedIn:
        """Spend the link (once, whoever races) and open a session for this browser."""
        link = self._signer.verify(token)
        session_token = secrets.token_urlsafe(32)
        now = self._clock.now()
        with self._db.write() as session:
            spent = rows_changed(
                session,
                update(HostSignIn)
                .where(HostSignIn.nonce_hash == _hash(link.nonce), HostSignIn.email == link.email,
                       HostSignIn.used_at.is_(None))
                .values(used_at=self._clock.now())
                .execution_options(synchronize_session=False)
            )
            if spent != 1:
                raise BadLink(SPENT)
            confirm_mailbox(session, link.email, now)
            mailbox = mailbox_key(link.email)
            session.execute(delete(HostSessionRecord).where(  # this mailbox's sessions that are over, tidied away
                HostSessionRecord.mailbox == mailbox,
                (HostSessionRecord.ended_at.is_not(None)) | (HostSessionRecord.created_at < self._oldest_live(now)),
            ))
            session.add(HostSessionRecord(token_hash=_hash(session_token), email=link.email, mailbox=mailbox,
                                          created_at=now))
        return SignedIn(self.session_for(link.email), session_token)

    def host_for(self, session_token: str) -> HostSession | None:
        """Who a browser's session token signs in: None once it was signed out, ended everywhere or grew too old."""
        with self._db.read() as session:
            email = session.scalar(select(HostSessionRecord.email).where(
                HostSessionRecord.token_hash == _hash(session_token),
                HostSessionRecord.ended_at.is_(None),
                HostSessionRecord.created_at >= self._oldest_live(self._clock.now()),
            ))
        return None if email is None else self.session_for(email)

    def sign_out(self, session_token: str) -> None:
        """End this browser's session (another browser's stays)."""
        with self._db.write() as session:
            session.execute(
                update(HostSessionRecord)
                .where(HostSessionRecord.token_hash == _hash(session_token), HostSessionRecord.ended_at.is_(None))
                .values(ended_at=self._clock.now())
                .execution_options(synchronize_session=False)
            )

    def sign_out_everywhere(self, host: HostSession) -> int:
        """End every session of the host's mailbox, in every browser; how many were live."""
        with self._db.write() as session:
            ended = rows_changed(
                session,
                update(HostSessionRecord)
                .where(HostSessionRecord.mailbox == mailbox_key(host.email), HostSessionRecord.ended_at.is_(None))
                .values(ended_at=self._clock.now())
                .execution_options(synchronize_session=False)
            )
        return ended

    def session_for(self, email: str) -> HostSession:
        return HostSession(email=email, is_admin=self.access.is_admin(email))

    def _oldest_live(self, now: datetime) -> datetime:
        return now - timedelta(days=self.access.host_session_days)


def _hash(nonce: str) -> str:
    return hashlib.sha256(nonce.encode()).hexdigest()
