"""Confirmed mailboxes: those whose owner has shown that they read our mail and want it.

A mailbox (case and plus-tag folded, `pbem.addresses.mailbox_key`) has *confirmed* by one of:
- reporting a visit to their seat's page (the page's script posts it, with the seat's link: a GET never counts);
- signing in as a host with an emailed host link (the POST that spends it);
- a reply by email that was posted to a game's chat.
Opening an unsubscribe link does not count, nor does receiving mail. Confirmation is kept for good.
Rows only, in the caller's transaction: seats, sign-in, replies and invitations all stand on it.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from pbem.addresses import mailbox_key
from pbem.models import ConfirmedMailbox


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
