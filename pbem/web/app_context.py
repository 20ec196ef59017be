"""Reaching the Runtime (configuration, clock, database, services) from inside a request."""

from __future__ import annotations

from flask import current_app

from pbem.runtime import Runtime

EXTENSION_KEY = "pbem"


def runtime() -> Runtime:
    """The Runtime of the application handling the current request."""
    return current_app.extensions[EXTENSION_KEY]
