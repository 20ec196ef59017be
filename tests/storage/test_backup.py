"""`pbem db backup` and the documented restore: a game restored from a backup goes on from where the backup was
taken, and the links emailed before the backup still open the seat and play. SQLite always (the online backup
API, taken while the game is being played); PostgreSQL (pg_dump / pg_restore) in a private cluster, marked slow.
A backup is readable by its owner only from the moment it exists, on SQLite and through pg_dump."""

from __future__ import annotations

import html
import json
import os
import random
import re
import shutil
import sqlite3
import stat
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

import engine
from bench.faults.cluster import private_cluster
from pbem import create_app
from pbem.cli import main
from pbem.clock import SettableClock
from pbem.config import load_config
from pbem.db import with_driver
from pbem.migrate import upgrade
from pbem.runtime import Runtime, build_runtime
from pbem.web.app_context import EXTENSION_KEY
from tests.support.database import POSTGRES_URL, START, TEST_SECRET
from tests.support.games import PEOPLE, link_token

HIDDEN_FIELD = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)"')


def write_config(path: Path, database_url: str) -> Path:
    path.write_text(
        f'mode = "development"\nbase_url = "https://pbem.test"\nsecret_keys = ["{TEST_SECRET}"]\n'
        f'database_url = "{database_url}"\ninstance_path = "{path.parent / "instance"}"\n'
    )
    return path


def play(runtime: Runtime, game_id: str, moves: int, rng: random.Random) -> None:
    for _ in range(moves):
        state, seq = runtime.games.engine_state(game_id)
        seat = engine.to_act(state)
        assert seat is not None
        runtime.games.submit_move(game_id, seat, engine.bots.choose(state, seat, rng), seq, f"before-{seq}")


def backup(config_path: Path, target: Path) -> None:
    result = CliRunner().invoke(main, ["--config", str(config_path), "db", "backup", str(target)])
    assert result.exit_code == 0, result.output
    assert f"backed up to {target}" in result.output


def move_by_link(config_path: Path, link: str, clock: SettableClock) -> dict[str, object]:
    """Open an emailed link in a new browser and play a legal move from the page, as the player would."""
    config = load_config(config_path, environ={})
    app = create_app(config, clock=clock)
    client = app.test_client()
    token = link_token(link)
    try:
        page = client.get(f"/play/{token}", follow_redirects=True)
        assert page.status_code == 200, page.get_data(as_text=True)[:300]
        state = client.get(f"/play/{token}/state.json").get_json()
        fields = {name: html.unescape(value) for name, value in HIDDEN_FIELD.findall(page.get_data(as_text=True))}
        response = client.post(
            f"/play/{token}/move", headers={"Accept": "application/json"},
            data={**fields, "move": json.dumps(state["legal_moves"][0]), "seq": str(state["seq"]), "confirmed": "yes"},
        )
        assert response.status_code == 200, response.get_data(as_text=True)[:300]
        return {"seq_before": state["seq"], **response.get_json()}
    finally:
        app.extensions[EXTENSION_KEY].close()


@pytest.fixture
def sqlite_setup(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    database = tmp_path / "pbem.sqlite3"
    config_path = write_config(tmp_path / "config.toml", f"sqlite:///{database}")
    upgrade(f"sqlite:///{database}")
    yield config_path, database


def test_a_sqlite_game_restored_from_a_backup_goes_on_and_links_sent_before_still_play(
    sqlite_setup: tuple[Path, Path], tmp_path: Path
) -> None:
    config_path, database = sqlite_setup
    clock = SettableClock(START)
    runtime = build_runtime(load_config(config_path, environ={}), clock=clock)
    game_id = runtime.games.create_game(title="Backed up", players=PEOPLE, host_email="host@example.org")
    runtime.games.start_game(game_id)
    links = {invite.seat: invite.link for invite in runtime.games.invites(game_id)}
    play(runtime, game_id, 6, random.Random(1))
    _, seq_at_backup = runtime.games.engine_state(game_id)

    backup(config_path, tmp_path / "backup.sqlite3")  # online: the runtime's connections stay open
    play(runtime, game_id, 4, random.Random(2))  # played after the backup: the restore takes the game back
    runtime.close()
    # The documented restore: services stopped, the backup copied over the file, the old WAL files removed.
    shutil.copyfile(tmp_path / "backup.sqlite3", database)
    for leftover in (Path(f"{database}-wal"), Path(f"{database}-shm")):
        leftover.unlink(missing_ok=True)
    upgrade(f"sqlite:///{database}")

    restored = build_runtime(load_config(config_path, environ={}), clock=clock)
    state, seq = restored.games.engine_state(game_id)
    restored.close()
    to_act = engine.to_act(state)
    assert seq == seq_at_backup and to_act is not None
    answer = move_by_link(config_path, links[to_act], clock)
    assert answer["seq_before"] == seq_at_backup and answer["seq"] == seq_at_backup + 1
    with closing(sqlite3.connect(database)) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]


def test_a_backup_never_overwrites_a_file_and_says_so(sqlite_setup: tuple[Path, Path], tmp_path: Path) -> None:
    config_path, _ = sqlite_setup
    existing = tmp_path / "taken.sqlite3"
    existing.write_bytes(b"precious")

    result = CliRunner().invoke(main, ["--config", str(config_path), "db", "backup", str(existing)])

    assert result.exit_code == 1 and "exists already" in result.output
    assert existing.read_bytes() == b"precious"


@pytest.mark.slow
def test_a_postgres_game_restored_with_pg_restore_goes_on_and_links_sent_before_still_play(tmp_path: Path) -> None:
    with private_cluster() as cluster:
        admin = f"postgresql+psycopg://postgres@127.0.0.1:{cluster.port}"
        subprocess.run([*cluster.run_as, str(cluster.bin / "createdb"), "-h", "127.0.0.1", "-p", str(cluster.port),
                        "-U", "postgres", "live"], check=True, capture_output=True)
        config_path = write_config(tmp_path / "config.toml", f"{admin}/live")
        upgrade(f"{admin}/live")
        clock = SettableClock(START)
        runtime = build_runtime(load_config(config_path, environ={}), clock=clock)
        game_id = runtime.games.create_game(title="Backed up", players=PEOPLE, host_email="host@example.org")
        runtime.games.start_game(game_id)
        links = {invite.seat: invite.link for invite in runtime.games.invites(game_id)}
        play(runtime, game_id, 6, random.Random(1))
        _, seq_at_backup = runtime.games.engine_state(game_id)

        dump = tmp_path / "backup.dump"
        backup(config_path, dump)
        play(runtime, game_id, 4, random.Random(2))
        runtime.close()
        # The documented restore, over the live database.
        subprocess.run(["pg_restore", "--clean", "--if-exists", "--no-owner",
                        f"--dbname=postgresql://postgres@127.0.0.1:{cluster.port}/live", str(dump)],
                       check=True, capture_output=True)
        upgrade(f"{admin}/live")

        restored = build_runtime(load_config(config_path, environ={}), clock=clock)
        state, seq = restored.games.engine_state(game_id)
        restored.close()
        to_act = engine.to_act(state)
        assert seq == seq_at_backup and to_act is not None
        answer = move_by_link(config_path, links[to_act], clock)
        assert answer["seq_before"] == seq_at_backup and answer["seq"] == seq_at_backup + 1


# -- a backup holds every hand, every deal's salt and working seat links: only its owner may read it --------------


@pytest.fixture
def everyday_umask() -> Iterator[None]:
    """The usual umask (022), under which a file made without care is readable by everyone on the machine."""
    previous = os.umask(0o022)
    yield
    os.umask(previous)


@pytest.fixture
def postgres_database() -> Iterator[str]:
    """A database of its own on PBEM_TEST_DATABASE_URL's server (pg_dump reads a whole database)."""
    if not POSTGRES_URL:
        pytest.skip("PBEM_TEST_DATABASE_URL is not set")
    name = f"backup_{uuid.uuid4().hex[:12]}"
    admin = create_engine(with_driver(make_url(POSTGRES_URL)), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        url = make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False)
        upgrade(url)
        yield url
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
        admin.dispose()


def private_from_the_start(monkeypatch: pytest.MonkeyPatch, target: Path) -> list[int | None]:
    """The target's permission bits at the moment the copy starts writing (None: it did not exist yet)."""
    seen: list[int | None] = []

    def mode() -> int | None:
        return stat.S_IMODE(target.stat().st_mode) if target.exists() else None

    connect = sqlite3.connect

    def watched_connect(database: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        if Path(database) == target:
            seen.append(mode())
        return connect(database, *args, **kwargs)

    run = subprocess.run

    def watched_run(command: list[str], *args: Any, **kwargs: Any) -> Any:
        if Path(command[0]).name == "pg_dump":
            seen.append(mode())
        return run(command, *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", watched_connect)
    monkeypatch.setattr(subprocess, "run", watched_run)
    return seen


def test_a_sqlite_backup_is_readable_by_its_owner_only_from_the_moment_it_exists(
    sqlite_setup: tuple[Path, Path], tmp_path: Path, everyday_umask: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    config_path, _ = sqlite_setup
    target = tmp_path / "backup.sqlite3"
    seen = private_from_the_start(monkeypatch, target)

    backup(config_path, target)

    assert seen == [0o600]
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


@pytest.mark.postgres
def test_a_postgres_backup_is_readable_by_its_owner_only_from_the_moment_it_exists(
    postgres_database: str, tmp_path: Path, everyday_umask: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    config_path = write_config(tmp_path / "config.toml", postgres_database)
    target = tmp_path / "backup.dump"
    seen = private_from_the_start(monkeypatch, target)

    backup(config_path, target)

    assert seen == [0o600]
    assert stat.S_IMODE(target.stat().st_mode) == 0o600 and target.stat().st_size > 0


def test_a_failed_backup_leaves_no_file_behind(tmp_path: Path) -> None:
    config_path = write_config(tmp_path / "config.toml", f"sqlite:///{tmp_path / 'missing.sqlite3'}")
    target = tmp_path / "backup.sqlite3"

    result = CliRunner().invoke(main, ["--config", str(config_path), "db", "backup", str(target)])

    assert result.exit_code == 1 and "no database file" in result.output
    assert not target.exists()
