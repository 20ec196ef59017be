"""The link that asks a seat's current address to confirm the host's correction of it.

`<base_url>/seat-address/<token>`: its own salt (no seat, host or auto-pass link is one of these), dated
(`MAX_AGE`), naming only the random nonce of its `address_changes` row, which holds what would change and is
spent by the confirmation. GET shows the change and a button; only the POST behind the button changes anything.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from itsdangerous import BadSignature, URLSafeTimedSerializer

from pbem.clock import Clock
from pbem.errors import BadLink
from pbem.i18n import gettext
from pbem.tokens import _ClockSigner
from pbem.words.table import N_

ADDRESS_CHANGE_SALT = "pbem.seat.address-change"
MAX_AGE = timedelta(days=3)
INVALID = N_(
    "This confirmation link is not valid any more (they work once, for three days; a newer request replaces it)."
)


class AddressChangeLinks:
    def __init__(self, secret_keys: tuple[str, ...], base_url: str, clock: Clock) -> None:
        if not secret_keys:
            raise ValueError("at least one secret key is needed to sign links")
        self._serializer = URLSafeTimedSerializer(
            list(reversed(secret_keys)), salt=ADDRESS_CHANGE_SALT, signer=_ClockSigner, signer_kwargs={"clock": clock}
        )
        self._base_url = base_url.rstrip("/")

    def url(self, nonce: str) -> str:
        return f"{self._base_url}/seat-address/{self._serializer.dumps({'n': nonce})}"

    def verify(self, token: str) -> str:
        """The nonce an authentic, young enough link names; BadLink otherwise (forged, damaged or too old)."""
        try:
            data: Any = self._serializer.loads(token, max_age=int(MAX_AGE.total_seconds()))
        except BadSignature:  # SignatureExpired included: an old request is simply no longer valid
            raise BadLink(gettext(INVALID)) from None
        if not isinstance(data, dict) or not isinstance(data.get("n"), str):
            raise BadLink(gettext(INVALID))
        return str(data["n"])
