"""A notification receiver on loopback, standing in for an ntfy server or a JSON webhook: it records each request
as it arrived and answers with the status a test chooses (a redirect, a 4xx, a 5xx), or is stopped (down)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Arrived:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Receiver:
    port: int
    arrived: list[Arrived] = field(default_factory=list)
    status: int = 200
    location: str = ""

    def url(self, scheme: str, path: str) -> str:
        """Apprise's form for this receiver: json://127.0.0.1:PORT/hook, ntfy://127.0.0.1:PORT/topic."""
        return f"{scheme}://127.0.0.1:{self.port}/{path.lstrip('/')}"


@contextmanager
def receiver() -> Iterator[Receiver]:
    """A receiver serving on a free loopback port until the block ends."""
    state = Receiver(port=0)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            state.arrived.append(Arrived(self.command, self.path, dict(self.headers.items()), body))
            self.send_response(state.status)
            if state.location:
                self.send_header("Location", state.location)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"{}")

        do_GET = do_POST  # noqa: N815

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
