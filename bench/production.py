"""The production shape on loopback, for benchmarks: a config file, migrations, gunicorn and the scheduler.

`production(database_url, ...)` writes a TOML configuration (mode "production", a fresh secret), runs
`pbem db upgrade`, starts `gunicorn --workers N 'pbem:create_app()'` and one `pbem scheduler` process, both
reading that file through `PBEM_CONFIG` as a real deployment does, and stops them when the block ends.
The yielded `Production` also holds a Runtime of the same configuration, for setting up games the way the
command line does.

As in a deployment, gunicorn serves plain http on loopback behind an HTTPS reverse proxy: the public
`base_url` is https:// (production mode refuses anything else) and `trusted_proxies` is 1. The benchmark
clients stand where the proxy would, talking http to 127.0.0.1 with the headers it adds
(`bench.http_client.PROXY_HEADERS`), while the links in pages and emails say https.
"""

from __future__ import annotations

import http.client
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


@dataclass
class Production:
    url: str  # where the clients connect: plain http on loopback (the links say https://, the base_url)
    host: str
    port: int
    config_path: Path
    secret: str
    runtime: Any  # pbem.runtime.Runtime of the same configuration
    logs: Path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    return json.dumps(str(value))  # a TOML basic string for plain ASCII


def write_config(path: Path, top: dict[str, Any], sections: dict[str, dict[str, Any]]) -> None:
    lines = [f"{key} = {toml_value(value)}" for key, value in top.items()]
    for name, values in sections.items():
        lines.append(f"\n[{name}]")
        lines.extend(f"{key} = {toml_value(value)}" for key, value in values.items())
    path.write_text("\n".join(lines) + "\n")


def wait_for_http(host: str, port: int, path: str = "/healthz", timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            connection = http.client.HTTPConnection(host, port, timeout=5)
            connection.request("GET", path)
            if connection.getresponse().status == 200:
                return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"nothing answered on {host}:{port}{path} within {timeout:.0f} s")
        time.sleep(0.2)


@contextmanager
def production(
    database_url: str,
    *,
    workers: int = 4,
    mail: dict[str, Any] | None = None,
    scheduler: dict[str, Any] | None = None,
    bench_routes: bool = False,
) -> Iterator[Production]:
    from pbem.config import load_config
    from pbem.runtime import build_runtime

    port = free_port()
    secret = secrets.token_urlsafe(32)
    with tempfile.TemporaryDirectory(prefix="pbem-bench-") as scratch:
        root = Path(scratch)
        config_path = root / "config.toml"
        write_config(
            config_path,
            {
                "mode": "production",
                "base_url": f"https://127.0.0.1:{port}",
                "trusted_proxies": 1,
                "secret_keys": [secret],
                "database_url": database_url,
                "instance_path": str(root / "instance"),
                "bench_routes": bench_routes,
            },
            {"mail": mail or {}, "scheduler": scheduler or {}},
        )
        env = {**os.environ, "PBEM_CONFIG": str(config_path)}
        subprocess.run([str(BIN / "pbem"), "db", "upgrade"], env=env, cwd=REPO, check=True,
                       stdout=subprocess.DEVNULL)
        web_log = (root / "gunicorn.log").open("wb")
        scheduler_log = (root / "scheduler.log").open("wb")
        web = subprocess.Popen(
            [str(BIN / "gunicorn"), "--workers", str(workers), "--bind", f"127.0.0.1:{port}",
             "--log-level", "warning", "pbem:create_app()"],
            env=env, cwd=REPO, stdout=web_log, stderr=subprocess.STDOUT,
        )
        sched = subprocess.Popen([str(BIN / "pbem"), "scheduler"], env=env, cwd=REPO,
                                 stdout=scheduler_log, stderr=subprocess.STDOUT)
        runtime = build_runtime(load_config(config_path, environ={}))
        try:
            wait_for_http("127.0.0.1", port)
            yield Production(url=f"http://127.0.0.1:{port}", host="127.0.0.1", port=port, config_path=config_path,
                             secret=secret, runtime=runtime, logs=root)
        finally:
            runtime.close()
            for process in (web, sched):
                process.send_signal(signal.SIGTERM)
            for process in (web, sched):
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()
            web_log.close()
            scheduler_log.close()
            tail = (root / "gunicorn.log").read_text(errors="replace")[-3000:]
            if "Traceback" in tail:
                print("gunicorn log (tail):\n" + tail, file=sys.stderr)
