"""Engine speed and snapshot size.

Prints the median time of `legal_moves` for a 6-card hand on a board of 40+ cards, the median
`apply_move`, the median `view` of a seat mid-game (round 2) and late (the last turn of round 3) of
a 10-player base game and a 12-player Saboteur 2 game, complete random games per second for 5 and
10 players (base game) and for 5 and 12 players (Saboteur 2), and the snapshot size.
Every time is also given as a ratio to a baseline measured in the same run (a JSON round trip
of the same snapshot), so figures from a busy machine stay comparable.

    .venv/bin/python -m bench.engine_bench [--games 40] [--repeat 300] [--short]
"""
from __future__ import annotations

import argparse
import gzip
import json
import random
import statistics
import time

import engine
from bench.short import parse_args
from engine.rules import legal_moves
from engine.variants import get_variant

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kim", "Lou"]


def builder_move(g, seat, rng):
    """Prefer building away from the goals, and pass action cards: grows a big board."""
    v = get_variant(g.variant)
    moves = legal_moves(g, seat)
    builds = [m for m in moves if "rotated" in m and m["x"] < 7 and abs(m["y"]) < 6]
    if builds:
        return rng.choice(builds)
    passes = [m for m in moves if m["type"] == "pass" and v.cards[m["cards"][0]].kind == "action"]
    return rng.choice(passes or [m for m in moves if m["type"] == "pass"] or moves)


def big_board_state(min_cards: int = 40):
    """A round-1 state of a 4-player game whose board holds at least `min_cards` cards."""
    best = None
    for seed in range(400):
        g = engine.new_game(NAMES[:4], seed=seed)
        rng = random.Random(seed)
        while g.round == 1 and g.phase == "play":
            seat = engine.to_act(g)
            if (len(g.board) + len(g.hidden_goals) >= min_cards and len(g.hands[seat]) == 6
                    and any("rotated" in m for m in legal_moves(g, seat))):
                return g, seat
            g, _ = engine.apply_move(g, seat, builder_move(g, seat, rng))
        if best is None or len(g.board) > best:
            best = len(g.board)
    raise SystemExit(f"no state with {min_cards} cards found (best {best})")


def median_time(fn, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples)


def mid_and_late(players: int, variant: str, seed: int = 1) -> dict[str, engine.Game]:
    """The middle state of round 2 and the last state of round 3 of a random game played by the bots."""
    g = engine.new_game(NAMES[:players], seed=seed, variant=variant)
    rng = random.Random(seed)
    by_round: dict[int, list[engine.Game]] = {2: [], 3: []}
    while not engine.is_over(g):
        if g.round in by_round and g.phase == "play":
            by_round[g.round].append(g)
        seat = engine.to_act(g)
        g, _ = engine.apply_move(g, seat, engine.bots.choose(g, seat, rng))
    return {"mid": by_round[2][len(by_round[2]) // 2], "late": by_round[3][-1]}


def games_per_second(players: int, games: int, variant: str = "base") -> float:
    t = time.perf_counter()
    for seed in range(games):
        g = engine.new_game(NAMES[:players], seed=seed, variant=variant)
        rng = random.Random(seed)
        while not engine.is_over(g):
            seat = engine.to_act(g)
            g, _ = engine.apply_move(g, seat, engine.bots.choose(g, seat, rng))
    return games / (time.perf_counter() - t)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=300, help="calls per median (default 300)")
    args = parse_args(parser, games=2, repeat=20)
    repeat = args.repeat

    g, seat = big_board_state()
    snapshot = g.to_dict()
    baseline = median_time(lambda: json.loads(json.dumps(snapshot)), repeat)

    def fresh_legal():
        g.reach = None  # as after loading a snapshot: nothing cached
        legal_moves(g, seat)

    legal = median_time(fresh_legal, repeat)
    moves = legal_moves(g, seat)
    move = next(m for m in moves if "rotated" in m)
    apply = median_time(lambda: engine.apply_move(g, seat, move), repeat)
    view_times = {}
    for variant, players in (("base", 10), ("saboteur2", 12)):
        for stage, state in mid_and_late(players, variant).items():
            view_times[f"{variant}, {players} players, {stage}"] = (
                median_time(lambda state=state: engine.view(state, 0), repeat), len(state.results), len(state.board))
    five = games_per_second(5, args.games)
    ten = games_per_second(10, max(args.games // 2, 5))
    s2_five = games_per_second(5, args.games, "saboteur2")
    s2_twelve = games_per_second(12, max(args.games // 2, 5), "saboteur2")

    sizes = []
    for seed in range(20):
        s = engine.new_game(NAMES[:5], seed=seed)
        rng = random.Random(seed)
        for _ in range(60):
            s, _ = engine.apply_move(s, engine.to_act(s), engine.bots.choose(s, engine.to_act(s), rng))
        sizes.append(s.to_dict())
    plain = statistics.median(len(json.dumps(d, separators=(",", ":"))) for d in sizes + [snapshot])
    packed = statistics.median(
        len(gzip.compress(json.dumps(d, separators=(",", ":")).encode())) for d in sizes + [snapshot]
    )

    print(
        f"board cards in the measured state : {len(g.board) + len(g.hidden_goals)} "
        f"(hand {len(g.hands[seat])} cards, {len(moves)} legal moves)"
    )
    print(f"baseline: JSON round trip of it   : {baseline * 1e6:8.1f} us")
    print(
        f"legal_moves median                : {legal * 1e6:8.1f} us   "
        f"ratio to baseline {legal / baseline:5.2f}   target <= 1000 us"
    )
    print(f"apply_move median                 : {apply * 1e6:8.1f} us   ratio to baseline {apply / baseline:5.2f}")
    for label, (seconds, rounds, cards) in view_times.items():
        print(
            f"view {label:29}: {seconds * 1e6:8.1f} us   ratio to baseline {seconds / baseline:5.2f}   "
            f"({rounds} finished rounds, {cards} board cards)"
        )
    print(f"random 5-player games per second  : {five:8.1f}      target >= 20")
    print(f"random 10-player games per second : {ten:8.1f}")
    print(f"Saboteur 2, 5 players, per second : {s2_five:8.1f}")
    print(f"Saboteur 2, 12 players, per second: {s2_twelve:8.1f}")
    print(f"snapshot size (median)            : {plain:8.0f} B JSON, {packed:.0f} B gzip   target <= 2048 B gzip")


if __name__ == "__main__":
    main()
