"""Invitations to strangers: how much mail a new game may send to mailboxes that never asked for ours.

A mailbox has *confirmed* once its owner has shown that they read our mail and want it
(`pbem/service/confirmed_mailboxes.py` says how).

A new game's emails to mailboxes that have not confirmed count against a daily limit per client address and one for
the whole server (`access.invitations_per_client_per_day`, `access.invitations_per_day`), so whoever may create
games cannot make the server mail an endless list of strangers.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from sqlalchemy.orm import Session

from pbem.config import AccessConfig
from pbem.errors import RateLimited
from pbem.i18n import gettext, ngettext
from pbem.service.confirmed_mailboxes import unconfirmed_mailboxes
from pbem.service.rate_limits import Limit, RateLimiter

DAY = timedelta(days=1)
SERVER = "server"  # the one subject of the server-wide limit


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
            raise RateLimited(ngettext(
                "This game would email %(num)d address that never played here: more than may be invited from here "
                "today. Please try again tomorrow, or invite players who have played here before.",
                "This game would email %(num)d addresses that never played here: more than may be invited from here "
                "today. Please try again tomorrow, or invite players who have played here before.",
                strangers,
            ))
        if not self._limiter.allow(session, self._per_server, SERVER, cost=strangers):
            raise RateLimited(gettext(
                "This server has emailed as many new addresses today as it may. Please try again tomorrow, or invite "
                "players who have played here before."
            ))
