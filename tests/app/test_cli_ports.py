"""Links name the port the development server serves on: after `pbem run --port P` (what `PORT=P make run`
starts), every later command (`pbem demo`, `pbem create-game`, `pbem sweep`) prints and emails links to port P,
with no variable to set again; an explicit base URL (PBEM_BASE_URL or `base_url` in the file) still wins."""

from __future__ import annotations

import http.client
import http.cookiejar
import os
import re
import urllib.request
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from flask import Flask
from sqlalchemy import select, update

from pbem.cli import main
from pbem.config import DEVELOPMENT_BASE_URL, load_config
from pbem.db import Database
from pbem.models import OutboxMessage, Seat, TurnClock
from pbem.paths import REPO_ROOT
from tests.support.mail import free_port
from tests.support.servers import pbem_server

PBEM = REPO_ROOT / ".venv" / "bin" / "pbem"
LINK = re.compile(r"https?://[^\s\"'<>)]+")


@pytest.fixture
def development(database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A development set-up as `make run` makes it (no base URL, a generated secret), in this test's own folder and
    database, migrated; nothing in the environment names an address or a port."""
    for variable in ("PBEM_BASE_URL", "PBEM_CONFIG", "PORT"):
        monkeypatch.delenv(variable, raising=False)
    path = tmp_path / "config.toml"
    path.write_text(f'database_url = "{database_url}"\ninstance_path = "{tmp_path / "instance"}"\n')
    pbem(path, "db", "upgrade")
    return path


def pbem(config_path: Path, *args: str, env: dict[str, str] | None = None) -> Result:
    result = CliRunner().invoke(main, ["--config", str(config_path), *args], env=env, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture
def server(development: Path) -> Iterator[str]:
    """`pbem run --port P` in a process of its own, on a free port (never 5000), until the test ends; yields the
    address it serves once it answers."""
    port = free_port()
    assert port != 5000
    env = {key: value for key, value in os.environ.items() if key not in ("PBEM_BASE_URL", "PBEM_CONFIG", "PORT")}
    log = development.with_name("pbem-run.log")
    with pbem_server([PBEM, "--config", development, "run", "--port", str(port)], port, env=env, log=log) as url:
        yield url


def links_in(text: str) -> list[str]:
    return LINK.findall(text)


def opens(link: str) -> int:
    """The status of the page a link leads to, in a browser of its own (it keeps the cookies the link sets)."""
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    with browser.open(link, timeout=10) as response:
        return int(response.status)


def outbox_links(config_path: Path) -> list[str]:
    db = Database(load_config(config_path, environ={}).database_url)
    try:
        with db.read() as session:
            messages = session.scalars(select(OutboxMessage)).all()
            return [link for message in messages for link in links_in(f"{message.body_text}\n{message.body_html}")]
    finally:
        db.dispose()


def make_a_reminder_due(config_path: Path) -> None:
    """The turns have waited a day and a half (`pbem sweep` runs on the real clock)."""
    db = Database(load_config(config_path, environ={}).database_url)
    try:
        with db.write() as session:
            session.execute(update(Seat).values(quiet_hours=""))  # whatever the hour of the test run
            for clock in session.scalars(select(TurnClock)):
                clock.started_at -= timedelta(hours=36)
                clock.due_at = clock.started_at + timedelta(hours=24)
    finally:
        db.dispose()


@pytest.mark.slow
def test_after_the_server_starts_on_another_port_every_command_links_to_that_port(
    development: Path, server: str
) -> None:
    demo = pbem(development, "demo", "--variant", "saboteur2", "--new")
    game = pbem(development, "create-game", "--title", "Friday mine", "--player", "Ann <ann@example.org>",
                "--player", "Ben <ben@example.org>", "--player", "Cat <cat@example.org>")
    make_a_reminder_due(development)
    sweep = pbem(development, "sweep")

    printed = links_in(demo.output) + links_in(game.output)
    assert len(printed) == 4 and "reminders 0," not in sweep.output
    emailed = outbox_links(development)
    assert emailed and all(link.startswith(f"{server}/") for link in printed + emailed)
    assert {opens(link) for link in printed} == {200}


@pytest.fixture
def started(development: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    """`pbem run --port PORT` as it starts, stopping where it would go on serving (the test above serves)."""
    served: list[int] = []
    monkeypatch.setattr(Flask, "run", lambda app, host, port, **options: served.append(port))

    def start(port: int) -> None:
        pbem(development, "run", "--port", str(port))
        assert served[-1] == port

    return start


def test_an_explicit_base_url_still_wins_over_the_served_port(
    development: Path, started: Callable[[int], None]
) -> None:
    started(5201)
    from_environment = pbem(development, "demo", "--new", env={"PBEM_BASE_URL": "https://games.example.org"})
    with_a_file = development.with_name("explicit.toml")
    with_a_file.write_text(development.read_text() + 'base_url = "https://pbem.example.org"\n')
    from_the_file = pbem(with_a_file, "demo", "--new")

    assert links_in(from_environment.output)[0].startswith("https://games.example.org/play/")
    assert links_in(from_the_file.output)[0].startswith("https://pbem.example.org/play/")


def test_links_follow_the_port_the_server_was_last_started_on(
    development: Path, started: Callable[[int], None]
) -> None:
    started(5201)
    started(5202)

    assert links_in(pbem(development, "demo").output)[0].startswith("http://127.0.0.1:5202/play/")


def test_the_server_itself_serves_links_to_its_own_port_whatever_ran_before(
    development: Path, started: Callable[[int], None]
) -> None:
    started(5201)

    result = pbem(development, "run", "--port", "5000")

    assert "links in emails use http://127.0.0.1:5000" in result.output


def test_before_any_server_has_run_links_name_the_default_port(development: Path) -> None:
    assert links_in(pbem(development, "demo").output)[0].startswith(f"{DEVELOPMENT_BASE_URL}/play/")
