"""How a round ended stays on screen, in real headless Chromium at 390x844 and 1440x900, base game and Saboteur 2:
when the move that reaches the gold also deals the next round, the "Round 1 is over" panel draws the table as it
ended (the winning card, the goal turned over), and the replay's step of that move draws it before the new deal.

Screenshots land in artifacts/screenshots/ (and are looked at before a change is done)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

import engine
from tests.support.browser import LiveServer, accessible, open_turn_page
from tests.support.games import dig_for_gold, store_game

pytestmark = pytest.mark.browser

Shoot = Callable[[Any, str], Path]
NAMES = ["Ann", "Ben", "Cat"]
# Seeds whose tunnellers reach the gold in round 1 (base: gold shared out at once, so the same move deals round 2).
WINNING_GAMES = {"base": (6, {"auto_pick_gold": True}), "saboteur2": (2, {})}


def gold_reached_and_dealt(live_server: LiveServer, variant: str) -> tuple[str, dict[str, Any]]:
    """A game whose move 1 reaches the gold and deals round 2 in the same move; returns it and that move."""
    seed, options = WINNING_GAMES[variant]
    state = engine.new_game(NAMES, seed=seed, variant=variant, options=options)
    rng = random.Random(seed)
    while True:
        seat = engine.to_act(state)
        assert seat is not None
        move = dig_for_gold(state, seat, rng)
        after, events = engine.apply_move(state, seat, move)
        if any(event["type"] == "round_ended" for event in events):
            break
        state = after
    assert any(event["type"] == "goal_revealed" and event["gold"] for event in events)
    assert after.round == 2 and after.phase == "play", "the winning move deals the next round at once"
    game_id = store_game(live_server.runtime, state)
    live_server.runtime.games.submit_move(game_id, seat, move, 0, "the-winning-move")
    return game_id, move


@pytest.mark.parametrize("variant", sorted(WINNING_GAMES))
def test_the_round_over_panel_draws_the_table_as_the_round_ended(
    seat_page: Page, live_server: LiveServer, screenshots: Shoot, variant: str, size: str
) -> None:
    game_id, move = gold_reached_and_dealt(live_server, variant)

    open_turn_page(seat_page, live_server, game_id)

    panel = seat_page.locator("#round-over")
    expect(panel).to_have_attribute("open", "")
    final = panel.locator("svg.final-board")
    expect(final).to_be_visible()
    expect(final.locator(f'.card[data-x="{move["x"]}"][data-y="{move["y"]}"]')).to_have_count(1)
    expect(final.locator(".last-marker")).to_have_count(1)
    expect(final.locator('.card[data-x="8"] .card-gold')).to_have_count(1)  # the gold goal lies turned over
    expect(seat_page.locator("#board-wrap svg.board .card")).to_have_count(1)  # round 2: the start alone
    screenshots(seat_page, f"{variant}-{size}-round-over-final-table")
    accessible(seat_page)


@pytest.mark.parametrize("variant", sorted(WINNING_GAMES))
def test_the_replay_step_of_the_winning_move_draws_the_table_before_the_new_deal(
    seat_page: Page, live_server: LiveServer, screenshots: Shoot, variant: str, size: str
) -> None:
    game_id, move = gold_reached_and_dealt(live_server, variant)
    open_turn_page(seat_page, live_server, game_id, seat=1)

    seat_page.goto(f"{live_server.url}/table/{game_id}/replay?step=1")

    ended = seat_page.locator(".replay-ended")
    expect(ended).to_contain_text("Round 1 as it ended")
    expect(ended.locator(f'svg.final-board .card[data-x="{move["x"]}"][data-y="{move["y"]}"]')).to_have_count(1)
    expect(ended.locator('svg.final-board .card[data-x="8"] .card-gold')).to_have_count(1)
    expect(seat_page.locator(".replay-dealt")).to_contain_text("Round 2, as dealt")
    screenshots(seat_page, f"{variant}-{size}-replay-round-ended")
    accessible(seat_page)
    seat_page.goto(f"{live_server.url}/table/{game_id}/replay?step=0")
    expect(seat_page.locator(".replay-ended")).to_have_count(0)  # before the winning move: the round goes on
    accessible(seat_page)
