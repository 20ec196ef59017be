"""Players for the fault runs: scripted clients that play games over HTTP, round-robin over the web machines,
and behave as a careful person does when the server fails: a move that got no answer, a 503 or a broken
connection is sent again with the same submission id until the server says it was played (or that the game
moved on without it), never with a new id.

Every request is counted by status and by the second it was answered in, so a run can say which 5xx fell inside
a fault window and that none came after it.
"""

from __future__ import annotations

import collections
import http.client
import itertools
import json
import random
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bench.http_client import CSRF_ATTRIBUTE, Reply, send, session_cookie

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")
RETRY_PAUSE = 0.25
MAX_TRIES = 240  # with the pause, a minute of retrying one move before the client gives up and says so


@dataclass
class Tally:
    """What the clients saw: statuses (0: no answer), moves played, retries, and when 5xx came."""

    statuses: collections.Counter[int] = field(default_factory=collections.Counter)
    moves: int = 0
    retried_moves: int = 0
    replayed: int = 0  # retries the server answered "already played" (the first try had been applied)
    during_fault: collections.Counter[int] = field(default_factory=collections.Counter)
    errors_after: list[str] = field(default_factory=list)
    anomalies: list[str] = field(default_factory=list)
    fault_open: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, status: int, what: str) -> None:
        with self.lock:
            self.statuses[status] += 1
            if status >= 500 or status == 0:
                if self.fault_open:
                    self.during_fault[status] += 1
                elif len(self.errors_after) < 20:
                    self.errors_after.append(f"{status} {what}")

    def anomaly(self, text: str) -> None:
        with self.lock:
            if len(self.anomalies) < 50:
                self.anomalies.append(text)

    @property
    def server_errors(self) -> int:
        return sum(count for status, count in self.statuses.items() if status >= 500 or status == 0)


@dataclass(frozen=True)
class TableGame:
    game_id: str
    tokens: list[str]


def create_games(runtime: Any, count: int, rng: random.Random, *, seats: tuple[int, int] = (3, 4),
                 label: str = "Fault") -> list[TableGame]:
    from pbem.service.turns.values import PlayerSpec

    games = []
    for number in range(count):
        names = NAMES[: rng.randint(*seats)]
        players = [PlayerSpec(name, f"{name.lower()}.{number}@faults.example.org") for name in names]
        game_id = runtime.games.create_game(title=f"{label} {number}", players=players,
                                            host_email=f"host.{number}@faults.example.org")
        runtime.games.start_game(game_id)
        games.append(TableGame(game_id, [invite.link.rsplit("/", 1)[1] for invite in runtime.games.invites(game_id)]))
    return games


class Servers:
    """Round-robin over the web machines' ports, as a load balancer in front of them would."""

    def __init__(self, ports: list[int]) -> None:
        self._next = itertools.cycle(ports)
        self._lock = threading.Lock()

    def port(self) -> int:
        with self._lock:
            return next(self._next)


class Player:
    def __init__(self, servers: Servers, tally: Tally, rng: random.Random, cookie: str, csrf: str) -> None:
        self.servers, self.tally, self.rng = servers, tally, rng
        self.headers = {"Cookie": f"session={cookie}", "Accept": "application/json"}
        self.csrf = csrf

    def request(self, method: str, path: str, form: dict[str, str] | None = None) -> Reply | None:
        try:
            reply = send("127.0.0.1", self.servers.port(), method, path, form=form, headers=self.headers, timeout=30)
        except (OSError, http.client.HTTPException) as exc:  # refused, reset, cut off mid-answer: no answer
            self.tally.count(0, f"{method} {path}: {exc!r}")
            return None
        self.tally.count(reply.status, f"{method} {path}: {reply.body[:120]!r}")
        return reply

    def view(self, token: str) -> dict[str, Any] | None:
        reply = self.request("GET", f"/play/{token}/state.json")
        if reply is None or reply.status != 200:
            return None
        return reply.json()

    def turn(self, game: TableGame, hint: int) -> int | None:
        """Play one turn; returns the seat to ask next time, None when the game is over."""
        view = self.view(game.tokens[hint])
        if view is None:
            time.sleep(RETRY_PAUSE)
            return hint
        if view["game"]["status"] != "active" or view["to_act"] is None:
            return None
        seat = view["to_act"]
        if seat != hint:
            view = self.view(game.tokens[seat])
            if view is None or view["to_act"] != seat:
                return seat
        self.play(game.tokens[seat], self.rng.choice(view["legal_moves"]), view["seq"])
        return seat

    def play(self, token: str, move: dict[str, Any], seq: int) -> None:
        """Post one move and, until an answer says what became of it, post the very same form again."""
        form = {"move": json.dumps(move), "seq": str(seq), "submission_id": secrets.token_urlsafe(12),
                "csrf_token": self.csrf, "confirmed": "yes"}
        for attempt in range(MAX_TRIES):
            reply = self.request("POST", f"/play/{token}/move", form)
            if reply is not None and reply.status == 200:
                answer = reply.json()
                if answer["seq"] != seq + 1:
                    self.tally.anomaly(f"a move at seq {seq} was recorded as {answer['seq']}")
                with self.tally.lock:
                    self.tally.moves += 1
                    self.tally.retried_moves += attempt > 0
                    self.tally.replayed += bool(answer.get("replayed")) and attempt > 0
                return
            if reply is not None and reply.status < 500:
                # Refused for a reason of the game's (409: someone else moved first); only after a retry may it be
                # "stale" because our own first try went through: the same id then answers "replayed" instead.
                self.tally.anomaly(f"a move at seq {seq} answered {reply.status}: {reply.body[:160]!r}")
                return
            time.sleep(RETRY_PAUSE)
        self.tally.anomaly(f"a move at seq {seq} got no answer in {MAX_TRIES} tries")


def open_session(port: int, game: TableGame) -> tuple[str, str]:
    """A browser's session cookie and its CSRF token, as the turn page hands them out (any server: one secret)."""
    cookie = session_cookie(send("127.0.0.1", port, "GET", f"/play/{game.tokens[0]}"))
    page = send("127.0.0.1", port, "GET", f"/table/{game.game_id}", headers={"Cookie": f"session={cookie}"})
    cookie = session_cookie(page, cookie)
    match = CSRF_ATTRIBUTE.search(page.body.decode())
    if match is None:
        raise RuntimeError(f"the turn page gave no CSRF token (status {page.status})")
    return cookie, match.group(1)


def play(ports: list[int], games: list[TableGame], tally: Tally, *, clients: int, seed: int,
         stop: Callable[[], bool] = lambda: False, seconds: float = 600.0) -> None:
    """`clients` threads play the games round-robin over the servers until every game is over, `stop()` says so,
    or `seconds` have passed."""
    cookie, csrf = open_session(ports[0], games[0])
    servers = Servers(ports)
    pending: collections.deque[tuple[TableGame, int]] = collections.deque((game, 0) for game in games)
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def client(index: int) -> None:
        player = Player(servers, tally, random.Random(seed * 1000 + index), cookie, csrf)
        while not stop() and time.monotonic() < deadline:
            with lock:
                if not pending:
                    return
                game, hint = pending.popleft()
            try:
                following = player.turn(game, hint)
            except Exception as exc:  # noqa: BLE001 - a client bug must not hang the run: count it
                tally.anomaly(f"client error: {exc!r}")
                following = hint
            if following is not None:
                with lock:
                    pending.append((game, following))

    threads = [threading.Thread(target=client, args=(index,), daemon=True) for index in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(1.0, deadline - time.monotonic()) + 60)
