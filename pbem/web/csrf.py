"""CSRF protection for POST forms: a random token kept in the signed session cookie, echoed by each form.

Another site can make a browser POST here with our cookie, but cannot read our pages to learn the token.
Scripts send the same token in the `X-CSRF-Token` header. Blueprints opt in with `protect`, so a route
that must accept a POST from elsewhere (RFC 8058 one-click unsubscribe from a mail provider) stays open.
"""

from __future__ import annotations

import hmac
import secrets

from flask import Blueprint, Flask, request, session

from pbem.errors import CsrfFailed

SESSION_KEY = "csrf"
FORM_FIELD = "csrf_token"
HEADER = "X-CSRF-Token"
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def csrf_token() -> str:
    """This session's token, created on first use (for a form or the page's script)."""
    token = session.get(SESSION_KEY)
    if not isinstance(token, str):
        token = secrets.token_urlsafe(32)
        session[SESSION_KEY] = token
    return token


def check_csrf() -> None:
    """Raise CsrfFailed unless an unsafe request carries this session's token."""
    if request.method not in UNSAFE_METHODS:
        return
    expected = session.get(SESSION_KEY)
    sent = request.form.get(FORM_FIELD) or request.headers.get(HEADER) or ""
    if not isinstance(expected, str) or not hmac.compare_digest(expected.encode(), sent.encode()):
        raise CsrfFailed()


def protect(blueprint: Blueprint) -> None:
    """Check the token before every unsafe request to this blueprint."""
    blueprint.before_request(check_csrf)


def init_app(app: Flask) -> None:
    app.jinja_env.globals["csrf_token"] = csrf_token
