"""What the per-process memo (pbem/memo.py) buys and what it costs: the turn page drawn cold and drawn again,
and the memory a worker holds once every kind of entry is at its capacity.

In-process (Flask's test client, a SQLite file), so the figures are the app's own work without HTTP. Sets up
`--games` games of six, each `--moves` moves in, then:

  cold    each seat's turn page with the memo emptied before every request: the whole page is made
  warm    the same pages drawn again: the game row is read, the rest comes from the memo
  memory  the memo filled by every seat of every game (more entries than it keeps): the traced memory it holds,
          and its entries per kind

and prints the medians, the ratio warm / cold, and the memory.

    .venv/bin/python -m bench.memo_bench [--games 120] [--moves 40] [--short]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
import tracemalloc

import engine
from bench.short import parse_args
from pbem import create_app
from pbem.config import Config
from pbem.memo import CAPACITY
from pbem.migrate import upgrade
from pbem.service.turns.values import PlayerSpec
from pbem.web.app_context import EXTENSION_KEY

SIX = [PlayerSpec(name, f"{name.lower()}@example.org") for name in ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")]


def measure(folder: str, games: int, moves: int) -> None:
    url = f"sqlite:///{folder}/bench.db"
    upgrade(url)
    config = Config(database_url=url, instance_path=folder, secret_keys=("m" * 32,), base_url="http://localhost")
    app = create_app(config)
    runtime = app.extensions[EXTENSION_KEY]
    rng = random.Random(1)
    pages: list[tuple[str, list[str]]] = []
    for number in range(games):
        game_id = runtime.games.create_game(title=f"Memo {number}", players=SIX, host_email="host@example.org")
        runtime.games.start_game(game_id)
        for _ in range(moves):
            state, seq = runtime.games.engine_state(game_id)
            seat = engine.to_act(state)
            if seat is None:
                break
            runtime.games.submit_move(game_id, seat, engine.bots.choose(state, seat, rng), seq, f"m-{seq}")
        pages.append((game_id, [invite.link.rsplit("/", 1)[1] for invite in runtime.games.invites(game_id)]))
    print(f"{games} games of six, {moves} moves each, set up")

    clients = []
    for game_id, tokens in pages[:20]:
        for token in tokens:
            client = app.test_client()
            client.get(f"/play/{token}")
            clients.append((client, game_id))

    memo = runtime.db.memo

    def draw(client, game_id: str, *, cold: bool) -> float:  # type: ignore[no-untyped-def]
        if cold:
            memo.clear()
        started = time.perf_counter()
        response = client.get(f"/table/{game_id}")
        elapsed = time.perf_counter() - started
        assert response.status_code == 200
        return elapsed

    for client, game_id in clients:  # templates compiled, connections open
        draw(client, game_id, cold=False)
    cold = statistics.median(draw(client, game_id, cold=True) for client, game_id in clients) * 1000
    for client, game_id in clients:
        draw(client, game_id, cold=False)
    warm = statistics.median(draw(client, game_id, cold=False) for client, game_id in clients) * 1000
    print(f"turn page, cold memo   {cold:7.2f} ms (median of {len(clients)})")
    print(f"turn page, drawn again {warm:7.2f} ms")
    print(f"warm / cold            {warm / cold:7.2f}")

    memo.clear()
    tracemalloc.start()
    before, _ = tracemalloc.get_traced_memory()
    for game_id, tokens in pages:
        for token in tokens:
            client = app.test_client()
            client.get(f"/play/{token}")
            client.get(f"/table/{game_id}")
    held, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"memo entries per kind  {memo.sizes()} (capacity {dict(CAPACITY)})")
    print(f"memory held            {(held - before) / 1e6:7.1f} MB after {len(pages) * 6} seats' pages")
    runtime.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--moves", type=int, default=40)
    args = parse_args(parser, games=3, moves=10)
    with tempfile.TemporaryDirectory(prefix="memo-bench-") as folder:
        measure(folder, args.games, args.moves)


if __name__ == "__main__":
    main()
