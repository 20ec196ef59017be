"""A small HTTP load client for the benchmarks: one connection per request (gunicorn's sync workers close
each), threads in a closed loop, latencies kept per request. Standard library only, so it stays light on
the machine it shares with the server.

Every request carries what an HTTPS reverse proxy in front of gunicorn adds (`PROXY_HEADERS`), for the servers
set up as deployed behind one (bench/production.py: `trusted_proxies = 1`); a server that trusts no proxy ignores
them."""

from __future__ import annotations

import http.client
import re
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

SESSION_COOKIE = re.compile(r"(?:^|,\s*)session=([^;]*)")
CSRF_ATTRIBUTE = re.compile(r'data-csrf="([^"]+)"')
# The client came over https from 127.0.0.1: what the proxy tells the app, which believes it with trusted_proxies.
PROXY_HEADERS = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "127.0.0.1"}


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes
    seconds: float

    def json(self) -> Any:
        import json

        return json.loads(self.body)


def send(host: str, port: int, method: str, path: str, *, form: dict[str, str] | None = None,
         headers: dict[str, str] | None = None, timeout: float = 60.0) -> Reply:
    body = urlencode(form) if form is not None else None
    sent_headers = {**PROXY_HEADERS, **(headers or {})}
    if body is not None:
        sent_headers["Content-Type"] = "application/x-www-form-urlencoded"
    start = time.perf_counter()
    connection = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=sent_headers)
        response = connection.getresponse()
        data = response.read()
        got = {name.lower(): value for name, value in response.getheaders()}
        # Several Set-Cookie headers are folded; keep them all.
        cookies = response.msg.get_all("Set-Cookie") or []
        if cookies:
            got["set-cookie"] = ", ".join(cookies)
    finally:
        connection.close()
    return Reply(response.status, got, data, time.perf_counter() - start)


def session_cookie(reply: Reply, previous: str = "") -> str:
    match = SESSION_COOKIE.search(reply.headers.get("set-cookie", ""))
    return match.group(1) if match else previous


@dataclass
class Stats:
    name: str
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.latencies)

    @property
    def rps(self) -> float:
        return self.count / self.seconds if self.seconds else 0.0

    def percentile(self, fraction: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]

    @property
    def server_errors(self) -> int:
        return sum(count for status, count in self.statuses.items() if status >= 500)

    def line(self) -> str:
        bad = sum(count for status, count in self.statuses.items() if status >= 400)
        return (f"{self.name:<22} {self.count:>6} req  {self.rps:>8.1f} req/s  "
                f"p50 {self.percentile(0.5) * 1e3:7.1f} ms  p99 {self.percentile(0.99) * 1e3:7.1f} ms  "
                f"errors {bad}" + (f" (first: {self.failures[0]})" if self.failures else ""))

    def merge(self, other: Stats) -> None:
        self.seconds += other.seconds
        self.latencies.extend(other.latencies)
        for status, count in other.statuses.items():
            self.statuses[status] = self.statuses.get(status, 0) + count
        self.failures.extend(other.failures[: max(0, 5 - len(self.failures))])

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "count": self.count, "rps": self.rps, "p50_ms": self.percentile(0.5) * 1e3,
                "p99_ms": self.percentile(0.99) * 1e3, "statuses": self.statuses, "failures": self.failures[:5],
                "median_ms": statistics.median(self.latencies) * 1e3 if self.latencies else None}


def closed_loop(name: str, seconds: float, concurrency: int, one: Callable[[int], Reply | None]) -> Stats:
    """`concurrency` threads each call `one(thread)` back to back for `seconds`; each reply is one sample.

    `one` returns None when it has nothing more to send (the thread stops)."""
    stats = Stats(name)
    lock = threading.Lock()
    stop_at = time.perf_counter() + seconds

    def worker(index: int) -> None:
        while time.perf_counter() < stop_at:
            try:
                reply = one(index)
            except Exception as exc:  # a refused or dropped connection is a failure to count, not a crash
                with lock:
                    stats.failures.append(repr(exc))
                    stats.statuses[0] = stats.statuses.get(0, 0) + 1
                continue
            if reply is None:
                return
            with lock:
                stats.latencies.append(reply.seconds)
                stats.statuses[reply.status] = stats.statuses.get(reply.status, 0) + 1
                if reply.status >= 400 and len(stats.failures) < 5:
                    stats.failures.append(f"{reply.status} {reply.body[:200]!r}")

    threads = [threading.Thread(target=worker, args=(index,)) for index in range(concurrency)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stats.seconds = time.perf_counter() - started
    return stats
