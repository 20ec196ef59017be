"""A database that cannot be written (a read-only SQLite file, a full disk) or reached: a player's move gets a clear
503 that says nothing was saved and to try again, the game is not changed or corrupted, /healthz says so, and once
the storage is back the very same move (same submission id) is played once.

A full disk is a small tmpfs holding the database, filled to the last byte (skipped where mounting is not allowed);
a read-only file is opened read-only (SQLITE_READONLY, what a file the process may not write gives: the tests run
as root too, and root may write any file whatever its mode)."""

from __future__ import annotations

import html
import json
import os
import re
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from pbem import create_app
from pbem.clock import SettableClock
from pbem.config import AccessConfig, Config
from pbem.migrate import upgrade
from pbem.runtime import Runtime
from pbem.service.turns.values import PlayerSpec
from pbem.web.app_context import EXTENSION_KEY
from tests.support.database import BASE_URL, START, TEST_SECRET
from tests.support.games import link_token
from tests.support.mail import free_port

HIDDEN_FIELD = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)"')
PLAYERS = (PlayerSpec("Ann", "ann@example.org"), PlayerSpec("Ben", "ben@example.org"),
           PlayerSpec("Cat", "cat@example.org"))


def make_config(tmp_path: Path, database_url: str) -> Config:
    return Config(mode="development", base_url=BASE_URL, secret_keys=(TEST_SECRET,), database_url=database_url,
                  instance_path=str(tmp_path / "instance"), access=AccessConfig(game_creators="anyone"))


@dataclass
class Table:
    client: FlaskClient
    runtime: Runtime
    database: Path
    game_id: str
    token: str
    fields: dict[str, str]

    def move_form(self) -> dict[str, str]:
        state = self.client.get(f"/play/{self.token}/state.json").get_json()
        return {**self.fields, "move": json.dumps(state["legal_moves"][0]), "seq": str(state["seq"]),
                "confirmed": "yes"}

    def post(self, form: dict[str, str], accept: str = "application/json") -> Any:
        return self.client.post(f"/play/{self.token}/move", data=form, headers={"Accept": accept})

    def snapshots(self) -> int:
        with closing(sqlite3.connect(self.database)) as connection:
            return connection.execute("SELECT count(*) FROM snapshots").fetchone()[0]


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 4 MB tmpfs of its own, unmounted afterwards."""
    mount_point = tmp_path / "disk"
    mount_point.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount_point)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {mounted.stderr.strip()}")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], check=False)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    yield from open_table(tmp_path / "pbem.sqlite3", tmp_path)


@pytest.fixture
def table_on_small_disk(small_disk: Path, tmp_path: Path) -> Iterator[Table]:
    yield from open_table(small_disk / "pbem.sqlite3", tmp_path)


def open_table(database: Path, tmp_path: Path) -> Iterator[Table]:
    upgrade(f"sqlite:///{database}")
    clock = SettableClock(START)
    app = create_app(make_config(tmp_path, f"sqlite:///{database}"), clock=clock)
    runtime: Runtime = app.extensions[EXTENSION_KEY]
    game_id = runtime.games.create_game(title="Storage", players=PLAYERS, host_email="host@example.org")
    runtime.games.start_game(game_id)
    to_act = next(invite for invite in runtime.games.invites(game_id) if invite.seat == 0)
    token = link_token(to_act.link)
    client = app.test_client()
    page = client.get(f"/play/{token}", follow_redirects=True).get_data(as_text=True)
    yield Table(client, runtime, database, game_id, token, hidden_fields(page))
    runtime.close()


def hidden_fields(page: str) -> dict[str, str]:
    """The hidden fields of the page's first form that names each (the move form comes first)."""
    fields: dict[str, str] = {}
    for name, value in HIDDEN_FIELD.findall(page):
        fields.setdefault(name, html.unescape(value))
    return fields


def fill(disk: Path) -> Path:
    """Write a file until the disk has no byte left; returns it (delete it to make room again)."""
    filler = disk / "filler"
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        for size in (65536, 1):
            try:
                while os.write(descriptor, b"\0" * size):
                    pass
            except OSError:
                pass
    finally:
        os.close(descriptor)
    return filler


def test_a_move_on_a_full_disk_is_refused_with_a_clear_503_and_the_same_move_plays_once_when_there_is_room(
    table_on_small_disk: Table, small_disk: Path
) -> None:
    table = table_on_small_disk
    before = table.snapshots()
    form = table.move_form()
    filler = fill(small_disk)

    refused = [table.post(form) for _ in range(3)]
    filler.unlink()
    played = table.post(form)
    again = table.post(form)

    assert [response.status_code for response in refused] == [503, 503, 503]
    assert refused[0].get_json()["error"] == "database_unavailable"
    assert "nothing was saved" in refused[0].get_json()["message"]
    assert refused[0].headers["Retry-After"] == "30"
    assert played.status_code == 200 and played.get_json()["replayed"] is False
    assert again.status_code == 200 and again.get_json()["replayed"] is True
    assert table.snapshots() == before + 1
    with closing(sqlite3.connect(table.database)) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]


def test_a_read_only_database_file_refuses_a_move_with_a_page_saying_nothing_was_saved(
    table: Table, tmp_path: Path
) -> None:
    form = table.move_form()
    before = table.snapshots()
    read_only = make_config(tmp_path, f"sqlite:///file:{table.database}?mode=ro&uri=true")
    app = create_app(read_only, clock=SettableClock(START))
    client = app.test_client()
    client.get(f"/play/{table.token}", follow_redirects=True)
    # The CSRF token is bound to the browser's session: read it from this app's page.
    fields = hidden_fields(client.get(f"/table/{table.game_id}").get_data(as_text=True))

    response = client.post(f"/play/{table.token}/move", data={**form, **fields}, headers={"Accept": "text/html"})
    app.extensions[EXTENSION_KEY].close()

    text = response.get_data(as_text=True)
    assert response.status_code == 503
    assert "nothing was saved" in text and "try again" in text
    assert table.snapshots() == before
    assert table.post(form).status_code == 200  # the same form, once the file can be written again
    assert table.snapshots() == before + 1


def test_healthz_says_the_database_is_unreachable_with_503_and_a_page_request_gets_a_503_page(
    tmp_path: Path,
) -> None:
    nowhere = f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/gone"  # nothing listens there
    app = create_app(make_config(tmp_path, nowhere), clock=SettableClock(START))
    client = app.test_client()

    health = client.get("/healthz")
    page = client.get("/table/no-such-game", headers={"Accept": "text/html"})
    app.extensions[EXTENSION_KEY].close()

    assert health.status_code == 503
    assert health.get_json() == {"status": "unavailable", "database": "unreachable"}
    assert page.status_code == 503 and "nothing was saved" in page.get_data(as_text=True)
    assert page.headers["Retry-After"] == "30"

