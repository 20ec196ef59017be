"""The production shape on loopback, with handles to break it: web machines, schedulers and a mail relay.

`running_stack(database_url, webs=2, schedulers=2, ...)` writes one configuration file (mode "production"), runs
`pbem db upgrade`, and starts `webs` gunicorn masters (each its own port, as separate machines would be) and
`schedulers` `pbem scheduler` processes, every one reading that file through PBEM_CONFIG. The yielded `Stack`
can SIGKILL a gunicorn worker or a scheduler and start another; when the block ends every process it started
is stopped (SIGTERM, then SIGKILL of its whole process group), whatever happened.

`Relay` is the mail relay (aiosmtpd on loopback) that a fault script turns off, makes answer 4xx, refuses one
address with 5xx, or slows down; it keeps every message it accepted, with its Message-ID.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller

from bench.production import free_port, wait_for_http, write_config

FAULTS = Path(__file__).resolve().parent
REPO = FAULTS.parent.parent
BIN = Path(sys.executable).parent
STOP_SECONDS = 20


# -- the mail relay -----------------------------------------------------------------------------------------


class RelayHandler:
    """Accepts mail unless told otherwise: `temporary` answers every DATA with 451, `refused` answers RCPT TO for
    those addresses with 550, `delay` holds each RCPT TO that long before answering (a slow relay, in the middle of
    a conversation: a sender killed then has not handed the message over). `waiting` counts the RCPTs being held."""

    def __init__(self) -> None:
        self.received: list[tuple[str, str]] = []  # (recipient, Message-ID)
        self.temporary = False
        self.refused: set[str] = set()
        self.delay = 0.0
        self.waiting = 0
        self.lock = threading.Lock()

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: list[str]) -> str:
        if self.delay:
            self.waiting += 1
            try:
                await asyncio.sleep(self.delay)
            finally:
                self.waiting -= 1
        if address.lower() in self.refused:
            return "550 5.1.1 No such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.temporary:
            return "451 4.3.0 Try again later"
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.lock:
            for recipient in envelope.rcpt_tos:
                self.received.append((recipient.lower(), str(message["Message-ID"])))
        return "250 2.0.0 Accepted"

    def count(self) -> int:
        with self.lock:
            return len(self.received)


class Relay:
    """An SMTP relay on a fixed loopback port that can be switched off (connections refused) and on again."""

    def __init__(self) -> None:
        self.handler = RelayHandler()
        self.port = free_port()
        self._controller: Controller | None = None

    def up(self) -> None:
        if self._controller is None:
            self._controller = Controller(self.handler, hostname="127.0.0.1", port=self.port)
            self._controller.start()

    def down(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    @property
    def mail_settings(self) -> dict[str, Any]:
        return {"backend": "smtp", "host": "127.0.0.1", "port": self.port, "timeout_seconds": 1,
                "from_address": "Saboteur <saboteur@faults.example.org>"}


@contextmanager
def relay_running() -> Iterator[Relay]:
    relay = Relay()
    relay.up()
    try:
        yield relay
    finally:
        relay.down()


# -- processes ----------------------------------------------------------------------------------------------


@dataclass
class Web:
    port: int
    process: subprocess.Popen[bytes]

    def worker_pids(self) -> list[int]:
        """The gunicorn workers of this master (its children)."""
        path = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        try:
            return [int(pid) for pid in path.read_text().split()]
        except OSError:
            return []


@dataclass
class Stack:
    database_url: str
    config_path: Path
    env: dict[str, str]
    logs: Path
    webs: list[Web] = field(default_factory=list)
    schedulers: list[subprocess.Popen[bytes]] = field(default_factory=list)
    runtime: Any = None  # pbem.runtime.Runtime of the same configuration, for setting up games
    killed_workers: int = 0

    @property
    def ports(self) -> list[int]:
        return [web.port for web in self.webs]

    def _spawn(self, command: list[str], log_name: str) -> subprocess.Popen[bytes]:
        log = (self.logs / log_name).open("ab")
        try:
            # Its own process group, so the end of the run stops its children too (gunicorn's workers).
            return subprocess.Popen(command, env=self.env, cwd=REPO, stdout=log, stderr=subprocess.STDOUT,
                                    start_new_session=True)
        finally:
            log.close()

    def start_web(self, workers: int) -> Web:
        port = free_port()
        process = self._spawn(
            [str(BIN / "gunicorn"), "--workers", str(workers), "--bind", f"127.0.0.1:{port}", "--timeout", "60",
             "--log-level", "warning", "pbem:create_app()"],
            f"gunicorn-{len(self.webs)}.log",
        )
        web = Web(port, process)
        self.webs.append(web)
        wait_for_http("127.0.0.1", port)
        return web

    def start_scheduler(self) -> subprocess.Popen[bytes]:
        process = self._spawn([str(BIN / "pbem"), "scheduler"], f"scheduler-{len(self.schedulers)}.log")
        self.schedulers.append(process)
        return process

    def kill_scheduler(self, process: subprocess.Popen[bytes]) -> None:
        """SIGKILL: no clean-up, no rollback sent, exactly as a crash or the OOM killer would."""
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=STOP_SECONDS)

    def kill_worker(self, web: Web) -> int | None:
        """SIGKILL one gunicorn worker of `web` (its master starts another); returns its pid."""
        pids = web.worker_pids()
        if not pids:
            return None
        os.kill(pids[0], signal.SIGKILL)
        self.killed_workers += 1
        return pids[0]

    def stop_all(self) -> None:
        processes = [web.process for web in self.webs] + self.schedulers
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_SECONDS
        for process in processes:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(process.pid, signal.SIGKILL)  # the group this run started: the process and its children
            except ProcessLookupError:
                pass
            if process.poll() is None:
                process.wait(timeout=STOP_SECONDS)

    def log_text(self) -> str:
        return "\n".join(f"== {path.name}\n{path.read_text(errors='replace')[-4000:]}"
                         for path in sorted(self.logs.glob("*.log")))


@contextmanager
def running_stack(
    database_url: str,
    *,
    webs: int = 1,
    workers: int = 2,
    schedulers: int = 1,
    mail: dict[str, Any] | None = None,
    scheduler: dict[str, Any] | None = None,
    policies: dict[str, Any] | None = None,
) -> Iterator[Stack]:
    from pbem.config import load_config
    from pbem.runtime import build_runtime

    secret = secrets.token_urlsafe(32)
    with tempfile.TemporaryDirectory(prefix="pbem-faults-") as scratch:
        root = Path(scratch)
        config_path = root / "config.toml"
        write_config(
            config_path,
            {
                "mode": "production",
                "base_url": "https://pbem.faults.example.org",
                "secret_keys": [secret],
                "database_url": database_url,
                "instance_path": str(root / "instance"),
            },
            {"mail": mail or {}, "scheduler": scheduler or {"interval_seconds": 1, "sweep_interval_seconds": 1},
             "policies": policies or {}, "access": {"game_creators": "anyone"}},
        )
        env = {**os.environ, "PBEM_CONFIG": str(config_path)}
        subprocess.run([str(BIN / "pbem"), "db", "upgrade"], env=env, cwd=REPO, check=True,
                       stdout=subprocess.DEVNULL, timeout=120)
        stack = Stack(database_url, config_path, env, root)
        try:
            stack.runtime = build_runtime(load_config(config_path, environ={}))
            for _ in range(webs):
                stack.start_web(workers)
            for _ in range(schedulers):
                stack.start_scheduler()
            yield stack
        except BaseException:
            print(stack.log_text(), file=sys.stderr)
            raise
        finally:
            stack.stop_all()
            if stack.runtime is not None:
                stack.runtime.close()
