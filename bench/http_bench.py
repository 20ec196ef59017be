"""The turn page and a move under load, against the machine's own floor, in the production shape.

Starts gunicorn, the scheduler and a scratch PostgreSQL schema on loopback (bench/production.py), then measures
floor A, the turn page (a mid-game table of six, a fresh game of six, and a game of ten late in its third round
with a long chat), state.json, floor B and a move (in fresh games of six, and in games of ten late in their third
round), and prints the ratios of each turn page to floor A and of each move to floor B. Scenarios, options and
figures: docs/performance.md.

    .venv/bin/python -m bench.http_bench [--seconds 10] [--concurrency 8] [--games 200] [--late-games 100]
        [--chat 200] [--workers 4] [--rounds 2] [--warmup 1]
        [--postgres postgresql+psycopg://postgres@127.0.0.1:5432/test] [--json results.json] [--short]
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
TEN = (*SIX, "Gus", "Hal", "Ivy", "Jon")
MID_GAME_MOVES = 24
LATE_ROUND = 3  # the late games stop in this round,
LATE_FRACTION = 0.5  # this far from its first move to the game's end (the rest is what their move scenario plays)
TURN_PAGE_GOAL = 0.8  # of floor A
MOVE_GOAL = 0.7  # of floor B


# -- setting up (in this process, through the game service, as the command line does) -------------------


def set_up(runtime: Any, games: int, seed: int, late_games: int = 0, chat: int = 0) -> dict[str, Any]:
    from sqlalchemy import event, select

    import engine
    from pbem.models import Game
    from pbem.service.turns.values import PlayerSpec

    rng = random.Random(seed)
    # Setting up need not wait for the disk at each commit (the server's own connections still do).
    runtime.db.engine.dispose()
    event.listen(runtime.db.engine, "connect", lambda dbapi, _: dbapi.execute("SET synchronous_commit TO off"))

    def new_game(title: str, names: tuple[str, ...] = SIX) -> str:
        players = [PlayerSpec(name, f"{name.lower()}@example.org") for name in names]
        game_id = runtime.games.create_game(title=title, players=players, host_email="host@example.org")
        runtime.games.start_game(game_id)
        return game_id

    def tokens(game_id: str) -> list[str]:
        return [invite.link.rsplit("/", 1)[1] for invite in runtime.games.invites(game_id)]

    def play(game_id: str, moves: int) -> None:
        for _ in range(moves):
            state, seq = runtime.games.engine_state(game_id)
            seat = to_act(state)
            runtime.games.submit_move(game_id, seat, engine.bots.choose(state, seat, rng), seq, f"setup-{seq}")

    def to_act_token(game_id: str) -> str:
        state, _ = runtime.games.engine_state(game_id)
        return tokens(game_id)[to_act(state)]

    def pool(game_id: str) -> dict[str, Any]:
        state, seq = runtime.games.engine_state(game_id)
        return {"id": game_id, "tokens": tokens(game_id), "state": state.to_dict(), "seq": seq}

    mid = new_game("The mid-game table")
    play(mid, MID_GAME_MOVES)
    with runtime.db.read() as session:
        mid_pk = session.scalar(select(Game.id).where(Game.public_id == mid))
    fresh = new_game("A fresh table")

    table = [pool(new_game(f"Bench game {number}")) for number in range(games)]
    late = late_game(runtime, "The late table", rng, chat)
    late_table = [pool(copy_game(runtime, late, f"Late game {number}")) for number in range(late_games)]
    late_page = pool(late)
    return {"mid": {"id": mid, "pk": mid_pk, "token": to_act_token(mid)},
            "fresh": {"id": fresh, "token": to_act_token(fresh)},
            "late": {"id": late_page["id"], "token": to_act_token(late_page["id"])},
            "games": table, "late_games": late_table}


def to_act(state: Any) -> int:
    """The seat to act in a game that is not over."""
    import engine

    seat = engine.to_act(state)
    assert seat is not None, "the game is over"
    return seat


# What a game is made of, copied by `copy_game` (its emails, threads and audit log are left behind).
GAME_TABLES = ("seats", "snapshots", "turn_clocks", "chat_messages", "round_commitments")


def copy_game(runtime: Any, game_id: str, title: str) -> str:
    """A copy of a game's rows under a new public id: its seats, snapshots, clock, chat and sealed deals as they
    are stored. Playing a game of ten into its third round through the service takes seconds; this, milliseconds."""
    from sqlalchemy import insert, literal, select

    from pbem.models import Base
    from pbem.models.games import new_public_id

    tables = Base.metadata.tables
    games = tables["games"]
    copied = new_public_id()
    with runtime.db.write() as session:
        row = session.execute(select(games).where(games.c.public_id == game_id)).mappings().one()
        values = {**{name: value for name, value in row.items() if name != "id"}, "public_id": copied, "title": title}
        new_id = session.execute(insert(games).values(values).returning(games.c.id)).scalar_one()
        for name in GAME_TABLES:
            table = tables[name]
            columns = [column for column in table.c if not (column.primary_key and column.name == "id")]
            chosen = [literal(new_id).label("game_id") if column.name == "game_id" else column for column in columns]
            session.execute(insert(table).from_select([column.name for column in columns],
                                                      select(*chosen).where(table.c.game_id == row["id"])))
    return copied


def late_game(runtime: Any, title: str, rng: random.Random, chat: int) -> str:
    """A game of ten played by the random bot into its third round, LATE_FRACTION of the way from the round's first
    move to the game's end (looked ahead in the engine), with `chat` messages of table talk along the way."""
    import engine
    from pbem.models import ChatMessage
    from pbem.service.rows import find_game
    from pbem.service.talk.chat import add_message
    from pbem.service.turns.values import PlayerSpec

    players = [PlayerSpec(name, f"{name.lower()}@example.org") for name in TEN]
    game_id = runtime.games.create_game(title=title, players=players, host_email="host@example.org")
    runtime.games.start_game(game_id)
    state, seq = runtime.games.engine_state(game_id)
    said = 0

    def talk(until: int) -> None:
        nonlocal said
        with runtime.db.write() as session:
            game = find_game(session, game_id)
            while said < until:
                seat = said % len(TEN)
                add_message(session, game, ChatMessage(
                    game_id=game.id, sender_kind="seat", sender_seat=seat, sender_name=TEN[seat],
                    text=f"Message {said}: I am digging for gold, honest. Who broke my lamp?", source="page",
                    system_kind=None, created_at=runtime.clock.now()))
                said += 1

    stop = None
    while stop is None or seq < stop:
        if stop is None and state.round >= LATE_ROUND:
            ahead, ahead_rng, left = state, random.Random(), 0
            ahead_rng.setstate(rng.getstate())
            while (seat := engine.to_act(ahead)) is not None:
                ahead, _ = engine.apply_move(ahead, seat, engine.bots.choose(ahead, seat, ahead_rng))
                left += 1
            stop = seq + int(left * LATE_FRACTION)
            continue
        seat = to_act(state)
        move = engine.bots.choose(state, seat, rng)
        runtime.games.submit_move(game_id, seat, move, seq, f"setup-{seq}")
        state, _ = engine.apply_move(state, seat, move)
        seq += 1
        if seq % 10 == 0:
            talk(min(chat, chat * seq // 170))
    talk(chat)
    return game_id


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
    mid, fresh, late = plan["mid"], plan["fresh"], plan["late"]

    def browser(table: dict[str, Any]) -> tuple[dict[str, str], str]:
        """A browser's session for a table's seat to act: the link remembers the seat, the page sets the CSRF token."""
        opened = send(host, port, "GET", f"/play/{table['token']}")
        cookie = session_cookie(opened)
        page = send(host, port, "GET", f"/table/{table['id']}", headers={"Cookie": f"session={cookie}"})
        cookie = session_cookie(page, cookie)
        found = CSRF_ATTRIBUTE.search(page.body.decode())
        assert found is not None, "the turn page has no CSRF token"
        return {"Cookie": f"session={cookie}"}, found.group(1)

    mid_browser, csrf = browser(mid)
    fresh_browser, _ = browser(fresh)
    late_browser, _ = browser(late)
    ran_dry: list[str] = []

    def mover(name: str, games: list[dict[str, Any]]) -> Any:
        """A move scenario: each request plays the next prepared move of a game whose last move has been answered."""
        planned = precompute_moves(games, plan["moves_per_game"], plan["seed"])
        tokens = {game["id"]: game["tokens"] for game in games}
        ready: queue.Queue[str] = queue.Queue()
        for game_id, moves in planned.items():
            if moves:
                ready.put(game_id)

        def move(_: int) -> Reply | None:
            while True:
                try:
                    game_id = ready.get(timeout=1)
                    break
                except queue.Empty:
                    if not any(planned.values()):
                        ran_dry.append(name)  # the prepared moves ran out before the clock: the figure is too low
                        return None
            seat, chosen, seq = planned[game_id].pop(0)
            reply = send(
                host, port, "POST", f"/play/{tokens[game_id][seat]}/move",
                form={"move": json.dumps(chosen), "seq": str(seq), "submission_id": secrets.token_urlsafe(16),
                      "csrf_token": csrf, "confirmed": "yes"},
                headers={**mid_browser, "Accept": "application/json"},
            )
            if reply.status == 200 and reply.json()["seq"] != seq + 1:
                reply.status = 599  # the server's game is not the client's: count it as an error
            if reply.status == 200 and planned[game_id]:
                ready.put(game_id)
            return reply

        return move

    def floor_a(_: int) -> Reply:
        return send(host, port, "GET", f"/bench/floor-a/{mid['pk']}")

    def page(table: dict[str, Any], headers: dict[str, str]) -> Any:
        return lambda _: send(host, port, "GET", f"/table/{table['id']}", headers=headers)

    def state_json(_: int) -> Reply:
        return send(host, port, "GET", f"/table/{mid['id']}/state.json", headers=mid_browser)

    def floor_b(_: int) -> Reply:
        return send(host, port, "POST", f"/bench/floor-b/{mid['pk']}", form={})

    scenarios = (("floor A", floor_a), ("turn page", page(mid, mid_browser)),
                 ("turn page, fresh", page(fresh, fresh_browser)), ("turn page, late 10", page(late, late_browser)),
                 ("state.json", state_json), ("floor B", floor_b), ("move", mover("move", plan["games"])),
                 ("move, late 10", mover("move, late 10", plan["late_games"])))
    moves = {"move", "move, late 10"}
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
            if name in moves:
                outbox_drained(plan["database_url"])
    for stats in totals.values():
        print(stats.line(), flush=True)
    for name in sorted(set(ran_dry)):
        print(f"WARNING: the {name!r} scenario ran out of prepared moves; its figure is too low"
              " (raise --moves-per-game or the games it plays in)", flush=True)
    return [stats.as_dict() for stats in totals.values()]


# -- the report -----------------------------------------------------------------------------------------------


def report(results: list[dict[str, Any]]) -> dict[str, float]:
    by_name = {result["name"]: result for result in results}
    goals: dict[str, tuple[float, float | None]] = {}
    for name in ("turn page", "turn page, fresh", "turn page, late 10"):
        goals[f"{name} / floor A"] = (by_name[name]["rps"] / by_name["floor A"]["rps"], TURN_PAGE_GOAL)
    goals["state.json / floor A"] = (by_name["state.json"]["rps"] / by_name["floor A"]["rps"], None)
    for name in ("move", "move, late 10"):
        goals[f"{name} / floor B"] = (by_name[name]["rps"] / by_name["floor B"]["rps"], MOVE_GOAL)
    print()
    for name, (ratio, goal) in goals.items():
        verdict = "" if goal is None else f"  (goal >= {goal}: {'met' if ratio >= goal else 'NOT met'})"
        print(f"{name:<28} {ratio:5.2f}{verdict}")
    return {name: ratio for name, (ratio, _) in goals.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each scenario (default 10)")
    parser.add_argument("--concurrency", type=int, default=8, help="connections at once (default 8)")
    parser.add_argument("--games", type=int, default=200, help="games the move scenario plays in (default 200)")
    parser.add_argument("--late-games", type=int, default=100,
                        help="games of ten late in their third round for the late move scenario (default 100)")
    parser.add_argument("--chat", type=int, default=200, help="messages of table talk in each late game (default 200)")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers (default 4)")
    parser.add_argument("--moves-per-game", type=int, default=50, help="moves prepared per game (default 50)")
    parser.add_argument("--postgres", default=DEFAULT_POSTGRES, help="PostgreSQL URL; a scratch schema is used")
    parser.add_argument("--rounds", type=int, default=2, help="slices each scenario's time is cut into (default 2)")
    parser.add_argument("--warmup", type=float, default=1.0, help="seconds of each scenario before measuring")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", default="", help="also write the figures to this file")
    args = parse_args(parser, seconds=1.0, concurrency=4, games=10, late_games=12, chat=20, workers=2, rounds=1,
                      warmup=0.2)

    with scratch_schema(args.postgres) as url, production(url, workers=args.workers, bench_routes=True) as prod:
        started = time.perf_counter()
        setup = set_up(prod.runtime, args.games, args.seed, args.late_games, args.chat)
        left = wait_for_mail(prod.runtime)
        print(f"set up {args.games} games of six, a mid-game table, a fresh one and {args.late_games + 1} games of ten"
              f" late in round {LATE_ROUND} with {args.chat} messages each in {time.perf_counter() - started:.0f} s"
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
