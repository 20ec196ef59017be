"""A player's sign-in to "My games": the host's design for every player, through the shared mechanics of
`pbem/service/sign_in.py` in the player's own tables, salt, limits and words.

An address entered on the home page gets an emailed link if it holds a seat in some game; the page answers the
same whether or not it does, so the form tells nobody who plays here. Requests are rate limited per client and
per mailbox, so the form cannot fill a stranger's inbox. The link works for an hour and once: the POST behind
its button spends the `player_sign_ins` row (a mail scanner's GET spends nothing), and opens a session, a row of
`player_sessions` named by a random token in the browser's cookie, that lasts `access.player_session_days`.
Signing out ends that row, so a copied cookie is worth nothing after it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy.orm import Session

from pbem.addresses import mailbox_key
from pbem.clock import Clock
from pbem.db import Database
from pbem.mail.outbox import Outbox
from pbem.models import PlayerSession, PlayerSignIn
from pbem.service.emails import PLAYER_SIGN_IN
from pbem.service.players.mailboxes import has_a_seat
from pbem.service.rate_limits import Limit, RateLimiter
from pbem.service.sign_in import Audience, SignIns
from pbem.tokens import PlayerLinkSigner
from pbem.words.table import N_

SIGN_IN_MAX_AGE = timedelta(hours=1)
PER_MAILBOX = Limit("player_link_mailbox", count=3, window=timedelta(hours=1))
PER_CLIENT = Limit("player_link_client", count=10, window=timedelta(hours=1))
TOO_MANY = N_("Too many sign-in links were asked for from here. Please wait an hour and try again.")
SPENT = N_("This sign-in link has been used already (each works once). Ask for a new one on the home page.")


@dataclass(frozen=True)
class Player:
    """Who is signed in to "My games": the address they signed in with and the mailbox it reaches."""

    email: str
    mailbox: str


def player(email: str) -> Player:
    return Player(email=email, mailbox=mailbox_key(email))


class PlayerAccess(SignIns):
    def __init__(
        self, db: Database, clock: Clock, signer: PlayerLinkSigner, outbox: Outbox, limiter: RateLimiter,
        session_days: int,
    ) -> None:
        super().__init__(db, clock, signer, outbox, limiter, Audience(
            may_sign_in=_holds_a_seat, links=PlayerSignIn, sessions=PlayerSession, per_client=PER_CLIENT,
            per_mailbox=PER_MAILBOX, too_many=TOO_MANY, spent=SPENT, letter=PLAYER_SIGN_IN,
            link_max_age=SIGN_IN_MAX_AGE, session_days=session_days,
        ))

    def player_for(self, session_token: str) -> Player | None:
        """Who a browser's session token signs in: None once it was signed out or grew too old."""
        email = self.email_for(session_token)
        return None if email is None else player(email)


def _holds_a_seat(session: Session, address: str) -> bool:
    """Only an address that holds a seat in some game gets a link."""
    return has_a_seat(session, mailbox_key(address))
