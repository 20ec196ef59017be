"""Saboteur play-by-email server. `gunicorn 'pbem:create_app()'` serves it in production."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask

    from pbem.chance import Chance
    from pbem.clock import Clock
    from pbem.config import Config


def create_app(
    config: Config | None = None, *, clock: Clock | None = None, chance: Chance | None = None
) -> Flask:
    """Build the web application (configuration from `PBEM_CONFIG` and the environment when not given).

    Imported lazily so that `import pbem.config` (migrations, tools) does not pull in Flask and the engine.
    """
    from pbem.web.app import build_app

    return build_app(config, clock=clock, chance=chance)


__all__ = ["create_app"]
