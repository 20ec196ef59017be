"""Faults injected into the real processes (gunicorn, `pbem scheduler`, a private PostgreSQL cluster, an aiosmtpd
relay, all on loopback), with the outages of bench/faults/run.py shortened: after each, nothing is lost or applied
twice, no email is lost or sent twice, no 5xx is left once the fault is over, and the outbox drains."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bench.faults import run as faults
from bench.faults.cluster import Cluster, private_cluster

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with private_cluster() as started:
        yield started


def test_a_database_restart_answers_503_meanwhile_and_everything_resumes_without_restarting_anything(
    cluster: Cluster,
) -> None:
    outcome = faults.postgres_restart(cluster, outage=4, games=3, clients=3, before=3, after=3)

    assert outcome.problems == [], outcome.report()
    assert set(outcome.requests_during) <= {503}, outcome.report()  # a clear 503, never a 500
    assert outcome.health_during and all(health.startswith("503") and "unreachable" in health
                                         for health in outcome.health_during)
    assert outcome.figures is not None and outcome.figures.player_snapshots > outcome.moves_during >= 0


def test_a_relay_down_then_failing_then_refusing_one_address_delivers_each_email_once_and_tells_the_host_once(
    cluster: Cluster,
) -> None:
    outcome = faults.smtp_outage(cluster, outage=6, tempfail=4, games=3, clients=3)

    assert outcome.problems == [], outcome.report()
    assert outcome.extra["failed for the refused address"] >= 1
    assert outcome.extra["host told (mail failing notices)"] == 1
    assert outcome.figures is not None and outcome.figures.mail_by_status.get("sent", 0) > 0


def test_schedulers_killed_mid_batch_and_mid_sweep_then_two_at_once_send_and_apply_everything_once(
    cluster: Cluster,
) -> None:
    outcome = faults.scheduler_kill(cluster, overdue_games=40)

    assert outcome.problems == [], outcome.report()
    assert outcome.extra["timeouts applied"] == 40


def test_a_gunicorn_worker_killed_during_moves_loses_no_move_and_the_retry_applies_once(cluster: Cluster) -> None:
    outcome = faults.worker_kill(cluster, kills=4, every=1.0, games=3, clients=3)

    assert outcome.problems == [], outcome.report()
    assert outcome.extra["workers killed"] == 4


def test_two_web_machines_and_two_schedulers_on_one_database_finish_every_game_with_nothing_lost_or_doubled(
    cluster: Cluster,
) -> None:
    outcome = faults.two_machines(cluster, games=3, clients=4, seconds=240)

    assert outcome.problems == [], outcome.report()
    assert outcome.figures is not None and outcome.figures.finished == 3
