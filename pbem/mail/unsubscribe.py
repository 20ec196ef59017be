"""RFC 8058 one-click unsubscribe: a signed link that switches one seat to the daily digest.

"Unsubscribe" never takes anyone out of a game: it only replaces the email for every turn with one
daily digest. The token names the game, the seat and a digest of the address it was mailed to, so it
stops working when the seat's address changes (a replaced player, a corrected address) and cannot
change anyone else's mail. It does not expire: an old email's unsubscribe link should still work.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem.addresses import address_key
from pbem.db import Database
from pbem.errors import BadLink
from pbem.models import Game, Seat

UNSUBSCRIBE_SALT = "pbem.mail.unsubscribe"
DIGEST_MODE = "digest"
NOTICES_MODE = "notices"  # notifications instead of turn emails (pbem/service/players/notices_instead.py)


@dataclass(frozen=True)
class UnsubscribeClaim:
    game_id: str
    seat: int
    address_digest: str


@dataclass(frozen=True)
class SeatPreference:
    """What the confirm page shows: whose mail this is and how it arrives now."""

    game_title: str
    seat_name: str
    notify_mode: str


def address_digest(address: str) -> str:
    """Binds a token to a mailbox without putting the address itself into URLs and logs."""
    return hashlib.sha256(address_key(address).encode()).hexdigest()[:16]


class UnsubscribeLinks:
    def __init__(self, secret_keys: tuple[str, ...], base_url: str) -> None:
        if not secret_keys:
            raise ValueError("at least one secret key is needed to sign unsubscribe links")
        # Signs with the newest key (itsdangerous uses the last) and accepts every configured one.
        self._serializer = URLSafeSerializer(list(reversed(secret_keys)), salt=UNSUBSCRIBE_SALT)
        self._base_url = base_url.rstrip("/")

    def token(self, game_id: str, seat: int, address: str) -> str:
        return self._serializer.dumps({"g": game_id, "s": seat, "a": address_digest(address)})

    def url(self, game_id: str, seat: int, address: str) -> str:
        return f"{self._base_url}/mail/unsubscribe/{self.token(game_id, seat, address)}"

    def verify(self, token: str) -> UnsubscribeClaim:
        try:
            payload = self._serializer.loads(token)
        except BadSignature:
            raise BadLink() from None
        if not isinstance(payload, dict):
            raise BadLink()
        game_id, seat, digest = payload.get("g"), payload.get("s"), payload.get("a")
        if not isinstance(game_id, str) or type(seat) is not int or not isinstance(digest, str):
            raise BadLink()
        return UnsubscribeClaim(game_id=game_id, seat=seat, address_digest=digest)


def _claimed_seat(session: Session, claim: UnsubscribeClaim) -> tuple[Game, Seat]:
    row = session.execute(
        select(Game, Seat).join(Seat).where(Game.public_id == claim.game_id, Seat.seat_index == claim.seat)
    ).first()
    if row is None:
        raise BadLink()
    game, seat = row
    if seat.email is None or address_digest(seat.email) != claim.address_digest:
        raise BadLink()
    return game, seat


def seat_preference(db: Database, claim: UnsubscribeClaim) -> SeatPreference:
    """The seat a token names, if its address is still the one the token was mailed to."""
    with db.read() as session:
        game, seat = _claimed_seat(session, claim)
        return SeatPreference(game_title=game.title, seat_name=seat.display_name, notify_mode=seat.notify_mode)


def switch_to_digest(db: Database, claim: UnsubscribeClaim) -> SeatPreference:
    """Replace this seat's turn emails by the daily digest; doing it twice changes nothing more. A seat told of its
    turns on its player's own addresses instead gets no turn emails already: it stays so (a digest would be more)."""
    with db.write() as session:
        game, seat = _claimed_seat(session, claim)
        if seat.notify_mode != NOTICES_MODE:
            seat.notify_mode = DIGEST_MODE
        return SeatPreference(game_title=game.title, seat_name=seat.display_name, notify_mode=seat.notify_mode)
