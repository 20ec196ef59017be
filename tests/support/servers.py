"""`pbem run` as a process of its own, for the tests of what a person types: started, waited for until it
answers `/healthz`, and stopped when the test ends."""

from __future__ import annotations

import http.client
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest

START_SECONDS = 30


@contextmanager
def pbem_server(command: Sequence[str | Path], port: int, *, env: dict[str, str], log: Path,
                cwd: Path | None = None) -> Iterator[str]:
    """Run `command` (a `pbem run --port PORT`) with its output in `log`; yields its address once it answers."""
    with log.open("wb") as output:
        process = subprocess.Popen([str(part) for part in command], cwd=cwd, env=env, stdout=output,
                                   stderr=subprocess.STDOUT)
    try:
        wait_until_answering(process, port, log)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)


def wait_until_answering(process: subprocess.Popen[bytes], port: int, log: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"pbem run exited with {process.returncode}: {log.read_text()}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.05)  # a server process starting up, not the application's clock
    pytest.fail(f"pbem run did not answer on port {port} within {START_SECONDS} seconds: {log.read_text()}")
