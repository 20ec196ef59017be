""" "Email me a fresh link": the one way back into a game for a player whose link has expired.

The request carries the old token. A fresh link is queued (in the outbox, in the same transaction as the
rate-limit count) only when that token is authentic, merely too old, and its seat's token version is still
current: a forged or revoked link, a computer seat, or a seat or mailbox that was sent many already gets nothing.
The page says which of these it is, so nobody waits for a link that will not come: only the holder of an authentic
link learns anything (about that seat alone), and nothing about who holds it now or at which address.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from enum import Enum

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from pbem.addresses import mailbox_key
from pbem.clock import Clock
from pbem.db import Database
from pbem.errors import BadLink, ExpiredLink, RateLimited
from pbem.i18n import gettext
from pbem.mail.outbox import Outbox
from pbem.models import Game, HostAction, Seat
from pbem.seat_link import SeatLink
from pbem.service.emails import FRESH_LINK
from pbem.service.rate_limits import Limit, RateLimiter
from pbem.tokens import LinkSigner
from pbem.words.table import N_

# Generous for a person who lost an email, useless for filling someone's inbox.
PER_SEAT = Limit("fresh_link_seat", count=3, window=timedelta(hours=24))
# One mailbox (case and plus-tag folded) may hold seats in many games: their requests together stay few.
PER_ADDRESS = Limit("fresh_link_address", count=6, window=timedelta(hours=24))
# Every request counts, valid or not, so guessing tokens from one address stops quickly.
PER_CLIENT = Limit("fresh_link_client", count=10, window=timedelta(hours=1))

TOO_MANY = N_("Too many fresh links were asked for from here. Please wait an hour and try again.")
# The host's actions that move a seat's token version on by one (from 1, when the seat is made), as the audit log
# records them (pbem/service/host/moderation.py).
NEW_LINK_ACTIONS = ("replace_player", "rotate_link", "correct_email")


class FreshLink(Enum):
    """What a link that no longer opens its seat may still bring, as its page tells it."""

    MAY_ASK = "may_ask"  # expired, its seat still current: a fresh link can be emailed to the seat's address
    SENT = "sent"  # a fresh link was queued to the seat's address
    ASKED_OFTEN = "asked_often"  # the seat or its mailbox was sent a few today already: none this time
    SEAT_CHANGED_HANDS = "seat_changed_hands"  # the host gave the seat to someone else since this link
    NEWER_LINK = "newer_link"  # the seat was sent a newer link since this one (renewed, moved or given away)
    NONE = "none"  # forged or damaged, no such seat, a computer's seat: nothing can be sent


class FreshLinks:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        links: LinkSigner,
        outbox: Outbox,
        limiter: RateLimiter,
        link_max_age_days: int,
    ) -> None:
        self._db = db
        self._clock = clock
        self._links = links
        self._outbox = outbox
        self._limiter = limiter
        self._link_max_age_days = link_max_age_days

    def look(self, token: str) -> FreshLink:
        """What asking for a fresh link with `token` would bring (the "no longer valid" page), without asking."""
        with self._db.read() as session:
            return self._fate(session, token)[0]

    def request(self, token: str, client: str) -> FreshLink:
        """Queue a fresh link for the seat of an expired `token`, if it may have one (SENT), and otherwise say why
        not; RateLimited for a noisy client."""
        with self._db.write() as session:
            if not self._limiter.allow(session, PER_CLIENT, client):
                raise RateLimited(gettext(TOO_MANY))
            fate, seat = self._fate(session, token)
            if seat is None:
                return fate
            if not self._limiter.allow(session, PER_SEAT, f"{seat.game.public_id}:{seat.seat_index}"):
                return FreshLink.ASKED_OFTEN
            if not self._limiter.allow(session, PER_ADDRESS, mailbox_key(seat.email or "")):
                return FreshLink.ASKED_OFTEN
            fresh = SeatLink(game_id=seat.game.public_id, seat=seat.seat_index, version=seat.token_version)
            self._outbox.enqueue(
                session,
                game=seat.game,
                seat=seat,
                kind=FRESH_LINK.kind,
                # Each request is its own email; the per-seat limit, not the key, keeps their number down.
                dedupe_key=FRESH_LINK.key(seat.game.public_id, seat.seat_index, secrets.token_hex(8)),
                context={"link": self._links.url(fresh), "link_max_age_days": self._link_max_age_days},
            )
        return FreshLink.SENT

    def _fate(self, session: Session, token: str) -> tuple[FreshLink, Seat | None]:
        """What `token` may bring, and the seat a fresh link would go to (None unless MAY_ASK)."""
        claimed, expired = _authentic(self._links, token)
        seat = None if claimed is None else _seat(session, claimed)
        if claimed is None or seat is None:
            return FreshLink.NONE, None
        if seat.token_version != claimed.version:
            changed_hands = _changed_hands_since(session, seat, claimed.version)
            return (FreshLink.SEAT_CHANGED_HANDS if changed_hands else FreshLink.NEWER_LINK), None
        if not expired or seat.is_bot or seat.email is None:
            return FreshLink.NONE, None
        return FreshLink.MAY_ASK, seat


def _authentic(links: LinkSigner, token: str) -> tuple[SeatLink | None, bool]:
    """The seat an authentic token names (None for a forged or damaged one), and whether it is too old."""
    try:
        return links.verify(token), False
    except ExpiredLink as expired:
        return expired.link, True
    except BadLink:
        return None, False


def _seat(session: Session, claimed: SeatLink) -> Seat | None:
    return session.scalar(
        select(Seat)
        .join(Game)
        .where(Game.public_id == claimed.game_id, Seat.seat_index == claimed.seat)
        .options(selectinload(Seat.game))
    )


def _changed_hands_since(session: Session, seat: Seat, version: int) -> bool:
    """Whether the host gave the seat to someone else after the link of `version` was sent: the audit log's actions
    that renewed the seat's link, from the one that ended `version` on. Unsure (a log that does not account for
    every version) counts as no."""
    actions = session.execute(
        select(HostAction.action, HostAction.details)
        .where(HostAction.game_id == seat.game_id, HostAction.action.in_(NEW_LINK_ACTIONS))
        .order_by(HostAction.id)
    ).all()
    renewals = [action for action, details in actions if details.get("seat") == seat.seat_index]
    if len(renewals) != seat.token_version - 1:
        return False
    return "replace_player" in renewals[max(version - 1, 0):]
