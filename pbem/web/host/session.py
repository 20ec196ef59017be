"""Who is signed in on the host pages: the cookie (key `host`) holds only the token of a server-side session
(`host_sessions`, see `pbem/service/host/host_access.py` and `pbem/web/signed_in.py`)."""

from __future__ import annotations

from pbem.errors import NotSignedIn
from pbem.service.host.host_access import HostSession
from pbem.service.sign_in import OpenedSession
from pbem.web import signed_in
from pbem.web.app_context import runtime

SESSION_KEY = "host"


def sign_in(opened: OpenedSession) -> None:
    signed_in.keep(SESSION_KEY, opened.token)


def sign_out() -> None:
    """End this browser's session on the server and forget its token."""
    token = signed_in.forget(SESSION_KEY)
    if token is not None:
        runtime().host_access.sign_out(token)


def sign_out_everywhere(host: HostSession) -> int:
    signed_in.forget(SESSION_KEY)
    return runtime().host_access.sign_out_everywhere(host.email)


def current_host() -> HostSession | None:
    """The host this request's cookie signs in, looked up once per request."""
    return signed_in.current(SESSION_KEY, runtime().host_access.host_for)


def require_host() -> HostSession:
    host = current_host()
    if host is None:
        raise NotSignedIn()
    return host
