"""Sign-in without passwords, the mechanics every audience shares (hosts: `host/host_access.py`; players:
`players/access.py`): an emailed link spent once, then a server-side session named by a random token.

An audience brings its own tables, signer (its own salt), rate limits, wording and the rule for who may sign
in; this module asks for a link, checks and spends it, and opens, finds and ends sessions in those tables.
A request for a link answers the same whether or not a link was sent, so the form tells nobody who is known
here, and costs the same: the same statements run and the same email is rendered either way, and only whether
the address may sign in decides whether they write a row. It is rate limited per client and per mailbox (every
address asked about is counted, known or not), so it cannot be used to fill a stranger's inbox; a mailbox asked
for too often is told so, the same way whoever it belongs to.
The database keeps only SHA-256 digests of link nonces and session tokens.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from pbem.addresses import address_mistake, mailbox_key
from pbem.clock import Clock
from pbem.db import Database
from pbem.errors import BadLink, RateLimited
from pbem.i18n import gettext
from pbem.mail.outbox import Outbox
from pbem.models.row_writes import insert_row_if, rows_changed
from pbem.models.sign_ins import SignedInBrowserRow, SignInLinkRow
from pbem.service.confirmed_mailboxes import confirm_mailbox
from pbem.service.emails import OwnLetter
from pbem.service.rate_limits import Limit, RateLimiter
from pbem.tokens import HostLink, HostLinkSigner


@dataclass(frozen=True)
class Audience:
    """One audience's sign-in: who may ask for a link, its tables, limits, link email and the words it shows."""

    may_sign_in: Callable[[Session, str], bool]  # whether a well-formed address gets a link
    links: type[SignInLinkRow]
    sessions: type[SignedInBrowserRow]
    per_client: Limit
    per_mailbox: Limit
    too_many: str  # a client that asked too often (marked with N_, translated when said)
    spent: str  # a link used already (the same)
    letter: OwnLetter  # the link's email
    link_max_age: timedelta
    session_days: int


class LinkRequest(Enum):
    """What a request for a link came to, in what the page may say: never whether the address is known here."""

    ANSWERED = "answered"  # a link was emailed if the address may sign in
    ASKED_OFTEN = "asked_often"  # this mailbox was asked for too often lately: nothing was sent this time


@dataclass(frozen=True)
class OpenedSession:
    """A new session: the address it signs in, and the random token its browser keeps (stored only hashed)."""

    email: str
    token: str


class SignIns:
    """One audience's sign-in; an audience's access service builds on it (`HostAccess`, `PlayerAccess`)."""

    def __init__(
        self, db: Database, clock: Clock, signer: HostLinkSigner, outbox: Outbox, limiter: RateLimiter,
        audience: Audience,
    ) -> None:
        self._db = db
        self._clock = clock
        self._signer = signer
        self._outbox = outbox
        self._limiter = limiter
        self._audience = audience

    def request_link(self, email: str, client: str) -> LinkRequest:
        """Email a link if the audience lets this address sign in; RateLimited for a noisy client, ASKED_OFTEN for
        a mailbox asked for too often (whether or not it is known here)."""
        audience = self._audience
        address = (email or "").strip()
        with self._db.write() as session:
            if not self._limiter.allow(session, audience.per_client, client):
                raise RateLimited(gettext(str(audience.too_many)))
            if address_mistake(address):
                return LinkRequest.ANSWERED
            if not self._limiter.allow(session, audience.per_mailbox, mailbox_key(address)):
                return LinkRequest.ASKED_OFTEN
            self._link_if(session, address, audience.may_sign_in(session, address))
        return LinkRequest.ANSWERED

    def _link_if(self, session: Session, address: str, wanted: bool) -> None:
        """A link and its email, made the same way whether or not it is `wanted`, which alone decides whether they
        are written: so the time a request takes tells nobody who may sign in."""
        audience = self._audience
        nonce = secrets.token_urlsafe(24)
        link = {"nonce_hash": digest(nonce), "email": address, "created_at": self._clock.now(), "used_at": None}
        insert_row_if(session, audience.links, link, wanted)
        self._outbox.enqueue_standalone_if(
            session,
            wanted,
            to_address=address,
            kind=audience.letter.kind,
            dedupe_key=audience.letter.key(digest(nonce)[:32]),
            subject=audience.letter.subject(),
            context={
                "link": self._signer.url(HostLink(email=address, nonce=nonce)),
                "link_minutes": int(audience.link_max_age.total_seconds() // 60),
            },
        )

    def check_link(self, token: str) -> HostLink:
        """The address a link signs in, without spending it (the GET behind the email's button)."""
        links = self._audience.links
        link = self._signer.verify(token)
        with self._db.read() as session:
            record = session.scalar(select(links).where(links.nonce_hash == digest(link.nonce)))
            if record is None or record.email != link.email:
                raise BadLink()
            if record.used_at is not None:
                raise BadLink(gettext(str(self._audience.spent)))
        return link

    def sign_in(self, token: str) -> OpenedSession:
        """Spend the link (once, whoever races) and open a session for this browser."""
        links, sessions = self._audience.links, self._audience.sessions
        link = self._signer.verify(token)
        session_token = secrets.token_urlsafe(32)
        now = self._clock.now()
        with self._db.write() as session:
            spent = rows_changed(
                session,
                update(links)
                .where(links.nonce_hash == digest(link.nonce), links.email == link.email, links.used_at.is_(None))
                .values(used_at=now)
                .execution_options(synchronize_session=False)
            )
            if spent != 1:
                raise BadLink(gettext(str(self._audience.spent)))
            confirm_mailbox(session, link.email, now)
            mailbox = mailbox_key(link.email)
            session.execute(delete(sessions).where(  # this mailbox's sessions that are over, tidied away
                sessions.mailbox == mailbox,
                (sessions.ended_at.is_not(None)) | (sessions.created_at < self._oldest_live(now)),
            ))
            session.add(sessions(token_hash=digest(session_token), email=link.email, mailbox=mailbox,
                                 created_at=now))
        return OpenedSession(link.email, session_token)

    def email_for(self, session_token: str) -> str | None:
        """Who a browser's session token signs in: None once it was signed out, ended everywhere or grew too old."""
        sessions = self._audience.sessions
        with self._db.read() as session:
            return session.scalar(select(sessions.email).where(
                sessions.token_hash == digest(session_token),
                sessions.ended_at.is_(None),
                sessions.created_at >= self._oldest_live(self._clock.now()),
            ))

    def sign_out(self, session_token: str) -> None:
        """End this browser's session (another browser's stays)."""
        sessions = self._audience.sessions
        with self._db.write() as session:
            session.execute(
                update(sessions)
                .where(sessions.token_hash == digest(session_token), sessions.ended_at.is_(None))
                .values(ended_at=self._clock.now())
                .execution_options(synchronize_session=False)
            )

    def sign_out_everywhere(self, email: str) -> int:
        """End every session of the address's mailbox, in every browser; how many were live."""
        sessions = self._audience.sessions
        with self._db.write() as session:
            ended = rows_changed(
                session,
                update(sessions)
                .where(sessions.mailbox == mailbox_key(email), sessions.ended_at.is_(None))
                .values(ended_at=self._clock.now())
                .execution_options(synchronize_session=False)
            )
        return ended

    def _oldest_live(self, now: datetime) -> datetime:
        return now - timedelta(days=self._audience.session_days)


def digest(secret: str) -> str:
    """The SHA-256 a table keeps in place of a link's nonce or a session's token."""
    return hashlib.sha256(secret.encode()).hexdigest()
