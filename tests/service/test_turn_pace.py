"""A computer player's pace: about two seconds from its turn to its move by default, and configurable."""

from __future__ import annotations

from datetime import timedelta

from pbem.config import load_config
from pbem.scheduler.jobs import jobs


def test_a_computer_player_moves_within_about_two_seconds_by_default() -> None:
    config = load_config(environ={})
    bot_job = next(job for job in jobs(config) if job.id == "bot_turns")

    slowest = timedelta(seconds=config.scheduler.bot_delay_seconds) + bot_job.interval

    assert slowest <= timedelta(seconds=2)


def test_the_pace_is_configurable(tmp_path) -> None:
    path = tmp_path / "pbem.toml"
    path.write_text("[scheduler]\nbot_delay_seconds = 4\nbot_interval_seconds = 2\n")
    config = load_config(path, environ={})
    bot_job = next(job for job in jobs(config) if job.id == "bot_turns")

    assert config.scheduler.bot_delay_seconds == 4 and bot_job.interval == timedelta(seconds=2)


def test_the_base_url_can_name_another_port_from_the_environment() -> None:
    config = load_config(environ={"PBEM_BASE_URL": "http://127.0.0.1:5001"})

    assert config.base_url == "http://127.0.0.1:5001"
