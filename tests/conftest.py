"""Shared fixtures: a fresh database per test (SQLite always, PostgreSQL when PBEM_TEST_DATABASE_URL is set),
a clock that only moves when told, the application wired to both (test client, or a real server thread for
headless Chromium), stored games in chosen positions, and a real SMTP server on loopback."""

from __future__ import annotations

import dataclasses
import email.policy
import grp
import imaplib
import os
import pwd
import random
import shutil
import socket
import ssl
import subprocess
import tempfile
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from aiosmtpd.controller import Controller
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import Engine, create_engine, select, text
from sqlalchemy.engine import make_url
from werkzeug.serving import BaseWSGIServer, make_server

import engine
from pbem import create_app
from pbem.clock import SettableClock
from pbem.config import AccessConfig, Config
from pbem.db import Database, with_driver
from pbem.mail.deliver import Deliverer
from pbem.models import Base, Game, OutboxMessage, Seat, Snapshot
from pbem.paths import REPO_ROOT
from pbem.runtime import Runtime, build_runtime
from pbem.service.games import PlayerSpec
from pbem.web.app_context import EXTENSION_KEY

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

POSTGRES_URL = os.environ.get("PBEM_TEST_DATABASE_URL", "")
START = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)
TEST_SECRET = "test-secret-key-0123456789abcdef"
BASE_URL = "https://pbem.test"

BACKENDS = [
    "sqlite",
    pytest.param(
        "postgresql",
        marks=[pytest.mark.postgres, pytest.mark.skipif(not POSTGRES_URL, reason="PBEM_TEST_DATABASE_URL is not set")],
    ),
]


@pytest.fixture(scope="session")
def postgres_admin() -> Iterator[Engine]:
    engine = create_engine(with_driver(make_url(POSTGRES_URL)), isolation_level="AUTOCOMMIT")
    yield engine
    engine.dispose()


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database: a new SQLite file, or a new PostgreSQL schema that is dropped afterwards."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'pbem.sqlite3'}"
        return
    admin: Engine = request.getfixturevalue("postgres_admin")
    schema = f"test_{uuid.uuid4().hex[:16]}"
    with admin.connect() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(POSTGRES_URL).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))


@pytest.fixture
def database(database_url: str) -> Iterator[Database]:
    """The schema from the models (the migrations are proven equal to it in test_migrations.py)."""
    db = Database(database_url)
    Base.metadata.create_all(db.engine)
    yield db
    db.dispose()


@pytest.fixture
def clock() -> SettableClock:
    return SettableClock(START)


@pytest.fixture
def config(database: Database, tmp_path: Path) -> Config:
    return Config(
        mode="development",
        base_url=BASE_URL,
        secret_keys=(TEST_SECRET,),
        database_url=database.url.render_as_string(hide_password=False),
        instance_path=str(tmp_path / "instance"),
        # Most tests sign in whoever they like as a host; the default (admins only) has tests of its own.
        access=AccessConfig(game_creators="anyone"),
    )


@pytest.fixture
def runtime(config: Config, clock: SettableClock) -> Iterator[Runtime]:
    built = build_runtime(config, clock=clock)
    yield built
    built.close()


PEOPLE = (
    PlayerSpec("Ann", "ann@example.org"),
    PlayerSpec("Ben", "ben@example.org"),
    PlayerSpec("Cat", "cat@example.org"),
)


@pytest.fixture
def new_game(runtime: Runtime) -> Callable[..., str]:
    """Create (and by default start) a game; returns its public id."""

    def make(players: Sequence[PlayerSpec] = PEOPLE, *, start: bool = True, **options: Any) -> str:
        game_id = runtime.games.create_game(
            title="Test mine", players=players, host_email="host@example.org", **options
        )
        if start:
            runtime.games.start_game(game_id)
        return game_id

    return make


def random_move(runtime: Runtime, game_id: str, rng: random.Random) -> tuple[int, dict[str, Any], int]:
    """Whose turn it is, a legal move for them (the engine's random bot) and the current sequence number."""
    state, seq = runtime.games.engine_state(game_id)
    seat = engine.to_act(state)
    assert seat is not None, "the game is over"
    return seat, engine.bots.choose(state, seat, rng), seq


def play_moves(runtime: Runtime, game_id: str, count: int, rng: random.Random) -> None:
    for _ in range(count):
        seat, move, seq = random_move(runtime, game_id, rng)
        runtime.games.submit_move(game_id, seat, move, seq, f"test-{seq}")


def dump(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, to show that something changed nothing."""
    with db.read() as session:
        return {
            table.name: sorted(
                (tuple(repr(value) for value in row) for row in session.execute(select(table))), key=repr
            )
            for table in Base.metadata.sorted_tables
        }


# -- mail ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReceivedMail:
    """One message as the test SMTP server accepted it: the envelope and the parsed message."""

    mail_from: str
    rcpt_tos: list[str]
    message: EmailMessage


class SmtpHandler:
    """An aiosmtpd handler that keeps what it accepts and answers 4xx/5xx when a test asks it to."""

    def __init__(self) -> None:
        self.received: list[ReceivedMail] = []
        self._data_replies: deque[str] = deque()
        self._refused: dict[str, str] = {}

    def answer_next_data(self, *replies: str) -> None:
        """The next DATA commands get these replies (e.g. "451 4.3.0 Try again later"); a 2xx one takes the message."""
        self._data_replies.extend(replies)

    def refuse_recipient(self, address: str, reply: str) -> None:
        """Every RCPT TO for this address gets this reply (e.g. "550 5.1.1 No such user")."""
        self._refused[address] = reply

    def accept_recipient(self, address: str) -> None:
        self._refused.pop(address, None)

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, rcpt_options: list[str]) -> str:
        if address in self._refused:
            return self._refused[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        reply = self._data_replies.popleft() if self._data_replies else "250 2.0.0 Accepted"
        if reply.startswith("2"):  # taken: kept, as a relay would
            message = BytesParser(policy=email.policy.default).parsebytes(envelope.content)
            assert isinstance(message, EmailMessage)
            self.received.append(ReceivedMail(envelope.mail_from, list(envelope.rcpt_tos), message))
        return reply


@dataclass(frozen=True)
class SmtpServer:
    handler: SmtpHandler
    host: str
    port: int

    @property
    def received(self) -> list[ReceivedMail]:
        return self.handler.received


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def smtp_server_running(**options: Any) -> Iterator[SmtpServer]:
    """An aiosmtpd server on a free loopback port; `options` go to aiosmtpd (TLS, authentication)."""
    handler = SmtpHandler()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port, server_hostname="smtp.test", **options)
    controller.start()
    try:
        yield SmtpServer(handler, "127.0.0.1", port)
    finally:
        controller.stop()


@pytest.fixture
def smtp_server() -> Iterator[SmtpServer]:
    """A real SMTP server (aiosmtpd) on loopback, plain SMTP, no login."""
    with smtp_server_running() as server:
        yield server


@dataclass(frozen=True)
class SelfSignedCertificate:
    cert: Path
    key: Path

    def server_context(self) -> ssl.SSLContext:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(self.cert, self.key)
        return context

    def client_context(self) -> ssl.SSLContext:
        """Trusts this certificate only, verifying it as a client verifies a relay's."""
        return ssl.create_default_context(cafile=str(self.cert))


@pytest.fixture(scope="session")
def tls_certificate(tmp_path_factory: pytest.TempPathFactory) -> SelfSignedCertificate:
    """A self-signed certificate for 127.0.0.1, made by the openssl command."""
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )
    return SelfSignedCertificate(cert, key)


def smtp_config(config: Config, server: SmtpServer, **mail: Any) -> Config:
    """`config` with mail going to `server` over SMTP."""
    settings = dataclasses.replace(config.mail, backend="smtp", host=server.host, port=server.port, **mail)
    return dataclasses.replace(config, mail=settings)


@pytest.fixture
def smtp_runtime(config: Config, clock: SettableClock, smtp_server: SmtpServer) -> Iterator[Runtime]:
    """The application wired to the test SMTP server instead of the catcher."""
    built = build_runtime(smtp_config(config, smtp_server), clock=clock)
    yield built
    built.close()


@pytest.fixture
def smtp_deliverer(smtp_runtime: Runtime) -> Deliverer:
    """The deliverer as the scheduler builds it, sending to the test SMTP server."""
    return smtp_runtime.deliverer()


def compose_waiting_mail(runtime: Runtime) -> None:
    """Write the turn emails still waiting for their content, as a deliverer taking them now would.

    Turn emails are composed when they go out; a test that reads every one of them, as a table whose mail goes
    out between moves does, calls this after each move (stale ones are otherwise dropped unwritten)."""
    runtime.deliverer().compose_waiting()


def mailbox(runtime: Runtime, kind: str | None = None, to: str | None = None) -> list[OutboxMessage]:
    """The outbox, oldest first, optionally of one kind or to one address, with the turn emails still waiting
    composed as the deliverer would compose them now."""
    compose_waiting_mail(runtime)
    with runtime.db.read() as session:
        query = select(OutboxMessage).order_by(OutboxMessage.id)
        if kind is not None:
            query = query.where(OutboxMessage.kind == kind)
        if to is not None:
            query = query.where(OutboxMessage.to_address == to)
        return list(session.scalars(query))


@pytest.fixture
def arranged_game(runtime: Runtime, new_game: Callable[..., str]) -> Callable[..., str]:
    """A running game whose current state is `state`, laid out by a test (tests/engine/tables.py).

    Seats are people named as in the state, mailed at <name>@example.org; nothing is emailed at the start.
    """

    def make(state: engine.Game, **options: Any) -> str:
        players = [PlayerSpec(name, f"{name.lower()}@example.org") for name in state.players]
        game_id = new_game(players, start=False, **options)
        now = runtime.clock.now()
        with runtime.db.write() as session:
            game = session.scalars(select(Game).where(Game.public_id == game_id)).one()
            session.add(
                Snapshot(game_id=game.id, seq=0, state=state.to_dict(), move=None, events=[], created_at=now)
            )
            game.status, game.current_seq, game.turn_started_at = "active", 0, now
            game.to_act_seat = engine.to_act(state)
        return game_id

    return make


# -- the web application ----------------------------------------------------------------------------------


def built_app(config: Config, clock: SettableClock) -> Iterator[Flask]:
    app = create_app(config, clock=clock)
    app.testing = True
    yield app
    app.extensions[EXTENSION_KEY].close()


@pytest.fixture
def app(config: Config, clock: SettableClock) -> Iterator[Flask]:
    yield from built_app(config, clock)


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
    from tests.host_helpers import sign_in

    sign_in(client, runtime_of)
    return client


@pytest.fixture
def game_id(new_game: Callable[..., str]) -> str:
    """A started game of three (Ann, Ben, Cat), hosted by host@example.org."""
    return new_game()


# -- games in chosen positions ------------------------------------------------------------------------------


Chooser = Callable[[engine.Game, int, random.Random], dict[str, Any]]


def dig_for_gold(state: engine.Game, seat: int, rng: random.Random) -> dict[str, Any]:
    """A player who only tunnels east: the legal path card (no dead end) that reaches furthest, else a repair
    of their own tools, else a pass. Random play almost never finds the gold; this does within a few rounds."""
    moves = engine.legal_moves(state, seat)
    hand = {card["id"]: card for card in engine.view(state, seat)["you"]["hand"]}
    builds = [m for m in moves if m["type"] == "play" and "rotated" in m
              and not all(s.get("dead") for s in hand[m["card"]]["segments"])]
    if builds:
        return max(builds, key=lambda m: (m["x"], -abs(m["y"])))
    repairs = [m for m in moves if m.get("target") == seat and hand[m["card"]].get("effect") == "repair"]
    return (repairs or [m for m in moves if m["type"] == "pass"] or moves)[0]


def play_until(
    state: engine.Game, done: Callable[[engine.Game], bool], rng: random.Random, choose: Chooser = engine.bots.choose
) -> engine.Game:
    """Legal moves (the engine's random bot unless told) until `done` holds; fails if the game ends first."""
    while not done(state):
        seat = engine.to_act(state)
        assert seat is not None, "the game ended before reaching the position the test needs"
        state, _ = engine.apply_move(state, seat, choose(state, seat, rng))
    return state


def store_game(runtime: Runtime, state: engine.Game, *, title: str = "Test mine", computers: Sequence[int] = ()) -> str:
    """A running game whose latest snapshot is `state`, for tests that need a given hand or phase.

    Games normally start from a secret seed (`GameService.start_game`); a test that needs, say, a broken tool
    in seat 0's hand or a gold pick reaches that position with the engine and stores it as snapshot 0.
    Everything after goes through the service as usual.
    """
    now = runtime.clock.now()
    with runtime.db.write() as session:
        game = Game(
            title=title,
            variant=state.variant,
            options=dict(state.options),
            policies=dataclasses.asdict(runtime.config.policies),
            status="finished" if engine.is_over(state) else "active",
            paused=False,
            is_demo=False,
            host_email="host@example.org",
            created_at=now,
            updated_at=now,
            current_seq=0,
            to_act_seat=engine.to_act(state),
            turn_started_at=now,
        )
        game.seats = [
            Seat(seat_index=index, display_name=name, is_bot=index in computers,
                 email=None if index in computers else f"{name.lower()}@example.org")
            for index, name in enumerate(state.players)
        ]
        session.add(game)
        session.flush()
        session.add(Snapshot(game_id=game.id, seq=0, state=state.to_dict(), move=None, events=[], actor_seat=None,
                             submission_id=None, created_at=now))
        return game.public_id


def seat_token(runtime: Runtime, game_id: str, seat: int) -> str:
    """The token of a fresh magic link to that seat."""
    return runtime.games.invites(game_id)[seat].link.rsplit("/", 1)[1]


# -- a real server and a real browser ----------------------------------------------------------------------

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-sync",
]
ARTIFACTS = REPO_ROOT / "artifacts"


@dataclass
class LiveServer:
    url: str
    app: Flask
    runtime: Runtime

    def link(self, game_id: str, seat: int) -> str:
        return self.runtime.games.invites(game_id)[seat].link


class _Dispatch:
    """Lets the server bind its port before the app exists, so the app's base_url names that port."""

    app: Flask | None = None

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        assert self.app is not None
        return self.app(environ, start_response)


@pytest.fixture
def live_server(config: Config, clock: SettableClock) -> Iterator[LiveServer]:
    """The application behind a real HTTP server on 127.0.0.1, in a thread, for headless Chromium."""
    dispatch = _Dispatch()
    server: BaseWSGIServer = make_server("127.0.0.1", 0, dispatch, threaded=True)
    url = f"http://127.0.0.1:{server.server_port}"
    for app in built_app(dataclasses.replace(config, base_url=url), clock):
        dispatch.app = app
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield LiveServer(url=url, app=app, runtime=app_runtime(app))
        finally:
            server.shutdown()
            thread.join()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless, driven by Playwright (never a downloaded browser)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def screenshots(request: pytest.FixtureRequest) -> Callable[[Any, str], Path]:
    """Save a page as `artifacts/screenshots/<test>/<name>.png` (git-ignored) and return the path."""
    folder = ARTIFACTS / "screenshots" / request.node.name.replace("[", "-").replace("]", "").replace("/", "-")
    folder.mkdir(parents=True, exist_ok=True)

    def take(page: Any, name: str) -> Path:
        path = folder / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}


@pytest.fixture(params=sorted(VIEWPORTS))
def page(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    """A fresh browser context (no cookies) at a phone's and at a desktop's size; fails on any script error
    and on any failed request other than a page's own (a page may rightly answer 409 or 422)."""
    if "live_server" in request.fixturenames:
        # Set the server up first, so it is torn down last: the page's own requests finish before it stops.
        request.getfixturevalue("live_server")
    context = browser.new_context(viewport=VIEWPORTS[request.param], device_scale_factor=1)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    # A page answered with 409 or 422 is expected; a failing script, style or JSON request is not.
    opened.on("response", lambda response: errors.append(f"{response.status} {response.url}")
              if response.status >= 400 and response.request.resource_type != "document" else None)
    opened.on("console", lambda message: errors.append(message.text)
              if message.type == "error" and not message.text.startswith("Failed to load resource") else None)
    try:
        yield opened
        settle(opened)
    finally:
        context.close()
    assert errors == [], f"the page reported errors: {errors}"


def settle(page: Page) -> None:
    """Let a turn page's script finish its own requests (it marks the table ready), so none of them
    reaches the server after the test's database is gone."""
    if page.locator("#table").count():
        page.locator('#table[data-script="ready"]').wait_for(timeout=15_000)


# -- replies by email (issue 9): a reply address, and a real IMAP server -------------------------------------

REPLY_ADDRESS = "play@replies.pbem.test"


@pytest.fixture
def reply_runtime(config: Config, clock: SettableClock) -> Iterator[Runtime]:
    """The application with replies on: every player email carries a Reply-To signed for its seat."""
    mail = dataclasses.replace(config.mail, reply_address=REPLY_ADDRESS, inbound_max_kb=64)
    built = build_runtime(dataclasses.replace(config, mail=mail), clock=clock)
    yield built
    built.close()


@dataclass(frozen=True)
class ImapServer:
    """Dovecot on loopback with one passwd-file user and a Maildir under a temporary folder."""

    host: str
    port: int
    user: str
    password: str
    log: Path

    def connect(self) -> imaplib.IMAP4:
        client = imaplib.IMAP4(self.host, self.port, timeout=10)
        client.login(self.user, self.password)
        return client

    def deliver(self, raw: bytes) -> None:
        """Put a message into the INBOX, as the operator's mail server would (IMAP APPEND)."""
        client = self.connect()
        try:
            status, data = client.append("INBOX", None, None, raw)
            assert status == "OK", data
        finally:
            client.logout()

    def empty(self) -> None:
        """Delete every message in the INBOX (each test starts with an empty mailbox)."""
        client = self.connect()
        try:
            status, data = client.select("INBOX")
            assert status == "OK", data
            if int(data[0] or 0):
                client.store("1:*", "+FLAGS.SILENT", r"(\Deleted)")
                client.expunge()
        finally:
            client.logout()

    def count(self) -> int:
        """Messages in the INBOX now."""
        client = self.connect()
        try:
            status, data = client.select("INBOX")
            assert status == "OK", data
            return int(data[0] or 0)
        finally:
            client.logout()


DOVECOT = "/usr/sbin/dovecot"
DOVECOT_CONFIG = """\
protocols = imap
listen = 127.0.0.1
base_dir = {folder}/run
state_dir = {folder}/state
instance_name = pbem-test-{port}
default_internal_user = {user}
default_internal_group = {group}
default_login_user = {user}
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
log_path = {folder}/dovecot.log
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {folder}/users
}}
userdb {{
  driver = passwd-file
  args = username_format=%u {folder}/users
}}
mail_location = maildir:{folder}/mail/%u
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
"""


@pytest.fixture
def imap_server(dovecot: ImapServer) -> ImapServer:
    """A real IMAP server on loopback with an empty INBOX (one Dovecot serves the whole test session)."""
    dovecot.empty()
    return dovecot


@pytest.fixture(scope="session")
def dovecot() -> Iterator[ImapServer]:
    """Debian's dovecot-imapd (which `make test` installs) as an unprivileged process with its own configuration
    in a temporary folder: plain-text login on loopback, a passwd-file user, Maildir under the folder."""
    if not os.path.exists(DOVECOT):
        pytest.fail("dovecot-imapd is not installed; `make test` installs it (SYSTEM_PACKAGES in the Makefile)")
    # As root, the server runs as nobody; otherwise as whoever runs the tests.
    account = pwd.getpwnam("nobody") if os.geteuid() == 0 else pwd.getpwuid(os.geteuid())
    group = grp.getgrgid(account.pw_gid).gr_name
    folder = Path(tempfile.mkdtemp(prefix="pbem-imap-"))
    port = free_port()
    user, password = "pbem", "imap-test-password"
    for name in ("run", "state", "mail", "home"):
        (folder / name).mkdir()
    (folder / "dovecot.conf").write_text(
        DOVECOT_CONFIG.format(folder=folder, port=port, user=account.pw_name, group=group)
    )
    (folder / "users").write_text(f"{user}:{{PLAIN}}{password}:{account.pw_uid}:{account.pw_gid}::{folder}/home\n")
    command = [DOVECOT, "-F", "-c", str(folder / "dovecot.conf")]
    if os.geteuid() == 0:
        for path in [folder, *folder.rglob("*")]:
            os.chown(path, account.pw_uid, account.pw_gid)
        command = ["setpriv", f"--reuid={account.pw_uid}", f"--regid={account.pw_gid}", "--clear-groups", *command]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait_until_listening(process, port, folder / "dovecot.log")
        yield ImapServer("127.0.0.1", port, user, password, folder / "dovecot.log")
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(folder, ignore_errors=True)


def _wait_until_listening(process: subprocess.Popen[bytes], port: int, log: Path) -> None:
    """Dovecot forks its listeners after start-up; wait (bounded) until the port answers, or say why not."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if process.poll() is not None:
            stderr = process.stderr.read().decode() if process.stderr else ""
            details = log.read_text() if log.exists() else ""
            pytest.fail(f"dovecot exited with {process.returncode}: {stderr}{details}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)  # a server process starting up, not the application's clock
    pytest.fail(f"dovecot did not listen on port {port} within 15 seconds")
