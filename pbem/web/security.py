"""Security headers on every response.

The CSP allows no inline script (pages load plain scripts from /static); frames are refused; the
Referrer-Policy keeps magic-link tokens in URLs from leaking to other sites. A server whose `base_url` is
https:// also tells browsers to come back over https only (HSTS), so a link opened later cannot be
downgraded to plain http by someone on the network.
"""

from __future__ import annotations

from flask import Flask, Response

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
# A year; not includeSubDomains: other hosts of the same domain are not this server's to decide.
STRICT_TRANSPORT_SECURITY = "max-age=31536000"


def add_security_headers(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def no_store(response: Response) -> Response:
    """For blueprints whose pages and JSON hold a seat's private view or a host's moderation: no shared cache
    may keep them."""
    response.headers["Cache-Control"] = "no-store"
    return response


def add_strict_transport_security(response: Response) -> Response:
    response.headers.setdefault("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY)
    return response


def init_app(app: Flask, *, https: bool) -> None:
    """`https`: whether the app's base_url is https:// (then every response carries HSTS)."""
    app.after_request(add_security_headers)
    if https:
        app.after_request(add_strict_transport_security)
