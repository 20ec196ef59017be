"""Building the app's own addresses, each built once per app and request root.

A turn page links to a dozen routes and static files; building each through Werkzeug's URL map was a
measurable share of drawing it (docs/performance.md). The same endpoint and values always give the same
address under the same host and root, so the app keeps what it built (a bounded table, emptied when full).
Templates and views use this `url_for` in place of Flask's.
"""

from __future__ import annotations

from typing import Any

import flask
from flask import Flask, current_app, g, has_request_context, request

EXTENSION_KEY = "pbem.urls"
ROOT_KEY = "pbem_url_root"
LIMIT = 4096


def url_for(endpoint: str, **values: Any) -> str:
    """Flask's `url_for`, remembered per app for each host, root, endpoint and values."""
    if not has_request_context():
        return flask.url_for(endpoint, **values)
    # A relative endpoint (".table") means the current blueprint's.
    blueprint = request.blueprint if endpoint.startswith(".") else None
    key = (_root(), blueprint, endpoint, tuple(sorted(values.items())))
    built: dict[tuple[Any, ...], str] = current_app.extensions.setdefault(EXTENSION_KEY, {})
    try:
        return built[key]
    except KeyError:
        pass
    except TypeError:  # a value that cannot be a key (a list): build it every time
        return flask.url_for(endpoint, **values)
    address = flask.url_for(endpoint, **values)
    if len(built) >= LIMIT:
        built.clear()
    built[key] = address
    return address


def _root() -> tuple[str, str]:
    """This request's host and root, worked out once per request (Werkzeug builds `host_url` on each use)."""
    root: tuple[str, str] | None = g.get(ROOT_KEY)
    if root is None:
        root = (request.host_url, request.script_root)
        setattr(g, ROOT_KEY, root)
    return root


def init_app(app: Flask) -> None:
    app.jinja_env.globals["url_for"] = url_for
