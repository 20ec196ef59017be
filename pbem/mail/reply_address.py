"""Per-seat reply addresses: `<local>+<token>@<domain>`, so a reply to any game email lands in that game's chat.

The operator owns one mailbox (`mail.reply_address`) whose server delivers plus-addressed mail to it. Each
email to a seat carries `Reply-To: <local>+<token>@<domain>`; the token names the seat, the seat's token
version (bumped when the host replaces the player or rotates links: every older reply address is revoked)
and the day it was made, signed with the server's secret keys.

The token is short and case-insensitive on purpose: the local part of an address may hold at most 64
characters (RFC 5321), and some mail servers lower-case it. So it is not an itsdangerous token but 18
bytes (seat row id, version, day, an 80-bit HMAC) in lower-case base32: 29 characters.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re
import struct
from dataclasses import dataclass
from datetime import date, timedelta
from email.headerregistry import Address

from pbem.addresses import MAX_LOCAL_LENGTH as MAX_LOCAL_LENGTH
from pbem.addresses import REPLY_TOKEN_LENGTH, split_reply_address
from pbem.clock import Clock

REPLY_SALT = b"pbem.mail.reply"
PAYLOAD = struct.Struct(">IHH")  # seat row id, token version (low 16 bits), day the address was made
MAC_BYTES = 10
TOKEN_LENGTH = REPLY_TOKEN_LENGTH  # base32 of PAYLOAD.size + MAC_BYTES bytes, without padding
DAY_ZERO = date(2020, 1, 1)
VERSION_MASK = 0xFFFF


class ReplyTokenError(Exception):
    """A reply address we cannot accept; `reason` is "invalid" (forged, damaged, not ours) or "expired".

    An expired token is still authentic: `claim` says which seat it named (None for an invalid one).
    """

    def __init__(self, reason: str, claim: ReplyClaim | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.claim = claim


@dataclass(frozen=True)
class ReplyClaim:
    """What an authentic, unexpired token says; whether its version is still the seat's needs the database."""

    seat_pk: int
    version: int  # the low 16 bits of the seat's token version

    def matches_version(self, token_version: int) -> bool:
        return self.version == token_version & VERSION_MASK


class ReplyAddresses:
    def __init__(self, secret_keys: tuple[str, ...], reply_address: str, max_age: timedelta, clock: Clock) -> None:
        if not secret_keys:
            raise ValueError("at least one secret key is needed to sign reply addresses")
        self._keys = [hmac.new(key.encode(), REPLY_SALT, hashlib.sha256).digest() for key in secret_keys]
        self._local, self._domain = split_reply_address(reply_address)
        self._pattern = re.compile(
            rf"^{re.escape(self._local)}\+([a-z2-7]{{{TOKEN_LENGTH}}})@{re.escape(self._domain)}$", re.IGNORECASE
        )
        self._max_age = max_age
        self._clock = clock

    @property
    def domain(self) -> str:
        return self._domain

    def address(self, seat_pk: int, token_version: int) -> str:
        """The reply address of one seat, signed today with the newest key."""
        day = (self._clock.now().date() - DAY_ZERO).days
        payload = PAYLOAD.pack(seat_pk, token_version & VERSION_MASK, day)
        token = base64.b32encode(payload + _mac(self._keys[0], payload)).decode().rstrip("=").lower()
        return f"{self._local}+{token}@{self._domain}"

    def header(self, seat_pk: int, token_version: int, game_title: str) -> str:
        """A Reply-To value: the seat's address, named so the player sees where a reply goes."""
        local, _, domain = self.address(seat_pk, token_version).rpartition("@")
        return str(Address(display_name=f"{game_title} (table talk)", username=local, domain=domain))

    def token_in(self, address: str) -> str | None:
        """The token of one of our reply addresses, or None for any other address."""
        match = self._pattern.match(address.strip())
        return match.group(1).lower() if match else None

    def is_ours(self, address: str) -> bool:
        """Whether mail to this address is meant for us (the plain mailbox, or it plus any token)."""
        local, _, domain = address.strip().rpartition("@")
        base = local.split("+", 1)[0]
        return domain.casefold() == self._domain.casefold() and base.casefold() == self._local.casefold()

    def verify(self, token: str) -> ReplyClaim:
        """The seat a token names; ReplyTokenError("invalid") or ("expired") otherwise."""
        try:
            raw = base64.b32decode(token.upper() + "=" * (-len(token) % 8))
        except (binascii.Error, ValueError):
            raise ReplyTokenError("invalid") from None
        if len(raw) != PAYLOAD.size + MAC_BYTES:
            raise ReplyTokenError("invalid")
        payload, mac = raw[: PAYLOAD.size], raw[PAYLOAD.size :]
        if not any(hmac.compare_digest(mac, _mac(key, payload)) for key in self._keys):
            raise ReplyTokenError("invalid")
        seat_pk, version, day = PAYLOAD.unpack(payload)
        if self._clock.now().date() - (DAY_ZERO + timedelta(days=day)) > self._max_age:
            raise ReplyTokenError("expired", ReplyClaim(seat_pk=seat_pk, version=version))
        return ReplyClaim(seat_pk=seat_pk, version=version)


def _mac(key: bytes, payload: bytes) -> bytes:
    return hmac.new(key, payload, hashlib.sha256).digest()[:MAC_BYTES]
