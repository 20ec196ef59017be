"""A player's sign-in to "My games": the host's design (`pbem/service/host/host_access.py`) for every player.

An address entered on the home page gets an emailed link if it holds a seat in some game; the page answers the
same whether or not it does, so the form tells nobody who plays here. Requests are rate limited per client and
per mailbox, so the form cannot fill a stranger's inbox. The link works for an hour and once: the POST behind
its button spends the `player_sign_ins` row (a mail scanner's GET spends nothing), and opens a session, a row of
`player_sessions` named by a random token in the browser's cookie, that lasts `access.player_session_days`.
Signing out ends that row, so a copied cookie is worth nothing after it.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select, update

from pbem.addresses import mailbox_key
from pbem.clock import Clock
from pbem.db import Database
from pbem.errors import BadLink, RateLimited
from pbem.mail.outbox import Outbox
from pbem.models import PlayerSession, PlayerSignIn
from pbem.models.row_writes import rows_changed
from pbem.service.host.invitations import confirm_mailbox
from pbem.service.players.mailboxes import has_a_seat
from pbem.service.rate_limits import Limit, RateLimiter
from pbem.service.text import EMAIL_PATTERN
from pbem.tokens import HostLink, PlayerLinkSigner

SIGN_IN_MAX_AGE = timedelta(hours=1)
PER_MAILBOX = Limit("player_link_mailbox", count=3, window=timedelta(hours=1))
PER_CLIENT = Limit("player_link_client", count=10, window=timedelta(hours=1))
TOO_MANY = "Too many sign-in links were asked for from here. Please wait an hour and try again."
SPENT = "This sign-in link has been used already (each works once). Ask for a new one on the home page."


@dataclass(frozen=True)
class Player:
    """Who is signed in to "My games": the address they signed in with and the mailbox it reaches."""

    email: str
    mailbox: str


@dataclass(frozen=True)
class PlayerSignedIn:
    player: Player
    token: str  # the browser keeps it; the server stores only its SHA-256


def player(email: str) -> Player:
    return Player(email=email, mailbox=mailbox_key(email))


class PlayerAccess:
    def __init__(
        self, db: Database, clock: Clock, signer: PlayerLinkSigner, outbox: Outbox, limiter: RateLimiter,
        session_days: int,
    ) -> None:
        self._db = db
        self._clock = clock
        self._signer = signer
        self._outbox = outbox
        self._limiter = limiter
        self._session_days = session_days

    def request_link(self, email: str, client: str) -> None:
        """Email a sign-in link if this address holds a seat; RateLimited for a noisy client, silence otherwise."""
        address = (email or "").strip()
        with self._db.write() as session:
            if not self._limiter.allow(session, PER_CLIENT, client):
                raise RateLimited(TOO_MANY)
            if not EMAIL_PATTERN.match(address) or len(address) > 320:
                return
            mailbox = mailbox_key(address)
            if not self._limiter.allow(session, PER_MAILBOX, mailbox) or not has_a_seat(session, mailbox):
                return
            nonce = secrets.token_urlsafe(24)
            session.add(PlayerSignIn(nonce_hash=_hash(nonce), email=address, created_at=self._clock.now()))
            self._outbox.enqueue_standalone(
                session,
                to_address=address,
                kind="player_sign_in",
                dedupe_key=f"player_sign_in:{_hash(nonce)[:32]}",
                subject="Your sign-in link to My games - Saboteur",
                context={
                    "link": self._signer.url(HostLink(email=address, nonce=nonce)),
                    "link_minutes": int(SIGN_IN_MAX_AGE.total_seconds() // 60),
                },
            )

    def check_link(self, token: str) -> HostLink:
        """The address a link signs in, without spending it (the GET behind the email's button)."""
        link = self._signer.verify(token)
        with self._db.read() as session:
            record = session.scalar(select(PlayerSignIn).where(PlayerSignIn.nonce_hash == _hash(link.nonce)))
        if record is None or record.email != link.email:
            raise BadLink()
        if record.used_at is not None:
            raise BadLink(SPENT)
        return link

    def sign_in(self, token: str) -> PlayerSignedIn:
        """Spend the link (once, whoever races) and open a session for this browser."""
        link = self._signer.verify(token)
        session_token = secrets.token_urlsafe(32)
        now = self._clock.now()
        with self._db.write() as session:
            spent = rows_changed(
                session,
                update(PlayerSignIn)
                .where(PlayerSignIn.nonce_hash == _hash(link.nonce), PlayerSignIn.email == link.email,
                       PlayerSignIn.used_at.is_(None))
                .values(used_at=now)
                .execution_options(synchronize_session=False)
            )
            if spent != 1:
                raise BadLink(SPENT)
            confirm_mailbox(session, link.email, now)
            mailbox = mailbox_key(link.email)
            session.execute(delete(PlayerSession).where(  # this mailbox's sessions that are over, tidied away
                PlayerSession.mailbox == mailbox,
                (PlayerSession.ended_at.is_not(None)) | (PlayerSession.created_at < self._oldest_live(now)),
            ))
            session.add(PlayerSession(token_hash=_hash(session_token), email=link.email, mailbox=mailbox,
                                      created_at=now))
        return PlayerSignedIn(player(link.email), session_token)

    def player_for(self, session_token: str) -> Player | None:
        """Who a browser's session token signs in: None once it was signed out or grew too old."""
        with self._db.read() as session:
            email = session.scalar(select(PlayerSession.email).where(
                PlayerSession.token_hash == _hash(session_token),
                PlayerSession.ended_at.is_(None),
                PlayerSession.created_at >= self._oldest_live(self._clock.now()),
            ))
        return None if email is None else player(email)

    def sign_out(self, session_token: str) -> None:
        """End this browser's session (another browser's stays)."""
        with self._db.write() as session:
            session.execute(
                update(PlayerSession)
                .where(PlayerSession.token_hash == _hash(session_token), PlayerSession.ended_at.is_(None))
                .values(ended_at=self._clock.now())
                .execution_options(synchronize_session=False)
            )

    def _oldest_live(self, now: datetime) -> datetime:
        return now - timedelta(days=self._session_days)


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
