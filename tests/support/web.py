"""The Flask application on the test database: test clients, and a host signed in through the emailed link."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from jinja2.bccache import Bucket, BytecodeCache
from sqlalchemy import select
from werkzeug.routing import Rule

import engine
from pbem import create_app
from pbem.chance import SeededChance
from pbem.clock import SettableClock
from pbem.config import Config
from pbem.models import Game, HostAction
from pbem.runtime import Runtime
from pbem.web.app_context import EXTENSION_KEY
from tests.support.games import seat_token
from tests.support.mail import mailbox

CSRF = "host-test-csrf-token"
HOST = "host@example.org"  # the host of the games `new_game` makes
LINK = re.compile(r"https?://\S+/host/sign-in/\S+")
SIGN_IN_LINK = re.compile(r"https?://\S+/sign-in/\S+")  # a player's, to My games


class CompiledTemplates(BytecodeCache):
    """Compiled page templates shared by every app a test run builds, so each template compiles once per run
    rather than once per test (Jinja recompiles a template whose source changed: the key holds its checksum)."""

    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self.code:
            bucket.bytecode_from_string(self.code[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


COMPILED_TEMPLATES = CompiledTemplates()


def compile_each_url_builder_once() -> None:
    """Werkzeug compiles two small Python functions per route for every app, to build its URLs, and nearly every
    web test builds its own app. A builder depends only on the route's pattern, its defaults and whether unknown
    arguments go to the query string, so the test run compiles each once and shares it (docs/performance.md)."""
    compile_builder = Rule._compile_builder
    builders: dict[tuple[Any, ...], Any] = {}

    def shared_builder(rule: Rule, append_unknown: bool = True) -> Any:
        defaults = tuple(sorted((name, repr(value)) for name, value in (rule.defaults or {}).items()))
        key = (rule.rule, tuple(rule._trace), defaults, append_unknown)
        if key not in builders:
            builders[key] = compile_builder(rule, append_unknown)
        return builders[key]

    Rule._compile_builder = shared_builder  # type: ignore[method-assign]


compile_each_url_builder_once()


def built_app(config: Config, clock: SettableClock, chance: SeededChance) -> Iterator[Flask]:
    app = create_app(config, clock=clock, chance=chance)
    app.testing = True
    app.jinja_env.bytecode_cache = COMPILED_TEMPLATES
    yield app
    app.extensions[EXTENSION_KEY].close()


@pytest.fixture
def app(config: Config, clock: SettableClock, chance: SeededChance) -> Iterator[Flask]:
    yield from built_app(config, clock, chance)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def app_runtime(app: Flask) -> Runtime:
    return app.extensions[EXTENSION_KEY]


@pytest.fixture
def runtime_of(app: Flask) -> Runtime:
    """The runtime behind the `app` fixture (the one its requests use)."""
    return app_runtime(app)


@pytest.fixture
def host(client: FlaskClient, runtime_of: Runtime) -> FlaskClient:
    """The test client, signed in as the host of the games `new_game` makes."""
    sign_in(client, runtime_of)
    return client


# -- a host signed in through the emailed link ---------------------------------------------------------


def with_csrf(client: FlaskClient) -> None:
    with client.session_transaction() as session:
        session["csrf"] = CSRF


def post(client: FlaskClient, path: str, **fields: Any) -> Any:
    """A POST with the session's CSRF token (and whatever fields the form sends)."""
    return client.post(path, data={"csrf_token": CSRF, **fields})


def redirected_id(response: Any) -> str:
    """The id a redirect's Location ends with: the new game's, the rematch's, the invite's."""
    return str(response.headers["Location"]).rsplit("/", 1)[1]


def host_link(runtime: Runtime, email: str) -> str:
    message = mailbox(runtime, "host_link", to=email)[-1]
    found = LINK.search(message.body_text)
    assert found, message.body_text
    return found.group(0)


def sign_in(client: FlaskClient, runtime: Runtime, email: str = HOST) -> None:
    with_csrf(client)
    assert post(client, "/host", email=email).status_code == 200
    path = "/host/" + host_link(runtime, email).split("/host/", 1)[1]
    assert client.get(path).status_code == 200
    assert post(client, path).status_code == 303


# -- a player signed in to My games through the emailed link ------------------------------------------


def sign_in_link(runtime: Runtime, email: str) -> str:
    """The path of the latest My games sign-in link emailed to `email`."""
    message = mailbox(runtime, "player_sign_in", to=email)[-1]
    found = SIGN_IN_LINK.search(message.body_text)
    assert found, message.body_text
    return "/sign-in/" + found.group(0).split("/sign-in/", 1)[1]


def sign_in_player(client: FlaskClient, runtime: Runtime, email: str) -> FlaskClient:
    """Ask for a My games link for `email`, open it and continue; returns the client, signed in."""
    with_csrf(client)
    assert post(client, "/sign-in", email=email).status_code == 200
    path = sign_in_link(runtime, email)
    assert client.get(path).status_code == 200
    assert post(client, path).status_code == 303
    return client


# -- a seat's pages ------------------------------------------------------------------------------------


HIDDEN_FIELD = re.compile(r'<input type="hidden" name="(\w+)" value="([^"]*)">')


MOVE_BUTTON = re.compile(r'<button name="move" value="([^"]*)"')


def table_path(game_id: str) -> str:
    return f"/table/{game_id}"


def open_table(client: FlaskClient, runtime: Runtime, game_id: str, seat: int) -> str:
    """Follow a fresh link as a browser does; returns the table page."""
    response = client.get(f"/play/{seat_token(runtime, game_id, seat)}", follow_redirects=True)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_data(as_text=True)


def seat_client(app: Flask, game_id: str, seat: int) -> FlaskClient:
    """A new browser (test client) that opened the seat's fresh link: it holds the seat's cookie."""
    client = app.test_client()
    assert client.get(f"/play/{seat_token(app_runtime(app), game_id, seat)}").status_code == 303
    return client


def form_fields(page: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for name, value in HIDDEN_FIELD.findall(page):
        fields.setdefault(name, html.unescape(value))
    return fields


def page_moves(page: str) -> list[dict[str, Any]]:
    return [json.loads(html.unescape(value)) for value in MOVE_BUTTON.findall(page)]


def current(runtime: Runtime, game_id: str) -> engine.Game:
    return runtime.games.engine_state(game_id)[0]


def audit(runtime: Runtime, game_id: str) -> list[tuple[str, dict]]:
    with runtime.db.read() as session:
        game = session.scalar(select(Game).where(Game.public_id == game_id))
        return [(a.action, a.details) for a in session.scalars(
            select(HostAction).where(HostAction.game_id == game.id).order_by(HostAction.id))]


def system_lines(runtime: Runtime, game_id: str) -> list[str]:
    return [line.text for line in runtime.chat.messages(game_id).lines if line.kind == "system"]


def unchanged_but_rate_limits(before: dict, after: dict) -> bool:
    """Nothing changed but the rate-limit counters (every request counts)."""
    return {k: v for k, v in before.items() if k != "rate_limit_hits"} == {
        k: v for k, v in after.items() if k != "rate_limit_hits"}
