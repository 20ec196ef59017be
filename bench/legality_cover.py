"""Which seeded bot games cover what of engine/: the sample of tests/engine/test_bots_legality.py, sized by coverage.

Plays every candidate game (by default the games the legality tests played before they were sized: 4 seeds a
table size and matchup of Saboteur, 3 of Saboteur 2, the two option sets and 195 more on seeds from 50,000) once
under coverage.py with branch coverage over engine/, each game in its own coverage context, and once without to
time it, each from empty memo caches. Then picks a small set of games, greedy by new lines and branches per
CPU-second, that covers exactly what all the candidates cover together, while keeping every table size of each
variant, every matchup of each variant and every option set; games that add nothing once the rest are chosen are
dropped again. Prints the chosen games.

    .venv/bin/python -m bench.legality_cover [--json chosen.json] [--games N] [--short]
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from dataclasses import dataclass

import coverage

import engine
from bench.short import parse_args
from engine.bots import match

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kim", "Lou"]
PLAYERS = {"base": range(3, 11), "saboteur2": range(2, 13)}
MATCHUPS = [("heuristic", "heuristic"), ("heuristic", "random"), ("random", "heuristic")]
OPTION_SETS = [{"auto_pick_gold": True}, {"digger_gold_cards": "diggers"}]


@dataclass(frozen=True)
class Game:
    variant: str
    players: int
    diggers: str
    saboteurs: str
    seed: int
    options: str = ""  # the options as JSON, "" for none

    @property
    def name(self) -> str:
        return f"{self.variant}-{self.players}-{self.diggers}-{self.saboteurs}-{self.seed}-{self.options}"


def candidates() -> list[Game]:
    games = []
    for players in PLAYERS["base"]:
        games += [Game("base", players, *m, 1000 * players + s) for m in MATCHUPS for s in range(4)]
    for players in PLAYERS["saboteur2"]:
        games += [Game("saboteur2", players, *m, 2000 * players + s) for m in MATCHUPS for s in range(3)]
    for seed, options in enumerate(OPTION_SETS):
        games += [Game("base", players, "heuristic", "heuristic", seed, json.dumps(options)) for players in (3, 7, 10)]
    for variant, games_a_table in {"base": 12, "saboteur2": 9}.items():
        for players in PLAYERS[variant]:
            games += [Game(variant, players, *MATCHUPS[s % 3], 50_000 + s) for s in range(games_a_table)]
    return games


def spread(games: list[Game], count: int) -> list[Game]:
    """`count` of the games, evenly spaced through the list (all of them for 0)."""
    if not 0 < count < len(games):
        return games
    return [games[index * len(games) // count] for index in range(count)]


def forget() -> None:
    """Empty the engine's memo caches, so that each game is measured as if it ran first (a cached result would
    hide the lines that computed it)."""
    for name, module in list(sys.modules.items()):
        if name == "engine" or name.startswith("engine."):
            for value in vars(module).values():
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


def play(game: Game) -> None:
    forget()
    state = engine.new_game(NAMES[:game.players], seed=game.seed, variant=game.variant,
                            options=json.loads(game.options) if game.options else None)
    for decision in match.bot_game(state, game.seed, game.diggers, game.saboteurs):
        assert decision.move in decision.moves


def measure(games: list[Game]) -> tuple[dict[Game, frozenset], dict[Game, float]]:
    """Each game's lines and branches of engine/ (as (file, line) and (file, from, to)) and its CPU seconds."""
    cov = coverage.Coverage(branch=True, source=["engine"], data_file=None)
    cov.start()
    for game in games:
        cov.switch_context(game.name)
        play(game)
    cov.stop()
    cost = {}
    for game in games:
        start = time.process_time()
        play(game)
        cost[game] = time.process_time() - start
    data = cov.get_data()
    covered = {}
    for game in games:
        data.set_query_contexts([f"^{re.escape(game.name)}$"])
        items: set = set()
        for path in data.measured_files():
            short = path.split("/engine/", 1)[-1]
            items |= {(short, line) for line in data.lines(path) or ()}
            items |= {(short, *arc) for arc in data.arcs(path) or ()}
        covered[game] = frozenset(items)
    return covered, cost


def groups(game: Game) -> list[tuple]:
    """The kinds of game that must each keep at least one game."""
    kinds = [("table", game.variant, game.players), ("matchup", game.variant, game.diggers, game.saboteurs)]
    if game.options:
        kinds.append(("options", game.options))
    return kinds


def choose(covered: dict[Game, frozenset], cost: dict[Game, float]) -> list[Game]:
    everything = frozenset().union(*covered.values())
    chosen: list[Game] = []
    have: set = set()
    needed = {kind for game in covered for kind in groups(game)}

    def worth(game: Game) -> float:
        kinds = len(needed.intersection(groups(game)))
        return (len(covered[game] - have) + 1000 * kinds) / max(cost[game], 1e-3)

    while have != everything or needed:
        best = max((g for g in covered if g not in chosen), key=worth)
        chosen.append(best)
        have |= covered[best]
        needed -= set(groups(best))
    # drop the dearest games that the others make redundant
    for game in sorted(chosen, key=lambda g: -cost[g]):
        rest = [g for g in chosen if g != game]
        kinds = {kind for g in rest for kind in groups(g)}
        if frozenset().union(*(covered[g] for g in rest)) == everything and kinds.issuperset(groups(game)):
            chosen = rest
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", help="also write the measurements here")
    parser.add_argument("--games", type=int, default=0, help="play only this many candidates, spread over them all")
    args = parse_args(parser, games=2)
    games = spread(candidates(), args.games)
    covered, cost = measure(games)
    everything = frozenset().union(*covered.values())
    chosen = choose(covered, cost)
    chosen_cover = frozenset().union(*(covered[g] for g in chosen))
    lines = sum(1 for item in everything if len(item) == 2)
    print(f"{len(games)} games, {sum(cost.values()):.1f} CPU-s: {lines} lines, {len(everything) - lines} arcs")
    lines = sum(1 for item in chosen_cover if len(item) == 2)
    print(f"{len(chosen)} games, {sum(cost[g] for g in chosen):.1f} CPU-s: {lines} lines, "
          f"{len(chosen_cover) - lines} arcs; same cover: {chosen_cover == everything}")
    for game in sorted(chosen, key=lambda g: (g.variant, g.players, g.seed)):
        only = len(covered[game] - frozenset().union(*(covered[g] for g in chosen if g != game)))
        print(f"  {game.name:60} {cost[game]:5.2f} s  {only:3} only here")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"chosen": [g.name for g in chosen],
                       "games": {g.name: {"cost": cost[g], "covered": sorted(map(list, covered[g]))}
                                 for g in games}}, out)


if __name__ == "__main__":
    main()
