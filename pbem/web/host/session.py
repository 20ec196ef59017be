"""Who is signed in on the host pages: the signed session cookie holds the address and when they signed in."""

from __future__ import annotations

from datetime import datetime

from flask import session

from pbem.errors import NotSignedIn
from pbem.service.host_access import HostSession
from pbem.web.app_context import runtime

SESSION_KEY = "host"


def sign_in(host: HostSession) -> None:
    session[SESSION_KEY] = {"email": host.email, "at": runtime().clock.now().isoformat()}
    session.permanent = True


def sign_out() -> None:
    session.pop(SESSION_KEY, None)


def current_host() -> HostSession | None:
    stored = session.get(SESSION_KEY)
    if not isinstance(stored, dict) or not isinstance(stored.get("email"), str):
        return None
    try:
        signed_in_at = datetime.fromisoformat(str(stored.get("at")))
    except ValueError:
        return None
    access = runtime().host_access
    if access.session_expired(signed_in_at):
        sign_out()
        return None
    return access.session_for(stored["email"])


def require_host() -> HostSession:
    host = current_host()
    if host is None:
        raise NotSignedIn()
    return host
