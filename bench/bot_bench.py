"""How strong the heuristic bot is, measured against the random bot.

Plays the same seeded games (3 to 10 players in turn) under four match-ups and prints, for each,
the diggers' round win rate, the mean game length in turns, how close the tunnel got to the gold
in the rounds the diggers lost, and the time per heuristic decision:

    (a) random diggers    vs random saboteurs
    (b) heuristic diggers vs heuristic saboteurs
    (c1) heuristic diggers vs random saboteurs
    (c2) random diggers    vs heuristic saboteurs

The harness (`engine.bots.match`) reads each round's roles to seat the right bot; the bots never
see the game: each gets its seat's view, legal moves and visible events only. Every move a bot
returns is checked against the legal moves.

    .venv/bin/python -m bench.bot_bench [--games 96] [--seed 0] [--short]
"""
from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field

import engine
from bench.short import parse_args
from engine.bots.match import Decider, bot_game
from engine.bots.tunnel import layout_from_view, survey
from engine.variants import get_variant

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo"]

MATCHUPS = {
    "(a) random diggers vs random saboteurs": ("random", "random"),
    "(b) heuristic diggers vs heuristic saboteurs": ("heuristic", "heuristic"),
    "(c1) heuristic diggers vs random saboteurs": ("heuristic", "random"),
    "(c2) random diggers vs heuristic saboteurs": ("random", "heuristic"),
}


@dataclass
class Tally:
    games: int = 0
    turns: int = 0
    rounds: int = 0
    digger_wins: int = 0
    lost_distances: list[int] = field(default_factory=list)
    decisions: int = 0
    seconds: float = 0.0

    def line(self, name: str) -> str:
        rate = self.digger_wins / self.rounds if self.rounds else 0.0
        distance = sum(self.lost_distances) / len(self.lost_distances) if self.lost_distances else 0.0
        per_move = 1000 * self.seconds / self.decisions if self.decisions else 0.0
        return (f"{name:<46} diggers win {rate:6.1%} of {self.rounds} rounds | "
                f"{self.turns / self.games:5.1f} turns/game | gold {distance:4.1f} cards away when lost | "
                f"{per_move:4.1f} ms/heuristic move")


def gold_distance(game: engine.Game) -> int:
    """Cards still needed to reach the gold (the harness may know where it is; the bots may not)."""
    cards = get_variant(game.variant).cards
    gold = [cell for cell, card in game.hidden_goals.items() if cards[card].gold]
    if not gold:
        return 0
    return survey(layout_from_view(engine.view(game, None))).now.costs[gold[0]]


def play_game(seed: int, players: int, diggers: str, saboteurs: str, tally: Tally) -> None:
    def timed(kind: str, decide: Decider) -> Decider:
        if kind != "heuristic":
            return decide

        def run(view: dict, moves: list[dict], seen: list[dict]) -> dict:
            started = time.perf_counter()
            move = decide(view, moves, seen)
            tally.seconds += time.perf_counter() - started
            tally.decisions += 1
            return move
        return run

    game = engine.new_game(NAMES[:players], seed=seed)
    for d in bot_game(game, seed, diggers, saboteurs, wrap=timed):
        if d.move not in d.moves:
            raise SystemExit(f"illegal move {d.move} by seat {d.seat} in game {seed}")
        tally.turns += d.move["type"] != "pick_gold"
        for event in d.events:
            if event["type"] == "round_ended":
                tally.rounds += 1
                if event["winner"] == "diggers":
                    tally.digger_wins += 1
                else:
                    tally.lost_distances.append(gold_distance(d.game))
    tally.games += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=96, help="games per match-up (players cycle 3..10)")
    parser.add_argument("--seed", type=int, default=0, help="first game seed")
    args = parse_args(parser, games=2)
    print(f"{args.games} games per match-up, 3-10 players, seeds {args.seed}..{args.seed + args.games - 1}")
    for name, (diggers, saboteurs) in MATCHUPS.items():
        tally = Tally()
        started = time.perf_counter()
        for index in range(args.games):
            play_game(args.seed + index, 3 + index % 8, diggers, saboteurs, tally)
        print(tally.line(name), f"| {time.perf_counter() - started:5.1f} s", flush=True)


if __name__ == "__main__":
    main()
