"""A load test of correctness: many games played to the end over HTTP, with the mistakes real people make.

Starts the production shape on loopback (bench/production.py: PostgreSQL scratch schema, gunicorn with 4
workers, the scheduler) with the SMTP mail backend pointing at an aiosmtpd server this script runs, then
plays `--games` games of 3 to 6 seats to the end with `--clients` scripted players in threads. Each turn a
client reads state.json as the seat to act and posts one of its legal moves (form fields, CSRF token,
expected sequence number, submission id, as the turn page does), and now and then:

  double click     the same form posted twice at once: one move, the second answer replays the first
  stale form       an old form (the previous sequence number) posted first: refused with 409, nothing played
  concurrent moves two different moves of the seat posted at once: exactly one is played, the other gets 409

When every game is over and the outbox is empty, it checks: every game finished; each game's snapshots
are numbered 0..current with no gap; nothing is left waiting in the outbox, and only turn mail whose decision
was taken before it could go out was dropped; every email the outbox says was sent reached aiosmtpd exactly
once, at the address it names, and nothing else did; and no request got a 5xx.

    .venv/bin/python -m bench.soak [--games 500] [--clients 8] [--postgres URL] [--seed 1] [--short]
"""

from __future__ import annotations

import argparse
import collections
import email
import email.policy
import json
import queue
import random
import secrets
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiosmtpd.controller import Controller

from bench.http_client import CSRF_ATTRIBUTE, Reply, send, session_cookie
from bench.pg_schemas import scratch_schema
from bench.production import free_port, production
from bench.short import parse_args

DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")
DOUBLE_CLICK, STALE_FORM, CONCURRENT = 0.08, 0.05, 0.05


class Inbox:
    """aiosmtpd's handler: every message received, with the envelope recipients it was sent to."""

    def __init__(self) -> None:
        self.received: list[tuple[str, str]] = []  # (recipient, Message-ID)
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.lock:
            for recipient in envelope.rcpt_tos:
                self.received.append((recipient.lower(), str(message["Message-ID"])))
        return "250 OK"


@dataclass
class Tally:
    statuses: collections.Counter[int] = field(default_factory=collections.Counter)
    moves: int = 0
    double_clicks: int = 0
    stale_forms: int = 0
    concurrent: int = 0
    anomalies: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, reply: Reply) -> Reply:
        with self.lock:
            self.statuses[reply.status] += 1
        return reply

    def anomaly(self, text: str) -> None:
        with self.lock:
            if len(self.anomalies) < 50:
                self.anomalies.append(text)


class Player:
    """One scripted client: plays the games it takes from the queue, a turn at a time."""

    def __init__(self, host: str, port: int, cookie: str, csrf: str, tally: Tally, rng: random.Random) -> None:
        self.host, self.port, self.csrf, self.tally, self.rng = host, port, csrf, tally, rng
        self.headers = {"Cookie": f"session={cookie}", "Accept": "application/json"}

    def get(self, path: str) -> Reply:
        return self.tally.count(send(self.host, self.port, "GET", path, headers=self.headers))

    def post_move(self, token: str, move: dict[str, Any], seq: int, submission_id: str) -> Reply:
        form = {"move": json.dumps(move), "seq": str(seq), "submission_id": submission_id,
                "csrf_token": self.csrf, "confirmed": "yes"}
        return self.tally.count(send(self.host, self.port, "POST", f"/play/{token}/move", form=form,
                                     headers=self.headers))

    def turn(self, tokens: list[str], seat_hint: int) -> int | None:
        """Play one turn of the game; returns the seat to ask next time, None when the game is over."""
        state = self.get(f"/play/{tokens[seat_hint]}/state.json")
        if state.status != 200:
            self.tally.anomaly(f"state.json answered {state.status}")
            return seat_hint
        view = state.json()
        if view["game"]["status"] != "active" or view["to_act"] is None:
            return None
        seat = view["to_act"]
        if seat != seat_hint:
            state = self.get(f"/play/{tokens[seat]}/state.json")
            view = state.json()
            if view["to_act"] != seat:
                return view["to_act"]  # someone else moved in between; ask again
        moves, seq, token = view["legal_moves"], view["seq"], tokens[seat]
        move = self.rng.choice(moves)
        roll = self.rng.random()
        if roll < STALE_FORM and seq > 0:
            self.stale_form(token, move, seq)
        if roll < DOUBLE_CLICK:
            self.double_click(token, move, seq)
        elif roll < DOUBLE_CLICK + CONCURRENT and len(moves) > 1:
            other = self.rng.choice([candidate for candidate in moves if candidate != move])
            self.concurrent_moves(token, move, other, seq)
        else:
            reply = self.post_move(token, move, seq, secrets.token_urlsafe(12))
            self.expect_played(reply, seq, "a move")
        return seat

    def expect_played(self, reply: Reply, seq: int, what: str) -> bool:
        if reply.status != 200:
            self.tally.anomaly(f"{what} at seq {seq} answered {reply.status}: {reply.body[:160]!r}")
            return False
        if reply.json()["seq"] != seq + 1:
            self.tally.anomaly(f"{what} at seq {seq} was recorded as {reply.json()['seq']}")
            return False
        with self.tally.lock:
            self.tally.moves += 1
        return True

    def stale_form(self, token: str, move: dict[str, Any], seq: int) -> None:
        reply = self.post_move(token, move, seq - 1, secrets.token_urlsafe(12))
        with self.tally.lock:
            self.tally.stale_forms += 1
        if reply.status != 409:
            self.tally.anomaly(f"a stale form (seq {seq - 1}, now {seq}) answered {reply.status}")

    def double_click(self, token: str, move: dict[str, Any], seq: int) -> None:
        submission = secrets.token_urlsafe(12)
        replies = both(lambda: self.post_move(token, move, seq, submission),
                       lambda: self.post_move(token, move, seq, submission))
        with self.tally.lock:
            self.tally.double_clicks += 1
        if [reply.status for reply in replies] != [200, 200]:
            self.tally.anomaly(f"a double click at seq {seq} answered {[r.status for r in replies]}")
            return
        answers = [reply.json() for reply in replies]
        replayed = sorted(answer["replayed"] for answer in answers)
        if replayed != [False, True] or {answer["seq"] for answer in answers} != {seq + 1}:
            self.tally.anomaly(f"a double click at seq {seq} gave {answers}")
            return
        with self.tally.lock:
            self.tally.moves += 1

    def concurrent_moves(self, token: str, move: dict[str, Any], other: dict[str, Any], seq: int) -> None:
        replies = both(lambda: self.post_move(token, move, seq, secrets.token_urlsafe(12)),
                       lambda: self.post_move(token, other, seq, secrets.token_urlsafe(12)))
        with self.tally.lock:
            self.tally.concurrent += 1
        statuses = sorted(reply.status for reply in replies)
        if statuses != [200, 409]:
            self.tally.anomaly(f"two moves at once at seq {seq} answered {statuses}")
            return
        winner = next(reply for reply in replies if reply.status == 200)
        self.expect_played(winner, seq, "the winner of two moves at once")


def both(first: Callable[[], Reply], second: Callable[[], Reply]) -> list[Reply]:
    """Run two requests at the same moment (as two tabs, or two clicks, would)."""
    results: list[Reply | None] = [None, None]
    start = threading.Barrier(2)

    def run(index: int, call: Callable[[], Reply]) -> None:
        start.wait()
        results[index] = call()

    threads = [threading.Thread(target=run, args=(index, call)) for index, call in enumerate((first, second))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [result for result in results if result is not None]


# -- set-up and the checks at the end -----------------------------------------------------------------------


def create_games(runtime: Any, count: int, rng: random.Random) -> list[tuple[str, list[str]]]:
    from pbem.service.turns.values import PlayerSpec

    games = []
    for number in range(count):
        seats = NAMES[: rng.randint(3, 6)]
        players = [PlayerSpec(name, f"{name.lower()}.{number}@soak.example.org") for name in seats]
        game_id = runtime.games.create_game(title=f"Soak {number}", players=players, host_email="host@soak.example.org")
        runtime.games.start_game(game_id)
        games.append((game_id, [invite.link.rsplit("/", 1)[1] for invite in runtime.games.invites(game_id)]))
    return games


def wait_for_outbox(runtime: Any, timeout: float) -> dict[str, int]:
    from sqlalchemy import func, select

    from pbem.models import OutboxMessage

    deadline = time.monotonic() + timeout
    while True:
        with runtime.db.read() as session:
            by_status = select(OutboxMessage.status, func.count()).group_by(OutboxMessage.status)
            counts = dict(session.execute(by_status).all())
        if not counts.get("queued") and not counts.get("sending") or time.monotonic() > deadline:
            return counts
        time.sleep(1)


def check(runtime: Any, inbox: Inbox, tally: Tally, game_ids: list[str]) -> list[str]:
    from sqlalchemy import or_, select

    from pbem.mail.deliver import STALE_REASON
    from pbem.models import Game, OutboxMessage, Snapshot

    problems = []
    with runtime.db.read() as session:
        games = session.execute(select(Game.id, Game.public_id, Game.status, Game.current_seq)
                                .where(Game.public_id.in_(game_ids))).all()
        unfinished = [public for _, public, status, _ in games if status != "finished"]
        if unfinished or len(games) != len(game_ids):
            problems.append(f"{len(unfinished)} of {len(game_ids)} games did not finish")
        seqs: dict[int, list[int]] = collections.defaultdict(list)
        numbered = select(Snapshot.game_id, Snapshot.seq).order_by(Snapshot.game_id, Snapshot.seq)
        for game_pk, seq in session.execute(numbered):
            seqs[game_pk].append(seq)
        gaps = [public for pk, public, _, current in games if seqs[pk] != list(range((current or 0) + 1))]
        if gaps:
            problems.append(f"{len(gaps)} games have gaps or extra rows in their snapshot sequence, e.g. {gaps[0]}")
        sent = [(to.lower(), message_id) for to, message_id in session.execute(
            select(OutboxMessage.to_address, OutboxMessage.message_id).where(OutboxMessage.status == "sent"))]
        failed = session.scalars(select(OutboxMessage.message_id).where(OutboxMessage.status == "failed")).all()
        waiting = session.scalars(
            select(OutboxMessage.message_id).where(OutboxMessage.status.in_(("queued", "sending")))
        ).all()
        # Only turn mail whose decision was taken before it went out may be dropped (and so never written);
        # everything else is sent.
        wrongly_dropped = session.scalars(
            select(OutboxMessage.message_id).where(
                OutboxMessage.status == "dropped",
                or_(OutboxMessage.drop_when_stale.is_(False), OutboxMessage.last_error != STALE_REASON),
            )
        ).all()
    if failed:
        problems.append(f"{len(failed)} emails failed")
    if waiting:
        problems.append(f"{len(waiting)} emails were still waiting to be sent when the soak ended")
    if wrongly_dropped:
        problems.append(f"{len(wrongly_dropped)} emails were dropped that should always be sent")
    expected, received = collections.Counter(sent), collections.Counter(inbox.received)
    if expected != received:
        missing, extra = expected - received, received - expected
        problems.append(f"mail differs from the outbox: {sum(missing.values())} sent but not received, "
                        f"{sum(extra.values())} received but not sent (or twice)")
    server_errors = sum(count for status, count in tally.statuses.items() if status >= 500 or status == 0)
    if server_errors:
        problems.append(f"{server_errors} requests got a 5xx or no answer")
    if tally.anomalies:
        problems.append(f"{len(tally.anomalies)} unexpected answers, first: {tally.anomalies[0]}")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--clients", type=int, default=8, help="scripted players playing at once (default 8)")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers (default 4)")
    parser.add_argument("--postgres", default=DEFAULT_POSTGRES, help="PostgreSQL URL; a scratch schema is used")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mail-timeout", type=float, default=900.0, help="seconds to wait for the outbox to drain")
    args = parse_args(parser, games=1, clients=2, workers=2, mail_timeout=120.0)
    rng = random.Random(args.seed)

    inbox = Inbox()
    smtp_port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=smtp_port)
    controller.start()
    tally = Tally()
    try:
        with scratch_schema(args.postgres) as url, production(
            url, workers=args.workers,
            mail={"backend": "smtp", "host": "127.0.0.1", "port": smtp_port, "deliver_interval_seconds": 1,
                  "from_address": "Saboteur <saboteur@soak.example.org>"},
            scheduler={"interval_seconds": 2},
        ) as prod:
            started = time.perf_counter()
            games = create_games(prod.runtime, args.games, rng)
            print(f"created {len(games)} games in {time.perf_counter() - started:.0f} s", flush=True)
            # One browser session: the link opens it, the page gives it its CSRF token.
            first_id, first_tokens = games[0]
            cookie = session_cookie(send(prod.host, prod.port, "GET", f"/play/{first_tokens[0]}"))
            page = send(prod.host, prod.port, "GET", f"/table/{first_id}", headers={"Cookie": f"session={cookie}"})
            cookie = session_cookie(page, cookie)
            csrf = CSRF_ATTRIBUTE.search(page.body.decode()).group(1)

            work: queue.Queue[tuple[str, list[str], int]] = queue.Queue()
            for game_id, tokens in games:
                work.put((game_id, tokens, 0))
            finished = threading.Semaphore(0)

            def client(index: int) -> None:
                player = Player(prod.host, prod.port, cookie, csrf, tally, random.Random(args.seed * 1000 + index))
                while True:
                    try:
                        game_id, tokens, hint = work.get(timeout=2)
                    except queue.Empty:
                        return
                    try:
                        nxt = player.turn(tokens, hint)
                    except Exception as exc:  # a dropped connection: count it and try the game again
                        tally.anomaly(f"client error: {exc!r}")
                        with tally.lock:
                            tally.statuses[0] += 1
                        nxt = hint
                    if nxt is None:
                        finished.release()
                    else:
                        work.put((game_id, tokens, nxt))

            played_from = time.perf_counter()
            threads = [threading.Thread(target=client, args=(index,)) for index in range(args.clients)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            played = time.perf_counter() - played_from
            print(f"played {tally.moves} moves in {played:.0f} s ({tally.moves / played:.1f} moves/s), "
                  f"{sum(tally.statuses.values())} requests; {tally.double_clicks} double clicks, "
                  f"{tally.stale_forms} stale forms, {tally.concurrent} pairs of concurrent moves", flush=True)
            drained_from = time.perf_counter()
            outbox = wait_for_outbox(prod.runtime, args.mail_timeout)
            drained = time.perf_counter() - drained_from
            time.sleep(2)
            print(f"outbox: {outbox} {drained:.0f} s after the last move; aiosmtpd received {len(inbox.received)} "
                  "messages", flush=True)
            print(f"statuses: {dict(sorted(tally.statuses.items()))}")
            problems = check(prod.runtime, inbox, tally, [game_id for game_id, _ in games])
    finally:
        controller.stop()
    if problems:
        print("FAILED:\n  " + "\n  ".join(problems))
        for text in tally.anomalies[:10]:
            print("  anomaly:", text)
        sys.exit(1)
    print(f"OK: {args.games} games finished, no gaps in their snapshots, every sent email received once, no 5xx")


if __name__ == "__main__":
    main()
