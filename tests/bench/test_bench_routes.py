"""The floor routes of bench/http_bench.py exist only when the configuration enables them."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from sqlalchemy import func, select

from pbem import create_app
from pbem.config import Config, ConfigError, load_config
from pbem.models import Game, HostAction
from tests.support.web import app_runtime


def game_pk(runtime, game_id: str) -> int:
    with runtime.db.read() as session:
        return session.scalar(select(Game.id).where(Game.public_id == game_id))


def test_the_floor_routes_are_absent_by_default(client, app, new_game) -> None:
    pk = game_pk(app_runtime(app), new_game())

    assert Config().bench_routes is False
    assert client.get(f"/bench/floor-a/{pk}").status_code == 404
    assert client.post(f"/bench/floor-b/{pk}").status_code == 404


def test_enabled_floor_a_reads_a_row_and_floor_b_writes_one(config, clock, chance, new_game, runtime) -> None:
    game_id = new_game()
    app = create_app(dataclasses.replace(config, bench_routes=True), clock=clock, chance=chance)
    client = app.test_client()
    pk = game_pk(runtime, game_id)
    try:
        page = client.get(f"/bench/floor-a/{pk}")
        written = client.post(f"/bench/floor-b/{pk}")
        missing = client.get(f"/bench/floor-a/{pk + 1000}")
    finally:
        app_runtime(app).close()

    assert page.status_code == 200 and "Test mine" in page.get_data(as_text=True)
    assert written.status_code == 204
    assert missing.status_code == 404
    with runtime.db.read() as session:
        floor_rows = select(func.count()).select_from(HostAction).where(HostAction.action == "bench_floor")
        assert session.scalar(floor_rows) == 1


@pytest.mark.parametrize("value", ['"yes"', "1"])
def test_bench_routes_must_be_true_or_false(tmp_path: Path, value: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f"bench_routes = {value}\n")

    with pytest.raises(ConfigError, match="bench_routes must be true or false"):
        load_config(path, environ={})
