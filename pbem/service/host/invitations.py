"""Invitations to strangers: how much mail a new game may send to mailboxes that never asked for ours.

A mailbox (case and plus-tag folded, `pbem.addresses.mailbox_key`) has *confirmed* once its owner has shown
that they read our mail and want it, by one of:
- reporting a visit to their seat's page (the page's script posts it, with the seat's link: a GET never counts);
- signing in as a host with an emailed host link (the POST that spends it);
- a reply by email that was posted to a game's chat.
Opening an unsubscribe link does not count, nor does receiving mail. Confirmation is kept for good.

A new game's emails to mailboxes that have not confirmed count against a daily limit per client address and one for
the whole server (`access.invitations_per_client_per_day`, `access.invitations_per_day`), so whoever may create
games cannot make the server mail an endless list of strangers.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from pbem.addresses import mailbox_key
from pbem.config import AccessConfig
from pbem.errors import RateLimited
from pbem.models import ConfirmedMailbox
from pbem.service.rate_limits import Limit, RateLimiter

DAY = timedelta(days=1)
SERVER = "server"  # the one subject of the server-wide limit
TOO_MANY_FROM_HERE = (
    "This game would email {count} that never played here: more than may be invited from here today. Please try "
    "again tomorrow, or invite players who have played here before."
)
TOO_MANY_TODAY = (
    "This server has emailed as many new addresses today as it may. Please try again tomorrow, or invite players "
    "who have played here before."
)


def confirm_mailbox(session: Session, address: str | None, now: datetime) -> None:
    """Remember, in the caller's transaction, that the owner of `address` reads our mail (kept once, for good)."""
    if not address or "@" not in address:
        return
    insert = postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert
    session.execute(
        insert(ConfirmedMailbox)
        .values(mailbox=mailbox_key(address)[:320], confirmed_at=now)
        .on_conflict_do_nothing(index_elements=[ConfirmedMailbox.mailbox])
    )


def unconfirmed_mailboxes(session: Session, addresses: Iterable[str]) -> set[str]:
    """The distinct mailboxes among `addresses` that have never confirmed."""
    wanted = {mailbox_key(address) for address in addresses if address}
    if not wanted:
        return set()
    confirmed = set(session.scalars(select(ConfirmedMailbox.mailbox).where(ConfirmedMailbox.mailbox.in_(wanted))))
    return wanted - confirmed


class InvitationLimits:
    def __init__(self, limiter: RateLimiter, access: AccessConfig) -> None:
        self._limiter = limiter
        self._per_client = Limit("invitations_client", count=access.invitations_per_client_per_day, window=DAY)
        self._per_server = Limit("invitations_server", count=access.invitations_per_day, window=DAY)

    def count(self, session: Session, addresses: Iterable[str], client: str) -> None:
        """Count the mail to unconfirmed mailboxes among `addresses`; RateLimited (and nothing counted, once the
        caller's transaction rolls back) past either daily limit."""
        strangers = len(unconfirmed_mailboxes(session, addresses))
        if not strangers:
            return
        if not self._limiter.allow(session, self._per_client, client, cost=strangers):
            raise RateLimited(TOO_MANY_FROM_HERE.format(
                count="1 address" if strangers == 1 else f"{strangers} addresses"
            ))
        if not self._limiter.allow(session, self._per_server, SERVER, cost=strangers):
            raise RateLimited(TOO_MANY_TODAY)
