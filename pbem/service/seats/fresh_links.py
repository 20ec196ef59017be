""" "Email me a fresh link": the one way back into a game for a player whose link has expired.

The request carries the old token. A fresh link is queued (in the outbox, in the same transaction as the
rate-limit count) only when that token is authentic, merely too old, and its seat's token version is still
current: a forged or revoked link, a computer seat, or a seat or mailbox that was sent many already gets nothing.
Whatever happens the caller learns nothing, except that one client address has asked too often overall.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from pbem.addresses import mailbox_key
from pbem.clock import Clock
from pbem.db import Database
from pbem.errors import BadLink, ExpiredLink, RateLimited
from pbem.mail.outbox import Outbox, dedupe_key
from pbem.models import Game, Seat
from pbem.service.rate_limits import Limit, RateLimiter
from pbem.tokens import LinkSigner, SeatLink

# Generous for a person who lost an email, useless for filling someone's inbox.
PER_SEAT = Limit("fresh_link_seat", count=3, window=timedelta(hours=24))
# One mailbox (case and plus-tag folded) may hold seats in many games: their requests together stay few.
PER_ADDRESS = Limit("fresh_link_address", count=6, window=timedelta(hours=24))
# Every request counts, valid or not, so guessing tokens from one address stops quickly.
PER_CLIENT = Limit("fresh_link_client", count=10, window=timedelta(hours=1))

TOO_MANY = "Too many fresh links were asked for from here. Please wait an hour and try again."


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

    def request(self, token: str, client: str) -> None:
        """Queue a fresh link for the seat of an expired `token`, if it may have one; RateLimited for a noisy client."""
        with self._db.write() as session:
            if not self._limiter.allow(session, PER_CLIENT, client):
                raise RateLimited(TOO_MANY)
            expired = _merely_expired(self._links, token)
            if expired is None:
                return
            seat = _current_seat(session, expired)
            if seat is None or seat.is_bot or seat.email is None:
                return
            if not self._limiter.allow(session, PER_SEAT, f"{seat.game.public_id}:{seat.seat_index}"):
                return
            if not self._limiter.allow(session, PER_ADDRESS, mailbox_key(seat.email)):
                return
            fresh = SeatLink(game_id=seat.game.public_id, seat=seat.seat_index, version=seat.token_version)
            self._outbox.enqueue(
                session,
                game=seat.game,
                seat=seat,
                kind="fresh_link",
                # Each request is its own email; the per-seat limit, not the key, keeps their number down.
                dedupe_key=dedupe_key("fresh_link", seat.game.public_id, seat.seat_index, secrets.token_hex(8)),
                context={"link": self._links.url(fresh), "link_max_age_days": self._link_max_age_days},
            )


def _merely_expired(links: LinkSigner, token: str) -> SeatLink | None:
    """The seat an authentic but expired token names; None for a forged token or one that is still valid."""
    try:
        links.verify(token)
    except ExpiredLink as expired:
        return expired.link
    except BadLink:
        return None
    return None


def _current_seat(session: Session, claimed: SeatLink) -> Seat | None:
    """The seat, if the token's version is still its version (a revoked link gets nothing)."""
    seat = session.scalar(
        select(Seat)
        .join(Game)
        .where(Game.public_id == claimed.game_id, Seat.seat_index == claimed.seat)
        .options(selectinload(Seat.game))
    )
    if seat is None or seat.token_version != claimed.version:
        return None
    return seat
