"""Bots only ever make legal moves: whole seeded games of Saboteur for 3 to 10 players and of Saboteur 2
for 2 to 12, every phase, every decision checked against the seat's legal moves.

The games run here are a sample sized by coverage (GAMES): every table size of each variant, every matchup and every
option set, on seeds chosen so that together they run every line and branch of engine/ that hundreds of games do.
The full 2,001 games are opt-in (`pytest -m exhaustive`, a few CPU-minutes): thousands of games cannot fit in the
suite's time (docs/performance.md).
"""
from __future__ import annotations

import pytest

from tests.support.tables import bot_game

PLAYERS = {"base": range(3, 11), "saboteur2": range(2, 13)}


def play_out(players: int, seed: int, diggers: str, saboteurs: str, options: dict | None = None,
             variant: str = "base") -> int:
    """Play a whole game to its end, checking every move against the legal ones; returns how many were made.
    (The harness applies each move with `engine.apply_move`, which would refuse an illegal one too.)"""
    decisions = 0
    for decision in bot_game(players, seed, diggers, saboteurs, options, variant):
        assert decision.move in decision.moves, (variant, players, seed, decision.seat, decision.move)
        decisions += 1
    assert decisions > 0
    return decisions


MATCHUPS = [("heuristic", "heuristic"), ("heuristic", "random"), ("random", "heuristic")]
OPTIONS = {"auto_pick_gold": {"auto_pick_gold": True}, "digger_gold_cards": {"digger_gold_cards": "diggers"}}

GAMES = [
    # variant, players, diggers, saboteurs, seed, options
    ("base", 3, "heuristic", "heuristic", 0, "auto_pick_gold"),
    ("base", 3, "heuristic", "heuristic", 1, "digger_gold_cards"),
    ("base", 4, "random", "heuristic", 4002, ""),
    ("base", 5, "heuristic", "random", 50001, ""),
    ("base", 6, "heuristic", "heuristic", 50000, ""),
    ("base", 7, "heuristic", "random", 50010, ""),
    ("base", 8, "heuristic", "random", 8002, ""),
    ("base", 9, "heuristic", "random", 9003, ""),
    ("base", 10, "random", "heuristic", 10000, ""),
    ("saboteur2", 2, "heuristic", "heuristic", 4000, ""),
    ("saboteur2", 2, "random", "heuristic", 4002, ""),
    ("saboteur2", 3, "random", "heuristic", 6001, ""),
    ("saboteur2", 4, "heuristic", "random", 8001, ""),
    ("saboteur2", 5, "heuristic", "random", 10001, ""),
    ("saboteur2", 6, "random", "heuristic", 50002, ""),
    ("saboteur2", 7, "heuristic", "random", 50007, ""),
    ("saboteur2", 8, "heuristic", "heuristic", 50000, ""),
    ("saboteur2", 9, "heuristic", "random", 50004, ""),
    ("saboteur2", 10, "heuristic", "random", 50007, ""),
    ("saboteur2", 11, "random", "heuristic", 22001, ""),
    ("saboteur2", 12, "heuristic", "random", 50007, ""),
]
"""The sample: the fewest and cheapest games that together cover every line and branch of engine/ that the 395 games
of the earlier sample covered (`python -m bench.legality_cover` plays those under coverage.py and chooses), with
every table size of each variant, every matchup of each variant and every option set among them."""


@pytest.mark.parametrize(("variant", "players", "diggers", "saboteurs", "seed", "options"), [
    pytest.param(*game, id="-".join(str(part) for part in game if part)) for game in GAMES])
def test_bots_make_only_legal_moves_in_whole_games(variant, players, diggers, saboteurs, seed, options):
    play_out(players, seed, diggers, saboteurs, OPTIONS.get(options), variant)


def test_games_of_heuristic_bots_reach_the_gold_picks_and_the_bots_pick():
    picks = [d for d in bot_game(5, 3) if d.move["type"] == "pick_gold"]

    assert picks, "this seed has a diggers' win: the picks are decisions of the bots"
    assert all(d.move["value"] == max(m["value"] for m in d.moves) for d in picks)


EXHAUSTIVE_GAMES = {"base": 125, "saboteur2": 91}
"""Games per player count of the opt-in run: 1,000 of Saboteur and 1,001 of Saboteur 2."""
TABLES = [(variant, players) for variant, counts in PLAYERS.items() for players in counts]


def play_games(variant: str, players: int, games: int) -> None:
    """`games` seeded games at this table size, the three matchups in turn, on seeds from 50,000."""
    for seed in range(games):
        play_out(players, 50_000 + seed, *MATCHUPS[seed % 3], variant=variant)


@pytest.mark.exhaustive
@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_thousands_of_games_without_an_illegal_move(variant, players):
    play_games(variant, players, EXHAUSTIVE_GAMES[variant])
