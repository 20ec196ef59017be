"""What a player must see at once on the turn page, in real headless Chromium at 390x844 and 1440x900, base
game and Saboteur 2: the role in the first screen, lit players on screen, a board zoom that makes a lit cell
44 px or more, an inert hand when nothing can be played, the round just ended, the podium first, times in the
device's zone, a whole turn by keyboard alone, and no serious or critical axe-core violation.

Screenshots land in artifacts/screenshots/ (and are looked at before a change is done)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

import engine
from pbem.times import local_time
from tests.support.browser import LiveServer, accessible, open_context, open_turn_page, settle
from tests.support.games import dig_for_gold, play_until, store_game
from tests.support.tables import card_id, expansion_table

pytestmark = pytest.mark.browser

Shoot = Callable[[Any, str], Path]
NAMES = ["Ann", "Ben", "Cat"]


def in_viewport(page: Page, selector: str) -> bool:
    """Every element matching `selector` lies wholly inside the window as it is scrolled now."""
    return bool(page.evaluate(
        """(selector) => Array.from(document.querySelectorAll(selector)).every((element) => {
               const box = element.getBoundingClientRect();
               return box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0;
           })""",
        selector,
    ))


def base_game(live_server: LiveServer) -> tuple[str, engine.Game]:
    state = engine.new_game(NAMES, seed=1)
    return store_game(live_server.runtime, state, title="Friday mine"), state


def saboteur2_game(live_server: LiveServer) -> tuple[str, engine.Game]:
    state = expansion_table(hands={0: ["door_blue_ns", "theft", "swap_hand", "inspection", "swap_hats",
                                       "crystal_cross"]}, front={1: ["theft"], 2: ["trapped"]})
    return store_game(live_server.runtime, state, title="Saboteur 2 night"), state


GAMES = {"base": base_game, "saboteur2": saboteur2_game}


@pytest.mark.parametrize("variant", sorted(GAMES))
def test_the_role_is_in_the_first_screen_and_the_page_passes_axe(
    seat_page: Page, live_server: LiveServer, screenshots: Shoot, variant: str, size: str
) -> None:
    game_id, _ = GAMES[variant](live_server)
    open_turn_page(seat_page, live_server, game_id)

    assert in_viewport(seat_page, ".status-role .role-name")
    screenshots(seat_page, f"{variant}-{size}-your-turn-top")
    accessible(seat_page)
    open_turn_page(seat_page, live_server, game_id, seat=1)
    assert in_viewport(seat_page, ".status-role .role-name")
    expect(seat_page.locator("#inert-reason")).to_contain_text("It is Ann's turn")
    accessible(seat_page)
    screenshots(seat_page, f"{variant}-{size}-not-your-turn")


@pytest.mark.parametrize("variant", sorted(GAMES))
def test_the_hand_is_on_the_first_screen_with_help_targets_that_touch_no_other_card(
    seat_page: Page, live_server: LiveServer, variant: str
) -> None:
    game_id, _ = GAMES[variant](live_server)
    open_turn_page(seat_page, live_server, game_id)

    assert in_viewport(seat_page, ".hand-card .card-face")
    cards = [box for box in (card.bounding_box() for card in seat_page.locator(".hand-card").all()) if box]
    helps = [box for box in (help.bounding_box() for help in seat_page.locator(".hand-card .card-help").all()) if box]
    assert len(cards) == len(helps) == 6
    for index, help_box in enumerate(helps):
        assert help_box["width"] >= 24 and help_box["height"] >= 24, help_box  # WCAG 2.2 target size
        for other, card in enumerate(cards):
            overlaps = (help_box["x"] < card["x"] + card["width"]
                        and card["x"] < help_box["x"] + help_box["width"]
                        and help_box["y"] < card["y"] + card["height"]
                        and card["y"] < help_box["y"] + help_box["height"])
            assert other == index or not overlaps, (index, other)


def test_choosing_a_broken_tool_brings_every_lit_player_on_screen(
    seat_page: Page, live_server: LiveServer, screenshots: Shoot, size: str
) -> None:
    game_id, state = base_game(live_server)
    broken = next(card for card in engine.view(state, 0)["you"]["hand"] if card.get("effect") == "break")
    open_turn_page(seat_page, live_server, game_id)

    seat_page.locator(f'.hand-card[data-card="{broken["id"]}"]').click()

    expect(seat_page.locator(".seat.target")).to_have_count(len(NAMES))  # a tool may be broken for anyone
    assert in_viewport(seat_page, ".seat.target")
    screenshots(seat_page, f"base-{size}-tool-targets")


def test_choosing_swap_your_hand_brings_every_lit_player_on_screen(
    seat_page: Page, live_server: LiveServer, screenshots: Shoot, size: str
) -> None:
    game_id, state = saboteur2_game(live_server)
    open_turn_page(seat_page, live_server, game_id)

    seat_page.locator(f'.hand-card[data-card="{card_id(state, 0, "swap_hand")}"]').click()

    expect(seat_page.locator(".seat.target")).to_have_count(3)
    assert in_viewport(seat_page, ".seat.target")
    screenshots(seat_page, f"saboteur2-{size}-swap-targets")


def test_the_zoom_makes_a_lit_cell_at_least_44_pixels(
    seat_page: Page, live_server: LiveServer, screenshots: Shoot, size: str
) -> None:
    rng = random.Random(3)
    # A tunnel grown long enough that the cells shrink on a phone.
    state = play_until(engine.new_game(NAMES, seed=1), lambda s: len(s.board) >= 9 and engine.to_act(s) == 0, rng,
                       choose=dig_for_gold)
    game_id = store_game(live_server.runtime, state)
    move = next(m for m in engine.legal_moves(state, 0) if "rotated" in m)
    open_turn_page(seat_page, live_server, game_id)
    seat_page.locator(f'.hand-card[data-card="{move["card"]}"]').click()
    lit = seat_page.locator("svg.board .target").first

    for _ in range(8):
        if lit.bounding_box()["width"] >= 44:  # type: ignore[index]
            break
        seat_page.get_by_role("button", name="Zoom the board in").click()

    box = lit.bounding_box()
    assert box is not None and box["width"] >= 44 and box["height"] >= 44
    wrap = seat_page.locator("#board-wrap").bounding_box()
    assert wrap is not None and wrap["x"] <= box["x"] and box["x"] + box["width"] <= wrap["x"] + wrap["width"] + 1
    screenshots(seat_page, f"base-{size}-zoomed")
    lit.click()
    expect(seat_page.locator("#confirm-bar")).to_be_visible()


def test_a_paused_games_hand_cannot_be_chosen_and_says_why(
    seat_page: Page, live_server: LiveServer, screenshots: Shoot, size: str
) -> None:
    game_id, state = base_game(live_server)
    live_server.runtime.turn_controls.pause(game_id, actor_email="host@example.org")
    open_turn_page(seat_page, live_server, game_id)

    expect(seat_page.locator("#inert-reason")).to_have_text(
        "The host has paused this game: nothing can be played until it goes on.")
    expect(seat_page.locator(".hand-card.choosable")).to_have_count(0)
    expect(seat_page.locator("#move-form")).to_have_count(0)
    seat_page.locator(".hand-card .card-face").first.click()
    expect(seat_page.locator(".hand-card.selected")).to_have_count(0)
    expect(seat_page.locator(".target")).to_have_count(0)
    screenshots(seat_page, f"base-{size}-paused")


def test_a_finished_round_is_shown_until_opened_once(
    seat_page: Page, live_server: LiveServer, screenshots: Shoot, size: str
) -> None:
    rng = random.Random(5)
    state = play_until(engine.new_game(NAMES, seed=1), lambda s: s.round == 2 and engine.to_act(s) is not None
                       and s.phase == "play", rng, choose=dig_for_gold)
    game_id = store_game(live_server.runtime, state)
    seat = engine.to_act(state)
    assert seat is not None
    open_turn_page(seat_page, live_server, game_id, seat)

    panel = seat_page.locator("#round-over")
    expect(panel).to_have_attribute("open", "")
    expect(panel).to_contain_text("Round 1 is over")
    expect(panel.locator(".round-over-roles")).to_be_hidden()  # who was who is one tap away
    assert in_viewport(seat_page, "#round-over [data-action=round-seen]")
    screenshots(seat_page, f"base-{size}-round-over")
    seat_page.get_by_role("button", name="Go to round 2").click()
    seat_page.reload()
    expect(seat_page.locator('#table[data-script="ready"]')).to_be_visible()
    expect(seat_page.locator("#round-over")).not_to_have_attribute("open", "")


def test_game_over_puts_the_podium_first_and_drops_the_settings(
    seat_page: Page, live_server: LiveServer, screenshots: Shoot, size: str
) -> None:
    state = play_until(engine.new_game(NAMES, seed=2), engine.is_over, random.Random(2), choose=dig_for_gold)
    game_id = store_game(live_server.runtime, state)
    open_turn_page(seat_page, live_server, game_id)

    assert in_viewport(seat_page, ".podium")
    expect(seat_page.locator(".podium-place")).to_have_count(3)
    expect(seat_page.locator("#settings")).to_have_count(0)
    expect(seat_page.locator(".seat-facts")).not_to_contain_text(["in hand"] * 3)
    wrap = seat_page.locator("#board-wrap")
    assert wrap.evaluate("(element) => element.scrollWidth <= element.clientWidth + 1")  # the whole board at first
    screenshots(seat_page, f"base-{size}-game-over")


def test_times_follow_a_device_in_new_york_once_offered(
    browser: Browser, live_server: LiveServer, screenshots: Shoot, size: str
) -> None:
    game_id, _ = base_game(live_server)
    context = open_context(browser, size, timezone_id="America/New_York")
    page = context.new_page()
    try:
        open_turn_page(page, live_server, game_id)
        offer = page.locator("#zone-offer")
        expect(offer).to_contain_text("America/New_York")
        screenshots(page, f"base-{size}-zone-offer")
        offer.get_by_role("button", name="Use my device's time zone").click()
        expect(page.locator('#table[data-script="ready"]')).to_be_visible()
        started = live_server.runtime.games.current_state(game_id).turn_started_at
        assert started is not None
        expect(page.locator(".status .since")).to_contain_text(local_time(started, "America/New_York"))
        expect(page.locator("#zone-offer")).to_be_hidden()
        settle(page)
    finally:
        context.close()


def test_a_whole_turn_by_keyboard_alone(seat_page: Page, live_server: LiveServer, size: str) -> None:
    game_id, state = base_game(live_server)
    move = next(m for m in engine.legal_moves(state, 0) if "rotated" in m and not m["rotated"])
    open_turn_page(seat_page, live_server, game_id)

    tab_to(seat_page, f'.hand-card[data-card="{move["card"]}"] .card-face')
    seat_page.keyboard.press("Enter")
    tab_to(seat_page, f'svg.board .target[data-x="{move["x"]}"][data-y="{move["y"]}"]')
    seat_page.keyboard.press("Enter")
    expect(seat_page.locator("#confirm-actions button")).to_be_focused()
    seat_page.keyboard.press("Enter")

    expect(seat_page.locator(".message.played")).to_contain_text("You built")


def tab_to(page: Page, selector: str, limit: int = 120) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement === document.querySelector(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_the_card_help_says_what_a_card_does(seat_page: Page, live_server: LiveServer, size: str) -> None:
    game_id, state = saboteur2_game(live_server)
    open_turn_page(seat_page, live_server, game_id)
    card = card_id(state, 0, "swap_hand")

    seat_page.get_by_role("button", name="What Swap Your Hand does").click()

    expect(seat_page.locator(f"#card-help-{card}")).to_contain_text("Swap your whole hand with another player's")
    expect(seat_page.locator(".hand-card.selected")).to_have_count(0)  # the "?" does not choose the card


def test_the_rules_page_draws_every_card_and_passes_axe(
    seat_page: Page, live_server: LiveServer, screenshots: Shoot, size: str
) -> None:
    seat_page.goto(f"{live_server.url}/rules")

    expect(seat_page.locator("#saboteur2 .rules-card", has_text="Free at last!")).to_contain_text("Frees a trapped")
    expect(seat_page.locator("#base .rules-card svg")).not_to_have_count(0)
    accessible(seat_page)
    screenshots(seat_page, f"rules-{size}")
