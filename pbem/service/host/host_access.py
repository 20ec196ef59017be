"""Host sign-in without passwords: an emailed host link, spent once, then a session that lasts days.

Who may host comes from the configuration (`access.game_creators`, `creator_domains`, `admin_emails`), except
where no email leaves the machine (development with the mail catcher, as `make run` starts it): there anyone may,
so a newcomer can host a game without writing a file. Anyone who already hosts a game may sign in to look after
it. The mechanics (one-use links, server-side sessions, rate limits per client and per mailbox, a form that tells
nobody who hosts here) are every audience's (`pbem/service/sign_in.py`); the host's are the tables
`host_sign_ins` and `host_sessions`, the host link salt, these limits and words.

A link is bound to one browser session by being one-use: the browser that presses "continue" spends it and gets
the session cookie; every later use is refused. We chose this over a nonce in the requesting browser's cookie
because hosts often ask on a computer and open the email on a phone: the one-use record keeps a leaked or
forwarded link from signing in a second browser without tying the link to the browser that asked.

Signing out ends this browser's session, "sign out everywhere" ends every session of the host's mailbox, and a
session older than `access.host_session_days` no longer signs anyone in. A copied cookie is worth nothing once
its session has ended.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import exists, func, select
from sqlalchemy.orm import Session

from pbem.addresses import address_key
from pbem.clock import Clock
from pbem.config import AccessConfig
from pbem.db import Database
from pbem.mail.outbox import Outbox
from pbem.models import Game, HostSessionRecord, HostSignIn
from pbem.service.emails import HOST_LINK
from pbem.service.rate_limits import Limit, RateLimiter
from pbem.service.sign_in import Audience, SignIns
from pbem.tokens import HostLinkSigner
from pbem.words.table import N_

HOST_LINK_MAX_AGE = timedelta(hours=1)
PER_ADDRESS = Limit("host_link_address", count=3, window=timedelta(hours=1))
PER_CLIENT = Limit("host_link_client", count=10, window=timedelta(hours=1))
# Said where they are raised (pbem/service/sign_in.py) in English, and in the host's language on the host's pages.
TOO_MANY = N_("Too many host links were asked for from here. Please wait an hour and try again.")
SPENT = N_("This host link has been used already (each works once). Ask for a new one on the host page.")


@dataclass(frozen=True)
class HostSession:
    """Who is signed in on the host pages, and whether they see every game."""

    email: str
    is_admin: bool


class HostAccess(SignIns):
    def __init__(
        self, db: Database, clock: Clock, signer: HostLinkSigner, outbox: Outbox, limiter: RateLimiter,
        access: AccessConfig, *, anyone_may_create: bool = False,
    ) -> None:
        self.access = access
        self.anyone_may_create = anyone_may_create
        super().__init__(db, clock, signer, outbox, limiter, Audience(
            may_sign_in=self._may_host, links=HostSignIn, sessions=HostSessionRecord, per_client=PER_CLIENT,
            per_mailbox=PER_ADDRESS, too_many=TOO_MANY, spent=SPENT, letter=HOST_LINK,
            link_max_age=HOST_LINK_MAX_AGE, session_days=access.host_session_days,
        ))

    def host_for(self, session_token: str) -> HostSession | None:
        """Who a browser's session token signs in: None once it was signed out, ended everywhere or grew too old."""
        email = self.email_for(session_token)
        return None if email is None else self.session_for(email)

    def session_for(self, email: str) -> HostSession:
        return HostSession(email=email, is_admin=self.access.is_admin(email))

    def may_create_games(self, email: str) -> bool:
        """Whether this address may host a new game: anyone where mail stays on this machine, else whom the
        configuration names."""
        return self.anyone_may_create or self.access.may_create_games(email)

    def _may_host(self, session: Session, address: str) -> bool:
        """Whoever may create games, and anyone who already hosts a game."""
        hosts_a_game = session.scalar(select(exists().where(func.lower(Game.host_email) == address_key(address))))
        return self.may_create_games(address) or bool(hosts_a_game)
