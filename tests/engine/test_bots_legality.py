"""Bots only ever make legal moves: whole seeded games of Saboteur for 3 to 10 players and of Saboteur 2
for 2 to 12, every phase, every decision checked against the seat's legal moves.

Two hundred games run in some thirty seconds; 195 more on other seeds are marked slow (`make test` runs them
beside the rest). The full 2,001 games are opt-in (`pytest -m exhaustive`, a few CPU-minutes): a heuristic
decision costs about 2 ms and a game 0.1-0.3 s, so thousands of games cannot fit in a minute (docs/performance.md).
"""
from __future__ import annotations

from typing import Iterator

import pytest

import engine
from engine.bots import match
from engine.bots.match import Decision

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


@pytest.mark.parametrize("players", PLAYERS["base"])
@pytest.mark.parametrize(("diggers", "saboteurs"), MATCHUPS)
def test_heuristic_bots_make_only_legal_moves_in_whole_games(players, diggers, saboteurs):
    for seed in range(4):
        play_out(players, 1000 * players + seed, diggers, saboteurs)


@pytest.mark.parametrize("players", PLAYERS["saboteur2"])
@pytest.mark.parametrize(("diggers", "saboteurs"), MATCHUPS)
def test_heuristic_bots_make_only_legal_moves_in_whole_games_of_saboteur2(players, diggers, saboteurs):
    for seed in range(3):
        play_out(players, 2000 * players + seed, diggers, saboteurs, variant="saboteur2")


def test_heuristic_bots_play_whole_games_with_every_option():
    for seed, options in enumerate([{"auto_pick_gold": True}, {"digger_gold_cards": "diggers"}]):
        for players in (3, 7, 10):
            play_out(players, seed, "heuristic", "heuristic", options)


def test_games_of_heuristic_bots_reach_the_gold_picks_and_the_bots_pick():
    picks = [d for d in bot_game(5, 3) if d.move["type"] == "pick_gold"]

    assert picks, "this seed has a diggers' win: the picks are decisions of the bots"
    assert all(d.move["value"] == max(m["value"] for m in d.moves) for d in picks)


SLOW_GAMES = {"base": 12, "saboteur2": 9}
"""Games per player count marked slow: 96 of Saboteur (3-10 players) and 99 of Saboteur 2 (2-12)."""
EXHAUSTIVE_GAMES = {"base": 125, "saboteur2": 91}
"""Games per player count of the opt-in run: 1,000 of Saboteur and 1,001 of Saboteur 2."""
TABLES = [(variant, players) for variant, counts in PLAYERS.items() for players in counts]


def play_games(variant: str, players: int, games: int) -> None:
    """`games` seeded games at this table size, the three matchups in turn, on seeds the quick tests leave alone."""
    for seed in range(games):
        play_out(players, 50_000 + seed, *MATCHUPS[seed % 3], variant=variant)


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_hundreds_of_games_without_an_illegal_move(variant, players):
    play_games(variant, players, SLOW_GAMES[variant])


@pytest.mark.exhaustive
@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_thousands_of_games_without_an_illegal_move(variant, players):
    play_games(variant, players, EXHAUSTIVE_GAMES[variant])
