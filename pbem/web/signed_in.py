"""Who a request's cookie signs in, for every audience (hosts, players): the signed Flask session cookie holds only
the token of a server-side session (`pbem/service/sign_in.py`), under the audience's own key, so signing out ends
it for good, copies included."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from flask import g, session

Who = TypeVar("Who")


def keep(key: str, token: str) -> None:
    """Remember a new session's token in this browser's cookie."""
    session[key] = token
    session.permanent = True
    g.pop(_cached(key), None)


def forget(key: str) -> str | None:
    """Drop the token from this browser's cookie; the token it held, if any."""
    token = session.pop(key, None)
    g.pop(_cached(key), None)
    return token if isinstance(token, str) else None


def current(key: str, find: Callable[[str], Who | None]) -> Who | None:
    """Who this request's cookie signs in (`find` looks the token up), once per request; a dead token is dropped."""
    cached = _cached(key)
    if cached not in g:
        token = session.get(key)
        setattr(g, cached, find(token) if isinstance(token, str) else None)
        if getattr(g, cached) is None and token is not None:
            session.pop(key, None)
    who: Who | None = getattr(g, cached)
    return who


def _cached(key: str) -> str:
    return f"signed_in_{key}"
