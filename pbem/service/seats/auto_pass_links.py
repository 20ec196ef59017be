"""One-click links in the host's "seat absent" email: let the game auto-pass for that seat without waiting.

Signed with their own salt (a seat link or an unsubscribe token is no use here), dated (14 days), and bound to
the seat's token version, so replacing the player revokes them. GET shows a confirm page, POST acts.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from pbem.clock import Clock
from pbem.errors import BadLink
from pbem.i18n import gettext
from pbem.tokens import _ClockSigner

AUTO_PASS_SALT = "pbem.host.auto-pass"
MAX_AGE = timedelta(days=14)


@dataclass(frozen=True)
class AutoPassClaim:
    game_id: str
    seat: int
    version: int


class AutoPassLinks:
    def __init__(self, secret_keys: tuple[str, ...], base_url: str, clock: Clock) -> None:
        if not secret_keys:
            raise ValueError("at least one secret key is needed to sign host links")
        self._serializer = URLSafeTimedSerializer(
            list(reversed(secret_keys)), salt=AUTO_PASS_SALT, signer=_ClockSigner, signer_kwargs={"clock": clock}
        )
        self._base_url = base_url.rstrip("/")

    def url(self, game_id: str, seat: int, version: int) -> str:
        return (
            f"{self._base_url}/host-links/auto-pass/{self._serializer.dumps({'g': game_id, 's': seat, 'v': version})}"
        )

    def verify(self, token: str) -> AutoPassClaim:
        try:
            data: Any = self._serializer.loads(token, max_age=int(MAX_AGE.total_seconds()))
        except SignatureExpired:
            raise BadLink(gettext("This link has expired; use the host page instead.")) from None
        except BadSignature:
            raise BadLink() from None
        if not isinstance(data, dict) or not {"g", "s", "v"} <= set(data):
            raise BadLink()
        return AutoPassClaim(game_id=str(data["g"]), seat=int(data["s"]), version=int(data["v"]))
