"""Bots only ever make legal moves: whole seeded games for 3 to 10 players, every phase.

The regular suite plays a couple of hundred games; `pytest -m slow` plays thousands more.
"""
from __future__ import annotations

from typing import Iterator

import pytest

import engine
from engine.bots import match
from engine.bots.match import Decision

from .tables import NAMES


def bot_game(players: int, seed: int, diggers: str = "heuristic", saboteurs: str = "heuristic",
             options: dict | None = None) -> Iterator[Decision]:
    """Every decision of one seeded game, each seat played by the bot its role of the round asks for."""
    return match.bot_game(engine.new_game(NAMES[:players], seed=seed, options=options), seed, diggers, saboteurs)


def play_out(players: int, seed: int, diggers: str, saboteurs: str, options: dict | None = None) -> None:
    """Play a whole game, checking every move against the legal ones."""
    for decision in bot_game(players, seed, diggers, saboteurs, options):
        assert decision.move in decision.moves, (players, seed, decision.seat, decision.move)


MATCHUPS = [("heuristic", "heuristic"), ("heuristic", "random"), ("random", "heuristic")]


@pytest.mark.parametrize("players", range(3, 11))
@pytest.mark.parametrize(("diggers", "saboteurs"), MATCHUPS)
def test_heuristic_bots_make_only_legal_moves_in_whole_games(players, diggers, saboteurs):
    for seed in range(4):
        play_out(players, 1000 * players + seed, diggers, saboteurs)


def test_heuristic_bots_play_whole_games_with_every_option():
    for seed, options in enumerate([{"auto_pick_gold": True}, {"digger_gold_cards": "diggers"}]):
        for players in (3, 7, 10):
            play_out(players, seed, "heuristic", "heuristic", options)


def test_games_of_heuristic_bots_reach_the_gold_picks_and_the_bots_pick():
    picks = [d for d in bot_game(5, 3) if d.move["type"] == "pick_gold"]

    assert picks, "this seed has a diggers' win: the picks are decisions of the bots"
    assert all(d.move["value"] == max(m["value"] for m in d.moves) for d in picks)


@pytest.mark.slow
@pytest.mark.parametrize("players", range(3, 11))
def test_thousands_of_games_without_an_illegal_move(request, players):
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("plays 2000 games; run with -m slow")
    for seed in range(250):
        play_out(players, 50_000 + seed, *MATCHUPS[seed % 3])
