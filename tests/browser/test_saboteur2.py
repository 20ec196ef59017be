"""Saboteur 2 turns in real headless Chromium at a phone's and a desktop's size: building a door, swapping
hands, a pass of three cards ticked in the hand, two discards that remove a Trapped!, and a steal after the
round. Ann (seat 0) plays in the browser. Screenshots land in artifacts/screenshots/."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

import engine
from tests.support.browser import LiveServer, open_turn_page
from tests.support.games import store_game
from tests.support.tables import EXPANSION_BOARD, card_id, expansion_table, rulebook_example

pytestmark = pytest.mark.browser

Shoot = Callable[[Any, str], Path]
HAND = ["door_blue_ns", "theft", "swap_hand", "inspection", "swap_hats", "crystal_cross"]


def state_of(live_server: LiveServer, game_id: str) -> engine.Game:
    return live_server.runtime.games.engine_state(game_id)[0]


def expansion_game(live_server: LiveServer, **overrides: Any) -> tuple[str, engine.Game]:
    layout: dict[str, Any] = {"hands": {0: HAND}, "front": {1: ["theft"], 2: ["trapped"]}}
    layout.update(overrides)
    state = expansion_table(**layout)
    return store_game(live_server.runtime, state, title="Saboteur 2 night"), state


def test_building_a_door_card_by_clicking_the_card_and_a_lit_cell(
    page: Page, live_server: LiveServer, screenshots: Shoot
) -> None:
    game_id, state = expansion_game(live_server)
    door = card_id(state, 0, "door_blue_ns")
    move = next(m for m in engine.legal_moves(state, 0) if m.get("card") == door and not m["rotated"])
    open_turn_page(page, live_server, game_id)
    expect(page.locator(".hand-card.choosable").first).to_be_visible()
    screenshots(page, "table")

    page.locator(f'.hand-card[data-card="{door}"]').click()
    page.locator(f'svg.board .target[data-x="{move["x"]}"][data-y="{move["y"]}"]').click()
    expect(page.locator("#confirm-text")).to_have_text(f"Build the Blue door at ({move['x']}, {move['y']})?")
    expect(page.locator("svg.board .ghost .door-blue")).to_have_count(1)  # the preview shows the door
    screenshots(page, "confirm-door")
    page.get_by_role("button", name="Play it").click()

    expect(page.locator(".message.played")).to_contain_text("You built a Blue door")
    placed = page.locator(f'svg.board .card[data-x="{move["x"]}"][data-y="{move["y"]}"]')
    expect(placed.locator(".door-blue .door-letter")).to_have_text("B")
    assert state_of(live_server, game_id).board[(move["x"], move["y"])][0] == door
    screenshots(page, "built-door")


def test_swapping_hands_by_clicking_the_card_and_the_player(
    page: Page, live_server: LiveServer, screenshots: Shoot
) -> None:
    game_id, state = expansion_game(live_server)
    swap = card_id(state, 0, "swap_hand")
    bos_hand = sorted(state.hands[1])
    open_turn_page(page, live_server, game_id)

    page.locator(f'.hand-card[data-card="{swap}"]').click()
    bo = page.locator('.seat[data-seat="1"]')
    expect(bo).to_have_class(re.compile(r"\btarget\b"))
    expect(page.locator('.seat[data-seat="0"]')).not_to_have_class(re.compile(r"\btarget\b"))
    screenshots(page, "swap-targets")
    bo.click()
    expect(page.locator("#confirm-text")).to_have_text("Swap hands with Bo (they then draw a card)?")
    page.get_by_role("button", name="Play it").click()

    expect(page.locator(".message.played")).to_contain_text("You played Swap Your Hand with Bo, who draws a card")
    held = sorted(int(card) for card in page.locator(".hand-card").evaluate_all(
        "cards => cards.map(c => c.getAttribute('data-card'))"))
    assert held == bos_hand
    screenshots(page, "swapped")


def test_passing_three_cards_ticked_in_the_hand(page: Page, live_server: LiveServer, screenshots: Shoot) -> None:
    game_id, state = expansion_game(live_server)
    three = sorted(state.hands[0])[:3]
    open_turn_page(page, live_server, game_id)

    page.locator(f'.hand-card[data-card="{three[0]}"]').click()
    page.get_by_role("button", name="Discard it (pass)").click()
    for card in three[1:]:
        page.locator(f'.hand-card[data-card="{card}"]').click()
    expect(page.locator(".hand-card.ticked")).to_have_count(3)
    expect(page.locator("#confirm-text")).to_contain_text("Pass: discard your")
    screenshots(page, "pass-three")
    page.get_by_role("button", name="Pass", exact=True).click()

    expect(page.locator(".message.played")).to_contain_text("You passed, discarding ")
    assert not set(three) & set(state_of(live_server, game_id).hands[0])


def test_two_discards_remove_the_trapped_card_lit_in_front_of_you(
    page: Page, live_server: LiveServer, screenshots: Shoot
) -> None:
    game_id, state = expansion_game(live_server, front={0: ["trapped"], 1: ["theft"]})
    trapped = state.front[0][0]
    two = sorted(state.hands[0])[:2]
    open_turn_page(page, live_server, game_id)

    page.locator(f'.hand-card[data-card="{two[0]}"]').click()
    page.get_by_role("button", name="Discard two to remove a card in front of you").click()
    page.locator(f'.hand-card[data-card="{two[1]}"]').click()
    lit = page.locator(f'.seat.you [data-front-card="{trapped}"]')
    expect(lit).to_have_class(re.compile(r"\btarget\b"))
    screenshots(page, "clear-target")
    lit.click()
    expect(page.locator("#confirm-text")).to_contain_text("to remove the Trapped! in front of you?")
    page.get_by_role("button", name="Play it").click()

    expect(page.locator(".message.played")).to_contain_text(
        "You discarded 2 cards to remove the Trapped! lying in front of you")
    assert state_of(live_server, game_id).front[0] == []


def test_stealing_a_gold_piece_by_clicking_a_lit_player(
    page: Page, live_server: LiveServer, screenshots: Shoot
) -> None:
    state = rulebook_example()
    straight = card_id(state, 1, "straight_ew")
    state, _ = engine.apply_move(state, 1, {"type": "play", "card": straight, "x": 7, "y": 0, "rotated": False})
    game_id = store_game(live_server.runtime, state, title="Saboteur 2 night")
    open_turn_page(page, live_server, game_id, 5)

    expect(page.locator("h1")).to_have_text("Your Theft: steal 1 gold piece, or let it go.")
    ann = page.locator('.seat[data-seat="0"]')
    expect(ann).to_have_class(re.compile(r"\btarget\b"))
    expect(page.locator('.seat[data-seat="1"]')).not_to_have_class(re.compile(r"\btarget\b"))
    screenshots(page, "steal")
    ann.click()
    expect(page.locator("#confirm-text")).to_have_text("Steal 1 gold piece from Ann?")
    page.get_by_role("button", name="Steal it").click()

    expect(page.locator(".message.played")).to_contain_text("You stole a gold piece from Ann.")
    assert state_of(live_server, game_id).gold_pieces[5] == 1
    screenshots(page, "stolen")


def test_the_expansion_board_draws_every_new_path_card(page: Page, live_server: LiveServer, screenshots: Shoot) -> None:
    game_id, _ = expansion_game(live_server)
    open_turn_page(page, live_server, game_id, 1)

    for cell in EXPANSION_BOARD:
        expect(page.locator(f'svg.board .card[data-x="{cell[0]}"][data-y="{cell[1]}"]')).to_have_count(1)
    screenshots(page, "board")
