"""Faults injected into the production shape on loopback, each a repeatable run that prints its figures.

    .venv/bin/python -m bench.faults.run postgres-restart [--outage 30] [--games 8] [--clients 6]
    .venv/bin/python -m bench.faults.run smtp-outage      [--outage 120] [--tempfail 60]
    .venv/bin/python -m bench.faults.run scheduler-kill
    .venv/bin/python -m bench.faults.run worker-kill      [--kills 10]
    .venv/bin/python -m bench.faults.run two-machines     [--games 40]
    .venv/bin/python -m bench.faults.run all
    .venv/bin/python -m bench.faults.run worker-kill --short   # any of them, with the outages of the tests

Every run starts its own PostgreSQL cluster (bench/faults/cluster.py: initdb, its own port and folder, removed
after), its own mail relay (aiosmtpd), gunicorn masters and `pbem scheduler` processes (bench/faults/stack.py),
plays games over HTTP with clients that retry a failed move with the same submission id (bench/faults/load.py),
breaks one thing, and then checks the promise (bench/faults/checks.py): no move lost or applied twice, no email
lost or sent twice, no 5xx once the fault is over, the outbox drained. It exits 1 if anything was lost or doubled.
The slow tests (tests/faults/test_processes.py) run the same scenarios with shorter outages.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from bench.faults.checks import Figures, check, outbox_counts, wait_for_outbox
from bench.faults.cluster import Cluster, private_cluster, wait_until
from bench.faults.load import Tally, create_games, play
from bench.faults.stack import Relay, Stack, relay_running, running_stack
from bench.http_client import send
from bench.short import parse_args

FAST_MAIL = {"deliver_interval_seconds": 1, "retry_base_seconds": 1, "retry_cap_seconds": 2, "lease_seconds": 10}
FAST_SCHEDULER = {"interval_seconds": 1, "sweep_interval_seconds": 1, "bot_delay_seconds": 0}
DRAIN_SECONDS = 120.0


@dataclass
class Outcome:
    """One fault run: what was done, how long it lasted, what happened during it, and the checks."""

    fault: str
    injected: str
    seconds: float
    moves_during: int = 0
    mail_during: int = 0
    requests_during: dict[int, int] = field(default_factory=dict)
    health_during: list[str] = field(default_factory=list)
    recovery_seconds: float | None = None
    errors_after: list[str] = field(default_factory=list)
    tally: dict[str, Any] = field(default_factory=dict)
    figures: Figures | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def problems(self) -> list[str]:
        found = list(self.figures.problems if self.figures else ["not checked"])
        if self.errors_after:
            found.append(f"{len(self.errors_after)} 5xx or unanswered requests after the fault: {self.errors_after[0]}")
        found.extend(self.extra.get("problems", []))
        return found

    def report(self) -> str:
        lines = [f"== {self.fault}: {self.injected}, {self.seconds:.1f} s",
                 f"   during it: {self.moves_during} moves played, {self.mail_during} emails received, "
                 f"requests by status {self.requests_during}"]
        if self.health_during:
            lines.append(f"   /healthz during it: {sorted(set(self.health_during))}")
        if self.recovery_seconds is not None:
            lines.append(f"   answering again {self.recovery_seconds:.1f} s after the fault ended")
        lines.append(f"   clients: {self.tally}")
        if self.figures:
            lines.append(f"   {self.figures.line()}")
        for key, value in self.extra.items():
            if key != "problems":
                lines.append(f"   {key}: {value}")
        lines.append("   OK: nothing lost, nothing doubled" if not self.problems
                     else "   PROBLEMS:\n     " + "\n     ".join(self.problems))
        return "\n".join(lines)


@contextmanager
def fresh_database(cluster: Cluster) -> Iterator[str]:
    """A new database in the private cluster for one scenario."""
    import psycopg

    name = f"faults_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(host="127.0.0.1", port=cluster.port, user="postgres", dbname="postgres",
                         autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    yield f"postgresql+psycopg://postgres@127.0.0.1:{cluster.port}/{name}"


def tally_summary(tally: Tally) -> dict[str, Any]:
    return {"moves": tally.moves, "retried": tally.retried_moves, "replayed": tally.replayed,
            "statuses": dict(sorted(tally.statuses.items())), "anomalies": tally.anomalies[:3]}


def health(port: int) -> str:
    try:
        reply = send("127.0.0.1", port, "GET", "/healthz", timeout=10)
    except OSError as exc:
        return f"no answer ({type(exc).__name__})"
    return f"{reply.status} {reply.body.decode(errors='replace').strip()}"


class Background:
    """The clients playing in a thread while the main thread breaks things."""

    def __init__(self, stack: Stack, games: list[Any], tally: Tally, *, clients: int, seed: int,
                 seconds: float = 600.0) -> None:
        self.stop = threading.Event()
        self.thread = threading.Thread(
            target=play, args=(stack.ports, games, tally),
            kwargs={"clients": clients, "seed": seed, "stop": self.stop.is_set, "seconds": seconds}, daemon=True,
        )

    def __enter__(self) -> Background:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(timeout=120)

    def wait(self, seconds: float) -> None:
        self.thread.join(timeout=seconds)


def finish(outcome: Outcome, stack: Stack, relay: Relay, games: list[Any], tally: Tally, *,
           expect_finished: bool = False, may_fail: set[str] = frozenset()) -> Outcome:  # type: ignore[assignment]
    wait_for_outbox(stack.runtime, DRAIN_SECONDS)
    time.sleep(1.5)  # a message the relay accepted is recorded as sent a moment later
    outcome.errors_after = list(tally.errors_after)
    outcome.tally = tally_summary(tally)
    outcome.figures = check(stack.runtime, list(relay.handler.received), [game.game_id for game in games],
                            tally.moves, expect_finished=expect_finished, may_fail=may_fail)
    if tally.anomalies:
        outcome.extra.setdefault("problems", []).append(f"{len(tally.anomalies)} unexpected answers: "
                                                       f"{tally.anomalies[0]}")
    return outcome


# -- the faults ---------------------------------------------------------------------------------------------


def postgres_restart(cluster: Cluster, *, outage: float = 30.0, games: int = 6, clients: int = 4,
                     before: float = 4.0, after: float = 6.0, seed: int = 1) -> Outcome:
    """The database stops (fast shutdown: connections cut) in the middle of moves and deliveries, stays down
    `outage` seconds, starts again; neither gunicorn nor the scheduler is restarted."""
    rng = random.Random(seed)
    # An email the relay took just before the outage is recorded once the database is back, if that is within half
    # the lease (600 s in production; here long enough for the outage, short elsewhere to keep runs quick).
    lease = {"lease_seconds": max(FAST_MAIL["lease_seconds"], int(outage * 3))}
    with relay_running() as relay, fresh_database(cluster) as url, running_stack(
        url, webs=1, workers=2, schedulers=1, mail={**relay.mail_settings, **FAST_MAIL, **lease},
        scheduler=FAST_SCHEDULER,
    ) as stack:
        table = create_games(stack.runtime, games, rng)
        tally = Tally()
        outcome = Outcome("postgres-restart", f"pg_ctl stop -m fast, {outage:.0f} s down, pg_ctl start", outage)
        with Background(stack, table, tally, clients=clients, seed=seed):
            time.sleep(before)
            moves, mail = tally.moves, relay.handler.count()
            tally.fault_open = True
            started = time.monotonic()
            cluster.stop("fast")
            while time.monotonic() - started < outage:
                outcome.health_during.append(health(stack.ports[0]))
                time.sleep(min(2.0, outage / 3))
            cluster.start()
            ended = time.monotonic()
            wait_until(lambda: all(health(port).startswith("200") for port in stack.ports), 60)
            outcome.recovery_seconds = time.monotonic() - ended
            tally.fault_open = False
            outcome.moves_during, outcome.mail_during = tally.moves - moves, relay.handler.count() - mail
            outcome.requests_during = dict(tally.during_fault)
            time.sleep(after)
        return finish(outcome, stack, relay, table, tally)


def smtp_outage(cluster: Cluster, *, outage: float = 120.0, tempfail: float = 60.0, games: int = 6,
                clients: int = 4, seed: int = 2) -> Outcome:
    """The relay refuses connections for `outage` seconds, then answers 451 to every message for `tempfail`
    seconds, and from then on refuses one player's address with 550."""
    rng = random.Random(seed)
    with relay_running() as relay, fresh_database(cluster) as url, running_stack(
        url, webs=1, workers=2, schedulers=1, mail={**relay.mail_settings, **FAST_MAIL}, scheduler=FAST_SCHEDULER,
    ) as stack:
        table = create_games(stack.runtime, games, rng)
        refused = "ben.0@faults.example.org"
        tally = Tally()
        outcome = Outcome("smtp-outage", f"relay off {outage:.0f} s, then 451 for {tempfail:.0f} s, then 550 for "
                                         f"{refused}", outage + tempfail)
        with Background(stack, table, tally, clients=clients, seed=seed):
            time.sleep(2)
            moves = tally.moves
            relay.down()
            time.sleep(outage)
            relay.handler.temporary = True
            relay.up()
            time.sleep(tempfail)
            relay.handler.refused.add(refused)
            relay.handler.temporary = False
            outcome.moves_during = tally.moves - moves
            outcome.extra["queued when the relay came back"] = outbox_counts(stack.runtime)
            time.sleep(4)
        outcome = finish(outcome, stack, relay, table, tally, may_fail={refused})
        notices = host_notices(stack, "host_mail_failing")
        failed_to_refused = sum(1 for to, _ in failed_rows(stack) if to == refused)
        outcome.extra["failed for the refused address"] = failed_to_refused
        outcome.extra["host told (mail failing notices)"] = notices
        if failed_to_refused and notices != 1:
            outcome.extra.setdefault("problems", []).append(f"the host was told {notices} times, not once")
        return outcome


def failed_rows(stack: Stack) -> list[tuple[str, str]]:
    from sqlalchemy import select

    from pbem.models import OutboxMessage

    with stack.runtime.db.read() as session:
        return [(to.lower(), kind) for to, kind in session.execute(
            select(OutboxMessage.to_address, OutboxMessage.kind).where(OutboxMessage.status == "failed"))]


def host_notices(stack: Stack, kind: str) -> int:
    from sqlalchemy import func, select

    from pbem.models import OutboxMessage

    with stack.runtime.db.read() as session:
        return session.scalar(select(func.count()).where(OutboxMessage.kind == kind)) or 0


def scheduler_kill(cluster: Cluster, *, overdue_games: int = 60, seed: int = 3, relay_delay: float = 0.05) -> Outcome:
    """SIGKILL the scheduler while it sends a batch (a slow relay), start it again; SIGKILL it in the middle of a
    sweep applying deadlines; then run two schedulers at once to the end."""
    from pbem.clock import SettableClock
    from pbem.config import load_config
    from pbem.runtime import build_runtime

    rng = random.Random(seed)
    with relay_running() as relay, fresh_database(cluster) as url, running_stack(
        url, webs=1, workers=1, schedulers=0, mail={**relay.mail_settings, **FAST_MAIL}, scheduler=FAST_SCHEDULER,
    ) as stack:
        # Games started four days ago (their first deadline, 72 hours, has passed): every one is due a timeout.
        past = build_runtime(load_config(stack.config_path, environ={}),
                             clock=SettableClock(datetime.now(UTC) - timedelta(days=4)))
        try:
            table = create_games(past, overdue_games, rng, label="Overdue")
        finally:
            past.close()
        outcome = Outcome("scheduler-kill", "SIGKILL mid-batch and mid-sweep, then two schedulers", 0.0)
        relay.handler.delay = relay_delay
        started = time.monotonic()
        first = stack.start_scheduler()
        mid_batch = wait_until(lambda: relay.handler.count() >= 5 and relay.handler.waiting > 0, 60, interval=0.01)
        stack.kill_scheduler(first)
        outcome.extra["killed mid-batch after emails received"] = relay.handler.count()
        second = stack.start_scheduler()
        mid_sweep = wait_until(lambda: 0 < server_moves(stack) < overdue_games, 60, interval=0.02)
        stack.kill_scheduler(second)
        outcome.extra["killed mid-sweep after timeouts applied"] = f"{server_moves(stack)} of {overdue_games}"
        if not (mid_batch and mid_sweep):
            outcome.extra.setdefault("problems", []).append("a kill did not land in the middle of its work")
        relay.handler.delay = 0.0
        stack.start_scheduler()
        stack.start_scheduler()
        wait_until(lambda: server_moves(stack) >= overdue_games, 60)
        outcome.seconds = time.monotonic() - started
        outcome = finish(outcome, stack, relay, table, Tally())
        timeouts = timeouts_per_game(stack)
        twice = {game: count for game, count in timeouts.items() if count != 1}
        reminders = repeated_reminders(stack)
        outcome.extra["timeouts applied"] = sum(timeouts.values())
        outcome.extra["reminders/warnings queued twice for one decision"] = reminders
        if twice or len(timeouts) != overdue_games:
            outcome.extra.setdefault("problems", []).append(
                f"timeouts: {len(timeouts)} games of {overdue_games} had one, {len(twice)} had another count")
        if reminders:
            outcome.extra.setdefault("problems", []).append(f"{reminders} reminders or warnings queued twice")
        return outcome


def server_moves(stack: Stack) -> int:
    from sqlalchemy import func, select

    from pbem.models import Snapshot

    with stack.runtime.db.read() as session:
        return session.scalar(select(func.count()).where(Snapshot.source == "server", Snapshot.seq > 0)) or 0


def timeouts_per_game(stack: Stack) -> dict[int, int]:
    from sqlalchemy import func, select

    from pbem.models import Snapshot

    with stack.runtime.db.read() as session:
        return dict(session.execute(select(Snapshot.game_id, func.count())
                                    .where(Snapshot.source == "server", Snapshot.seq > 0)
                                    .group_by(Snapshot.game_id)).all())


def repeated_reminders(stack: Stack) -> int:
    from sqlalchemy import func, select

    from pbem.models import OutboxMessage

    with stack.runtime.db.read() as session:
        groups = session.execute(
            select(func.count()).where(OutboxMessage.kind.in_(("turn_reminder", "deadline_warning")))
            .group_by(OutboxMessage.seat_id, OutboxMessage.game_seq, OutboxMessage.kind)
        ).scalars().all()
    return sum(count - 1 for count in groups if count > 1)


def worker_kill(cluster: Cluster, *, kills: int = 6, every: float = 1.5, games: int = 6, clients: int = 4,
                seed: int = 4) -> Outcome:
    """SIGKILL a gunicorn worker `kills` times, `every` seconds, while the clients post moves."""
    rng = random.Random(seed)
    with relay_running() as relay, fresh_database(cluster) as url, running_stack(
        url, webs=1, workers=2, schedulers=1, mail={**relay.mail_settings, **FAST_MAIL}, scheduler=FAST_SCHEDULER,
    ) as stack:
        table = create_games(stack.runtime, games, rng)
        tally = Tally()
        outcome = Outcome("worker-kill", f"SIGKILL a gunicorn worker {kills} times, every {every} s", kills * every)
        with Background(stack, table, tally, clients=clients, seed=seed):
            time.sleep(2)
            moves = tally.moves
            tally.fault_open = True
            for _ in range(kills):
                stack.kill_worker(stack.webs[0])
                time.sleep(every)
            wait_until(lambda: health(stack.ports[0]).startswith("200"), 30)
            time.sleep(1)
            tally.fault_open = False
            outcome.moves_during = tally.moves - moves
            outcome.requests_during = dict(tally.during_fault)
            time.sleep(3)
        outcome.extra["workers killed"] = stack.killed_workers
        return finish(outcome, stack, relay, table, tally)


def two_machines(cluster: Cluster, *, games: int = 6, clients: int = 6, seconds: float = 600.0,
                 seed: int = 5) -> Outcome:
    """Two gunicorn masters (two machines) behind a round-robin and two schedulers on one PostgreSQL; every
    game is played to its end."""
    rng = random.Random(seed)
    with relay_running() as relay, fresh_database(cluster) as url, running_stack(
        url, webs=2, workers=2, schedulers=2, mail={**relay.mail_settings, **FAST_MAIL}, scheduler=FAST_SCHEDULER,
    ) as stack:
        table = create_games(stack.runtime, games, rng, seats=(3, 6))
        tally = Tally()
        started = time.monotonic()
        with Background(stack, table, tally, clients=clients, seed=seed, seconds=seconds) as background:
            background.wait(seconds)
        outcome = Outcome("two-machines", "2 gunicorn masters x 2 workers, round-robin, 2 schedulers",
                          time.monotonic() - started)
        outcome.moves_during = tally.moves
        return finish(outcome, stack, relay, table, tally, expect_finished=True)


SCENARIOS: dict[str, Callable[..., Outcome]] = {
    "postgres-restart": postgres_restart,
    "smtp-outage": smtp_outage,
    "scheduler-kill": scheduler_kill,
    "worker-kill": worker_kill,
    "two-machines": two_machines,
}
# --short: each fault as tests/faults/test_processes.py runs it, with short outages and a few games.
SHORT: dict[str, dict[str, Any]] = {
    "postgres-restart": {"outage": 4, "games": 3, "clients": 3, "before": 3, "after": 3},
    "smtp-outage": {"outage": 6, "tempfail": 4, "games": 3, "clients": 3},
    "scheduler-kill": {"overdue_games": 40},
    "worker-kill": {"kills": 4, "every": 1.0, "games": 3, "clients": 3},
    "two-machines": {"games": 3, "clients": 4, "seconds": 240},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("fault", choices=[*SCENARIOS, "all"])
    parser.add_argument("--outage", type=float, help="seconds the database or the relay stays down")
    parser.add_argument("--tempfail", type=float, help="smtp-outage: seconds of 451 answers after the outage")
    parser.add_argument("--games", type=int)
    parser.add_argument("--clients", type=int)
    parser.add_argument("--kills", type=int, help="worker-kill: how many workers to kill")
    parser.add_argument("--json", action="store_true", help="print the outcomes as JSON too")
    args = parse_args(parser)
    chosen = list(SCENARIOS) if args.fault == "all" else [args.fault]
    given = {key: value for key, value in vars(args).items()
             if value is not None and key in ("outage", "tempfail", "games", "clients", "kills")}
    failed = False
    with private_cluster() as cluster:
        for name in chosen:
            function = SCENARIOS[name]
            code = function.__code__
            accepted = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
            options = {**(SHORT[name] if args.short else {}), **given}
            outcome = function(cluster, **{key: value for key, value in options.items() if key in accepted})
            print(outcome.report(), flush=True)
            if args.json:
                print(json.dumps({**asdict(outcome), "problems": outcome.problems}, default=str))
            failed = failed or bool(outcome.problems)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
