"""Magic links: `<base_url>/play/<token>`, a signed and dated claim to one seat of one game.

The token names the game's public id, the seat index and the seat's token version; bumping the
version revokes every older link of that seat at once. Keys are a list, newest first: links signed
with an older key keep working until that key is dropped from the configuration.
Signing and expiry read the injected clock, so tests age links without waiting.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from itsdangerous import BadSignature, SignatureExpired, TimestampSigner, URLSafeTimedSerializer

from pbem.clock import Clock
from pbem.errors import BadLink, ExpiredLink
from pbem.i18n import gettext
from pbem.seat_link import SeatLink
from pbem.words.table import N_

LINK_SALT = "pbem.play"
HOST_SALT = "pbem.host.sign-in"
PLAYER_SALT = "pbem.player.sign-in"


class _ClockSigner(TimestampSigner):
    """itsdangerous' timestamp signer, reading time from pbem's clock instead of `time.time()`."""

    def __init__(self, *args: Any, clock: Clock, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clock = clock

    def get_timestamp(self) -> int:
        return int(self._clock.now().timestamp())


class LinkSigner:
    def __init__(self, secret_keys: tuple[str, ...], base_url: str, max_age: timedelta, clock: Clock) -> None:
        if not secret_keys:
            raise ValueError("at least one secret key is needed to sign links")
        # itsdangerous signs with the last key and accepts any; our configuration lists the newest first.
        self._serializer = URLSafeTimedSerializer(
            list(reversed(secret_keys)), salt=LINK_SALT, signer=_ClockSigner, signer_kwargs={"clock": clock}
        )
        self._base_url = base_url.rstrip("/")
        self._max_age = max_age

    @property
    def base_url(self) -> str:
        """The server's address, without a trailing slash (other pages are linked from the same emails)."""
        return self._base_url

    def token(self, link: SeatLink) -> str:
        return self._serializer.dumps({"g": link.game_id, "s": link.seat, "v": link.version})

    def url(self, link: SeatLink) -> str:
        return f"{self._base_url}/play/{self.token(link)}"

    def verify(self, token: str) -> SeatLink:
        """The seat a token claims, if it is authentic and young enough.

        Raises BadLink (forged, damaged, unknown key) or ExpiredLink (authentic but too old, carrying the
        seat so a fresh link can be sent). Revocation needs the database: `GameService.resolve_link`.
        """
        try:
            payload = self._serializer.loads(token, max_age=int(self._max_age.total_seconds()))
        except SignatureExpired as exc:
            raise ExpiredLink(_parse(exc.payload, self._serializer)) from None
        except BadSignature:
            raise BadLink() from None
        return _parse(payload, None)


def _parse(payload: Any, serializer: URLSafeTimedSerializer | None) -> SeatLink:
    if serializer is not None:
        # An expired token's payload arrives still encoded.
        try:
            payload = serializer.load_payload(payload)
        except BadSignature:
            raise BadLink() from None
    if not isinstance(payload, dict):
        raise BadLink()
    game_id, seat, version = payload.get("g"), payload.get("s"), payload.get("v")
    if not isinstance(game_id, str) or type(seat) is not int or type(version) is not int:
        raise BadLink()
    return SeatLink(game_id=game_id, seat=seat, version=version)


@dataclass(frozen=True)
class HostLink:
    """What a host sign-in token claims: an address and the nonce of its one-use record (`host_sign_ins`)."""

    email: str
    nonce: str


class HostLinkSigner:
    """Host sign-in links, `<base_url>/host/sign-in/<token>`: own salt, so a seat link is never a host link."""

    salt = HOST_SALT
    path = "/host/sign-in/"
    invalid = N_("This host link is not valid (host links work once, for one hour).")

    def __init__(self, secret_keys: tuple[str, ...], base_url: str, max_age: timedelta, clock: Clock) -> None:
        if not secret_keys:
            raise ValueError("at least one secret key is needed to sign links")
        self._serializer = URLSafeTimedSerializer(
            list(reversed(secret_keys)), salt=self.salt, signer=_ClockSigner, signer_kwargs={"clock": clock}
        )
        self._base_url = base_url.rstrip("/")
        self.max_age = max_age

    def url(self, link: HostLink) -> str:
        return f"{self._base_url}{self.path}{self._serializer.dumps({'e': link.email, 'n': link.nonce})}"

    def verify(self, token: str) -> HostLink:
        """The claim of an authentic host link younger than an hour; BadLink otherwise (forged, damaged or old)."""
        try:
            payload = self._serializer.loads(token, max_age=int(self.max_age.total_seconds()))
        except BadSignature:  # SignatureExpired is a BadSignature: an hour-old host link is just invalid
            raise BadLink(gettext(self.invalid)) from None
        if not isinstance(payload, dict) or not all(isinstance(payload.get(key), str) for key in ("e", "n")):
            raise BadLink()
        return HostLink(email=payload["e"], nonce=payload["n"])


class PlayerLinkSigner(HostLinkSigner):
    """A player's sign-in links to "My games", `<base_url>/sign-in/<token>`: the host's design under its own salt,
    so neither kind of link is ever the other."""

    salt = PLAYER_SALT
    path = "/sign-in/"
    invalid = N_("This sign-in link is not valid (sign-in links work once, for one hour).")


def timed_serializer(secret_keys: tuple[str, ...], salt: str, clock: Clock) -> URLSafeTimedSerializer:
    """A signer of small JSON claims under its own salt, dated and aged by the injected clock; newest key first."""
    if not secret_keys:
        raise ValueError("at least one secret key is needed to sign links")
    return URLSafeTimedSerializer(
        list(reversed(secret_keys)), salt=salt, signer=_ClockSigner, signer_kwargs={"clock": clock}
    )


@dataclass(frozen=True)
class SpectatorConfirmation:
    """What a spectator's confirmation link claims: this address asked for round-end emails from this link."""

    link_id: int
    email: str
    token: str


@dataclass(frozen=True)
class SpectatorStop:
    """What a "stop these emails" link claims: one round-end subscription, and a digest of the mailbox it emails
    (the address itself stays out of the link, which may end up in logs)."""

    subscription_id: int
    mailbox_digest: str

    @staticmethod
    def digest(mailbox: str) -> str:
        return hashlib.sha256(mailbox.encode()).hexdigest()[:16]


class SpectatorLinkSigner:
    """A spectator's two emailed links, each under its own salt: `/watch/confirm/<token>` (two days, to start
    round-end emails) and `/watch/stop/<token>` (to stop them: only the mailbox emailed holds one; each email
    carries a fresh one, good for a year)."""

    CONFIRM_SALT = "pbem.spectate.round-end-emails"
    STOP_SALT = "pbem.spectate.stop-round-end-emails"
    CONFIRM_MAX_AGE = timedelta(days=2)
    STOP_MAX_AGE = timedelta(days=365)

    def __init__(self, secret_keys: tuple[str, ...], base_url: str, clock: Clock) -> None:
        self._confirm = timed_serializer(secret_keys, self.CONFIRM_SALT, clock)
        self._stop = timed_serializer(secret_keys, self.STOP_SALT, clock)
        self.base_url = base_url.rstrip("/")

    def confirm_url(self, claim: SpectatorConfirmation) -> str:
        token = self._confirm.dumps({"l": claim.link_id, "e": claim.email, "t": claim.token})
        return f"{self.base_url}/watch/confirm/{token}"

    def read_confirmation(self, token: str) -> SpectatorConfirmation:
        """The claim of an authentic confirmation link younger than two days; BadLink otherwise."""
        payload = _timed_claim(
            self._confirm, token, self.CONFIRM_MAX_AGE,
            N_("This confirmation link is not valid (they work for two days)."),
        )
        link_id, email, link_token = payload.get("l"), payload.get("e"), payload.get("t")
        if type(link_id) is not int or not isinstance(email, str) or not isinstance(link_token, str):
            raise BadLink()
        return SpectatorConfirmation(link_id, email, link_token)

    def stop_url(self, claim: SpectatorStop) -> str:
        return f"{self.base_url}/watch/stop/{self._stop.dumps({'s': claim.subscription_id, 'm': claim.mailbox_digest})}"

    def read_stop(self, token: str) -> SpectatorStop:
        """The claim of an authentic stop link; BadLink otherwise (forged, damaged, or older than a year)."""
        payload = _timed_claim(
            self._stop, token, self.STOP_MAX_AGE,
            N_("This link is not valid. Each round-end email carries a fresh one."),
        )
        subscription_id, digest = payload.get("s"), payload.get("m")
        if type(subscription_id) is not int or not isinstance(digest, str):
            raise BadLink()
        return SpectatorStop(subscription_id, digest)


def _timed_claim(serializer: URLSafeTimedSerializer, token: str, max_age: timedelta, invalid: str) -> dict[str, Any]:
    """The claim of an authentic token younger than `max_age`; BadLink saying `invalid` (a message marked N_, said
    in the reader's language) otherwise."""
    try:
        payload = serializer.loads(token, max_age=int(max_age.total_seconds()))
    except BadSignature:  # SignatureExpired included
        raise BadLink(gettext(invalid)) from None
    if not isinstance(payload, dict):
        raise BadLink(gettext(invalid))
    return payload
