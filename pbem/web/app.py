"""The Flask application factory."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

from flask import Flask, g
from werkzeug.middleware.proxy_fix import ProxyFix

from pbem.chance import Chance
from pbem.clock import Clock
from pbem.config import Config, load_config
from pbem.db import Database
from pbem.paths import TEMPLATES_DIR
from pbem.runtime import build_runtime
from pbem.times import machine_time
from pbem.web import (
    address_changes,
    auto_pass_links,
    bench_floor,
    chat,
    csrf,
    deals,
    dev_mail,
    drawing_styles,
    errors,
    home,
    host,
    join,
    languages,
    mail_links,
    my_games,
    params,
    player,
    rematch,
    replay,
    rules_page,
    script_words,
    seat_language,
    security,
    spectate,
    urls,
)
from pbem.web.app_context import EXTENSION_KEY


def build_app(
    config: Config | None = None, *, clock: Clock | None = None, chance: Chance | None = None
) -> Flask:
    config = config or load_config()
    runtime = build_runtime(config, clock=clock, chance=chance)
    app = Flask("pbem", template_folder=str(TEMPLATES_DIR), static_folder=str(Path(__file__).parent / "static"))
    app.config.update(
        SECRET_KEY=config.secret_keys[0],
        SECRET_KEY_FALLBACKS=list(config.secret_keys[1:]),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=config.base_url.startswith("https://"),
        # The cookie is signed and sent again only when it changes (opening a link, signing in), not with every
        # page: its 31 days run from the last link a player opened, and a host's sign-in keeps its own age.
        SESSION_REFRESH_EACH_REQUEST=False,
        PREFERRED_URL_SCHEME="https" if config.base_url.startswith("https://") else "http",
        # A larger body is refused (413) before it is read; the biggest legitimate one is a new game's deck file.
        MAX_CONTENT_LENGTH=config.max_request_kb * 1024,
    )
    app.extensions[EXTENSION_KEY] = runtime
    app.jinja_env.globals["development"] = config.is_development
    app.jinja_env.filters["machine_time"] = machine_time  # every `datetime` attribute
    share_reads_per_request(app, runtime.db)
    security.init_app(app, https=config.base_url.startswith("https://"))
    errors.init_app(app)
    csrf.init_app(app)
    languages.init_app(app, config.language)
    script_words.init_app(app)
    urls.init_app(app)
    params.init_app(app)  # before the blueprints: their `<int:...>` path parts are bounded
    app.register_blueprint(home.blueprint)
    app.register_blueprint(my_games.blueprint)
    app.register_blueprint(spectate.blueprint)
    app.register_blueprint(player.blueprint)
    app.register_blueprint(deals.blueprint)
    app.register_blueprint(replay.blueprint)
    app.register_blueprint(rules_page.blueprint)
    app.register_blueprint(drawing_styles.blueprint)
    app.register_blueprint(mail_links.blueprint)
    app.register_blueprint(auto_pass_links.blueprint)
    app.register_blueprint(address_changes.blueprint)
    app.register_blueprint(chat.blueprint)
    app.register_blueprint(host.blueprint)
    app.register_blueprint(join.blueprint)
    app.register_blueprint(rematch.blueprint)
    app.register_blueprint(seat_language.blueprint)
    if config.is_development:
        app.register_blueprint(dev_mail.blueprint)
    if config.bench_routes:
        app.register_blueprint(bench_floor.blueprint)
    trust_proxies(app, config.trusted_proxies)
    return app


def trust_proxies(app: Flask, count: int) -> None:
    """Behind `count` reverse proxies, the client is the address they report (per-client rate limits count it).

    Only that many X-Forwarded-For entries, counted from the right, are believed: a client cannot name itself.
    """
    if count:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=count, x_proto=count)  # type: ignore[method-assign]


def share_reads_per_request(app: Flask, db: Database) -> None:
    """One read session per request: the turn page asks several services and pays for one transaction."""

    @app.before_request
    def open_shared_reads() -> None:
        stack = ExitStack()
        stack.enter_context(db.shared_reads())
        g.pbem_shared_reads = stack

    @app.teardown_request
    def close_shared_reads(_error: BaseException | None) -> None:
        stack = g.pop("pbem_shared_reads", None)
        if stack is not None:
            stack.close()
