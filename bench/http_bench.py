"""The turn page and a move under load, against the machine's own floor, in the production shape.

Starts gunicorn, the scheduler and a scratch PostgreSQL schema on loopback (bench/production.py), then measures
floor A, the turn page, state.json, floor B and a move, and prints the ratios turn page / floor A and
move / floor B. Scenarios, options and figures: docs/performance.md.

    .venv/bin/python -m bench.http_bench [--seconds 10] [--concurrency 8] [--games 200] [--workers 4]
        [--rounds 2] [--warmup 1] [--postgres postgresql+psycopg://postgres@127.0.0.1:5432/test] [--json results.json]
        [--short]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import queue
import random
import secrets
import time
from pathlib import Path
from typing import Any

from bench.http_client import CSRF_ATTRIBUTE, Reply, Stats, closed_loop, send, session_cookie
from bench.pg_schemas import scratch_schema
from bench.production import production
from bench.short import parse_args

DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
SIX = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")
MID_GAME_MOVES = 24


# -- setting up (in this process, through the game service, as the command line does) -------------------


def set_up(runtime: Any, games: int, seed: int) -> dict[str, Any]:
    from sqlalchemy import select

    import engine
    from pbem.models import Game
    from pbem.service.turns.games import PlayerSpec

    players = [PlayerSpec(name, f"{name.lower()}@example.org") for name in SIX]
    rng = random.Random(seed)

    def new_game(title: str) -> str:
        game_id = runtime.games.create_game(title=title, players=players, host_email="host@example.org")
        runtime.games.start_game(game_id)
        return game_id

    def tokens(game_id: str) -> list[str]:
        return [invite.link.rsplit("/", 1)[1] for invite in runtime.games.invites(game_id)]

    mid = new_game("The mid-game table")
    for _ in range(MID_GAME_MOVES):
        state, seq = runtime.games.engine_state(mid)
        seat = engine.to_act(state)
        runtime.games.submit_move(mid, seat, engine.bots.choose(state, seat, rng), seq, f"setup-{seq}")
    state, _ = runtime.games.engine_state(mid)
    with runtime.db.read() as session:
        mid_pk = session.scalar(select(Game.id).where(Game.public_id == mid))

    table = []
    for number in range(games):
        game_id = new_game(f"Bench game {number}")
        state, seq = runtime.games.engine_state(game_id)
        table.append({"id": game_id, "tokens": tokens(game_id), "state": state.to_dict(), "seq": seq})
    return {"mid": {"id": mid, "pk": mid_pk, "token": tokens(mid)[engine.to_act(state)]}, "games": table}


def wait_for_mail(runtime: Any, timeout: float = 120.0) -> int:
    """Let the scheduler send the game-started emails first, so the scenarios start from a quiet outbox."""
    from sqlalchemy import func, select

    from pbem.models import OutboxMessage

    deadline = time.monotonic() + timeout
    while True:
        with runtime.db.read() as session:
            queued = session.scalar(select(func.count()).where(OutboxMessage.status == "queued")) or 0
        if queued == 0 or time.monotonic() > deadline:
            return queued
        time.sleep(1)


# -- the load generator (a separate process) -------------------------------------------------------------


def precompute_moves(games: list[dict[str, Any]], per_game: int, seed: int) -> dict[str, list[tuple[int, Any, int]]]:
    """For each game, its next `per_game` moves as (seat, move, seq): the engine's random bot, applied."""
    import engine

    planned: dict[str, list[tuple[int, Any, int]]] = {}
    for index, game in enumerate(games):
        rng = random.Random(seed * 100_003 + index)
        state, seq = engine.Game.from_dict(game["state"]), game["seq"]
        moves = []
        for _ in range(per_game):
            seat = engine.to_act(state)
            if seat is None:
                break
            move = engine.bots.choose(state, seat, rng)
            state, _ = engine.apply_move(state, seat, move)
            moves.append((seat, move, seq))
            seq += 1
        planned[game["id"]] = moves
    return planned


def outbox_drained(database_url: str, timeout: float = 120.0) -> None:
    """Wait until the scheduler has sent every queued email."""
    from sqlalchemy import create_engine, text

    engine = create_engine(database_url)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            with engine.connect() as connection:
                if not connection.execute(text("SELECT count(*) FROM outbox WHERE status = 'queued'")).scalar():
                    return
            time.sleep(0.5)
    finally:
        engine.dispose()


def load(plan: dict[str, Any]) -> list[dict[str, Any]]:
    host, port, seconds, concurrency = plan["host"], plan["port"], plan["seconds"], plan["concurrency"]
    mid = plan["mid"]

    # A browser's session for the mid-game seat: the link remembers the seat, the page sets the CSRF token.
    opened = send(host, port, "GET", f"/play/{mid['token']}")
    cookie = session_cookie(opened)
    page = send(host, port, "GET", f"/table/{mid['id']}", headers={"Cookie": f"session={cookie}"})
    cookie = session_cookie(page, cookie)
    csrf = CSRF_ATTRIBUTE.search(page.body.decode()).group(1)
    browser = {"Cookie": f"session={cookie}"}

    planned = precompute_moves(plan["games"], plan["moves_per_game"], plan["seed"])
    tokens = {game["id"]: game["tokens"] for game in plan["games"]}
    ready: queue.Queue[str] = queue.Queue()
    for game_id, moves in planned.items():
        if moves:
            ready.put(game_id)

    def floor_a(_: int) -> Reply:
        return send(host, port, "GET", f"/bench/floor-a/{mid['pk']}")

    def turn_page(_: int) -> Reply:
        return send(host, port, "GET", f"/table/{mid['id']}", headers=browser)

    def state_json(_: int) -> Reply:
        return send(host, port, "GET", f"/table/{mid['id']}/state.json", headers=browser)

    def floor_b(_: int) -> Reply:
        return send(host, port, "POST", f"/bench/floor-b/{mid['pk']}", form={})

    ran_dry: list[bool] = []

    def move(_: int) -> Reply | None:
        try:
            game_id = ready.get(timeout=1)
        except queue.Empty:
            ran_dry.append(True)  # the prepared moves ran out before the clock did: the figure would be too low
            return None
        seat, chosen, seq = planned[game_id].pop(0)
        reply = send(
            host, port, "POST", f"/play/{tokens[game_id][seat]}/move",
            form={"move": json.dumps(chosen), "seq": str(seq), "submission_id": secrets.token_urlsafe(16),
                  "csrf_token": csrf, "confirmed": "yes"},
            headers={**browser, "Accept": "application/json"},
        )
        if reply.status == 200 and reply.json()["seq"] != seq + 1:
            reply.status = 599  # the server's game is not the client's: count it as an error
        if reply.status == 200 and planned[game_id]:
            ready.put(game_id)
        return reply

    scenarios = (("floor A", floor_a), ("turn page", turn_page), ("state.json", state_json),
                 ("floor B", floor_b), ("move", move))
    # Every worker opens its connections and loads its templates before the clock starts.
    for name, one in scenarios:
        closed_loop(name, plan["warmup"], concurrency, one)
    outbox_drained(plan["database_url"])
    # The scenarios take turns, `rounds` slices each, so a burst of load from elsewhere on the machine
    # falls on all of them alike rather than on whichever ran at that moment.
    # The moves queue turn emails, which the scheduler sends within seconds: let it finish before the next
    # scenario starts, so that work lands on the moves that caused it and not on whatever runs next.
    totals = {name: Stats(name) for name, _ in scenarios}
    for _ in range(plan["rounds"]):
        for name, one in scenarios:
            totals[name].merge(closed_loop(name, seconds / plan["rounds"], concurrency, one))
            if name == "move":
                outbox_drained(plan["database_url"])
    for stats in totals.values():
        print(stats.line(), flush=True)
    if ran_dry:
        print("WARNING: the move scenario ran out of prepared moves; its figure is too low (raise --moves-per-game)",
              flush=True)
    return [stats.as_dict() for stats in totals.values()]


# -- the report -----------------------------------------------------------------------------------------------


def report(results: list[dict[str, Any]]) -> dict[str, float]:
    by_name = {result["name"]: result for result in results}
    ratios = {
        "turn page / floor A": by_name["turn page"]["rps"] / by_name["floor A"]["rps"],
        "state.json / floor A": by_name["state.json"]["rps"] / by_name["floor A"]["rps"],
        "move / floor B": by_name["move"]["rps"] / by_name["floor B"]["rps"],
    }
    print()
    for name, ratio in ratios.items():
        verdict = "met" if ratio >= 0.5 else "NOT met"
        goal = "" if name.startswith("state") else f"  (goal >= 0.5: {verdict})"
        print(f"{name:<22} {ratio:5.2f}{goal}")
    return ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each scenario (default 10)")
    parser.add_argument("--concurrency", type=int, default=8, help="connections at once (default 8)")
    parser.add_argument("--games", type=int, default=200, help="games the move scenario plays in (default 200)")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers (default 4)")
    parser.add_argument("--moves-per-game", type=int, default=50, help="moves prepared per game (default 50)")
    parser.add_argument("--postgres", default=DEFAULT_POSTGRES, help="PostgreSQL URL; a scratch schema is used")
    parser.add_argument("--rounds", type=int, default=2, help="slices each scenario's time is cut into (default 2)")
    parser.add_argument("--warmup", type=float, default=1.0, help="seconds of each scenario before measuring")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", default="", help="also write the figures to this file")
    args = parse_args(parser, seconds=1.0, concurrency=4, games=10, workers=2, rounds=1, warmup=0.2)

    with scratch_schema(args.postgres) as url, production(url, workers=args.workers, bench_routes=True) as prod:
        started = time.perf_counter()
        setup = set_up(prod.runtime, args.games, args.seed)
        left = wait_for_mail(prod.runtime)
        print(f"set up {args.games} games of six and a mid-game table in {time.perf_counter() - started:.0f} s"
              f" ({left} emails still queued); {args.workers} gunicorn workers, {args.concurrency} connections,"
              f" {args.seconds:g} s per scenario", flush=True)
        plan = {"database_url": url, "host": prod.host, "port": prod.port, "seconds": args.seconds,
                "concurrency": args.concurrency,
                "moves_per_game": args.moves_per_game, "seed": args.seed, "rounds": args.rounds,
                "warmup": args.warmup, **setup}
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            results = pool.apply(load, (plan,))
    ratios = report(results)
    if args.json:
        Path(args.json).write_text(json.dumps({"results": results, "ratios": ratios, "args": vars(args)}, indent=2))


if __name__ == "__main__":
    main()
