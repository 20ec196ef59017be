"""Who is signed in on the host pages: the signed session cookie holds only the token of a server-side session
(`host_sessions`, see `pbem/service/host/host_access.py`), so signing out ends it for good, copies included."""

from __future__ import annotations

from flask import g, session

from pbem.errors import NotSignedIn
from pbem.service.host.host_access import HostSession, SignedIn
from pbem.web.app_context import runtime

SESSION_KEY = "host"


def sign_in(signed_in: SignedIn) -> None:
    session[SESSION_KEY] = signed_in.token
    session.permanent = True
    g.pop("host_session", None)


def sign_out() -> None:
    """End this browser's session on the server and forget its token."""
    token = session.pop(SESSION_KEY, None)
    g.pop("host_session", None)
    if isinstance(token, str):
        runtime().host_access.sign_out(token)


def sign_out_everywhere(host: HostSession) -> int:
    session.pop(SESSION_KEY, None)
    g.pop("host_session", None)
    return runtime().host_access.sign_out_everywhere(host)


def current_host() -> HostSession | None:
    """The host this request's cookie signs in, looked up once per request."""
    if "host_session" not in g:
        token = session.get(SESSION_KEY)
        g.host_session = runtime().host_access.host_for(token) if isinstance(token, str) else None
        if g.host_session is None and token is not None:
            session.pop(SESSION_KEY, None)
    host: HostSession | None = g.host_session
    return host


def require_host() -> HostSession:
    host = current_host()
    if host is None:
        raise NotSignedIn()
    return host
