"""The two links of a game joined by link: the shared one (signed, salt `pbem.invite.join`, naming the invite and
its version, so a rotation kills the old one) and each joiner's confirmation link (salt `pbem.invite.confirm`,
timed, naming a random nonce kept only hashed, or the stored digest for a second email to a waiting place)."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

from itsdangerous import BadSignature, URLSafeSerializer, URLSafeTimedSerializer

from pbem.clock import Clock
from pbem.errors import BadLink
from pbem.i18n import gettext
from pbem.models import Invite
from pbem.tokens import _ClockSigner
from pbem.words.table import N_

INVITE_SALT = "pbem.invite.join"
CONFIRM_SALT = "pbem.invite.confirm"
CONFIRM_MAX_AGE = timedelta(days=2)
CONFIRM_INVALID = N_("This confirmation link is not valid any more: it works for two days, while the place is on "
                     "the host's list. Open the invite link again to join.")
NOT_VALID = N_("This invite link is not valid: check that it was copied whole.")


def nonce_hash(nonce: str) -> str:
    """How a confirmation nonce is stored: only its digest."""
    return hashlib.sha256(nonce.encode()).hexdigest()


class InviteLinks:
    """The shared link (signed, naming the invite and its version) and the per-joiner confirmation link."""

    def __init__(self, secret_keys: tuple[str, ...], base_url: str, clock: Clock) -> None:
        keys = list(reversed(secret_keys))
        self._invite = URLSafeSerializer(keys, salt=INVITE_SALT)
        self._confirm = URLSafeTimedSerializer(keys, salt=CONFIRM_SALT, signer=_ClockSigner,
                                               signer_kwargs={"clock": clock})
        self._base_url = base_url.rstrip("/")

    def invite_url(self, invite: Invite) -> str:
        return f"{self._base_url}/join/{self._invite.dumps({'i': invite.public_id, 'v': invite.version})}"

    def read_invite(self, token: str) -> tuple[str, int]:
        try:
            data: Any = self._invite.loads(token)
        except BadSignature:
            raise BadLink(gettext(NOT_VALID)) from None
        if not isinstance(data, dict) or not isinstance(data.get("i"), str) or type(data.get("v")) is not int:
            raise BadLink(gettext(NOT_VALID))
        return data["i"], data["v"]

    def confirm_url(self, nonce: str) -> str:
        return f"{self._base_url}/join/confirm/{self._confirm.dumps({'n': nonce})}"

    def confirm_again_url(self, nonce_hash: str) -> str:
        """Another link to a place waiting to confirm, its first one still working: it names the stored digest."""
        return f"{self._base_url}/join/confirm/{self._confirm.dumps({'h': nonce_hash})}"

    def read_confirm(self, token: str) -> str:
        """The digest of the nonce that names the place a confirmation link confirms."""
        try:
            data: Any = self._confirm.loads(token, max_age=int(CONFIRM_MAX_AGE.total_seconds()))
        except BadSignature:
            raise BadLink(gettext(CONFIRM_INVALID)) from None
        if isinstance(data, dict) and isinstance(data.get("n"), str):
            return nonce_hash(data["n"])
        if isinstance(data, dict) and isinstance(data.get("h"), str):
            return str(data["h"])
        raise BadLink(gettext(CONFIRM_INVALID))
