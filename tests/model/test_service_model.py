"""The promises of pages and emails, checked by a model of the whole service (tests/support/service_model.py):
random interleavings of moves, time, host actions, settings, table talk, spectators and their round-end emails,
rematches, games joined by invite, sign-in and fresh-link requests, with the twin check every few steps."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test

from pbem.config import Config
from tests.support.service_model import ServiceModel


def model(config: Config, tmp_path: Path, sqlite_template: Path) -> type[ServiceModel]:
    return type("Model", (ServiceModel,), {"config": config, "workdir": tmp_path, "template": sqlite_template})


@pytest.mark.slow
@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_service_keeps_its_promises_in_a_short_run(config: Config, tmp_path: Path, sqlite_template: Path) -> None:
    run_state_machine_as_test(model(config, tmp_path, sqlite_template), settings=settings(
        max_examples=10, stateful_step_count=25, deadline=None, derandomize=True,
        suppress_health_check=list(HealthCheck),
    ))


@pytest.mark.exhaustive
@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_service_keeps_its_promises_in_a_long_run(config: Config, tmp_path: Path, sqlite_template: Path) -> None:
    run_state_machine_as_test(model(config, tmp_path, sqlite_template), settings=settings(
        max_examples=200, stateful_step_count=80, deadline=None, suppress_health_check=list(HealthCheck),
    ))
