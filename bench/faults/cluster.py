"""A private PostgreSQL cluster for a fault run: its own data folder, its own port on 127.0.0.1, stopped and
removed afterwards whatever happens. The machine's shared server is never touched: a fault that restarts the
database restarts this one.

initdb refuses to run as root, so as root the cluster belongs to the `postgres` user (`runuser`).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

STOP_TIMEOUT_SECONDS = 30


def postgres_bin() -> Path:
    """The newest installed PostgreSQL's programs (Debian: /usr/lib/postgresql/<major>/bin)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parent.parent.name))
    if not found:
        raise RuntimeError("no PostgreSQL server programs under /usr/lib/postgresql/*/bin")
    return Path(found[-1]).parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Cluster:
    bin: Path
    data: Path
    port: int
    log: Path
    run_as: list[str]

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _pg_ctl(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[bytes]:
        command = [*self.run_as, str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), *args]
        return subprocess.run(command, check=check, capture_output=True, timeout=STOP_TIMEOUT_SECONDS + 30)

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={self.data}"
        self._pg_ctl("-w", "-t", str(STOP_TIMEOUT_SECONDS), "-o", options, "start")

    def stop(self, mode: str = "fast") -> None:
        """fast: connections are cut, as a crash or a restart by the operator would cut them."""
        self._pg_ctl("-w", "-t", str(STOP_TIMEOUT_SECONDS), "-m", mode, "stop", check=False)

    def is_running(self) -> bool:
        return self._pg_ctl("status", check=False).returncode == 0


@contextmanager
def private_cluster() -> Iterator[Cluster]:
    """initdb a new cluster in a temporary folder, start it, yield it; stop it and delete the folder after."""
    bin_dir = postgres_bin()
    root = Path(tempfile.mkdtemp(prefix="pbem-faults-pg-"))
    run_as: list[str] = []
    if os.geteuid() == 0:
        account = pwd.getpwnam("postgres")
        os.chown(root, account.pw_uid, account.pw_gid)
        run_as = ["runuser", "-u", "postgres", "--"]
    data = root / "data"
    cluster = Cluster(bin_dir, data, free_port(), root / "postgres.log", run_as)
    try:
        subprocess.run(
            [*run_as, str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
             "--no-sync"],
            check=True, capture_output=True, timeout=120,
        )
        with (data / "postgresql.conf").open("a") as conf:
            conf.write("fsync = off\nsynchronous_commit = off\nfull_page_writes = off\nmax_connections = 100\n")
        cluster.start()
        yield cluster
    finally:
        if data.exists():
            cluster.stop("immediate")
        shutil.rmtree(root, ignore_errors=True)


def wait_until(condition, timeout: float, interval: float = 0.2) -> bool:  # type: ignore[no-untyped-def]
    """Poll `condition()` until it is true or `timeout` seconds have passed; returns whether it became true."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(interval)
    return bool(condition())
