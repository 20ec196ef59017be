"""What a player meets first on the turn page, in real headless Chromium at 390x844 and 1440x900: the role, whose
turn, the board and the whole hand on the first screen (the desktop with the time-zone offer shown too); a greyed
card that says why on the card; a tall Saboteur 2 card chosen by a tap anywhere on it, its help a button of its own
whose text is solid and readable above everything.

With PBEM_SCREENSHOTS=1 the first screens are saved under artifacts/screenshots/ (and are looked at)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

import engine
from tests.support.browser import FIRST_SCREEN, LiveServer, open_turn_page, script_watched_page, wholly_on_first_screen
from tests.support.games import store_game
from tests.support.tables import arrange, card_id, expansion_table

pytestmark = pytest.mark.browser

Shoot = Callable[[Any, str], Path]
FAR_ZONE = "America/New_York"  # the seat's times are shown in UTC: a device here is offered its own zone
SB2_HAND = ["door_blue_ns", "theft", "swap_hand", "hands_off", "swap_hats", "crystal_cross"]


@pytest.fixture
def far_page(browser: Browser, live_server: LiveServer, size: str) -> Iterator[Page]:
    """A fresh context at the size under test, on a device in another time zone than the seat's; fails on any
    script error."""
    with script_watched_page(browser, size, FAR_ZONE) as opened:
        yield opened


def broken_pick_game(live_server: LiveServer) -> tuple[str, engine.Game]:
    """Ann (seat 0) to play with a broken pick: her three path cards can only be discarded."""
    state = arrange(3, broken={0: ["pick"]}, hands={0: ["cross", "straight_ew", "break_lantern", "map",
                                                        "repair_cart", "curve_nw"]})
    return store_game(live_server.runtime, state, title="Friday mine"), state


def saboteur2_game(live_server: LiveServer) -> tuple[str, engine.Game]:
    """Ann to play the expansion's long-named cards; nobody has a Theft, so her Hands Off has no one to target."""
    state = expansion_table(hands={0: SB2_HAND}, front={0: ["trapped"], 2: ["trapped"]})
    return store_game(live_server.runtime, state, title="Saboteur 2 night"), state


GAMES = {"base": broken_pick_game, "saboteur2": saboteur2_game}


@pytest.mark.parametrize("variant", sorted(GAMES))
def test_role_turn_board_and_whole_hand_are_on_the_first_screen_with_the_time_zone_offer(
    far_page: Page, live_server: LiveServer, screenshots: Shoot, variant: str, size: str
) -> None:
    game_id, _ = GAMES[variant](live_server)
    open_turn_page(far_page, live_server, game_id)

    expect(far_page.locator("#zone-offer")).to_contain_text(FAR_ZONE)
    outside = [miss for selector in FIRST_SCREEN for miss in wholly_on_first_screen(far_page, selector)]
    if size == "desktop":  # beside the board; on a phone it waits under the hand
        outside += wholly_on_first_screen(far_page, "#zone-offer")
    assert outside == []
    screenshots(far_page, f"{variant}-{size}-first-screen-with-zone-offer")


def test_a_greyed_card_says_on_it_why_it_can_only_be_discarded(
    far_page: Page, live_server: LiveServer, screenshots: Shoot, size: str
) -> None:
    game_id, state = broken_pick_game(live_server)
    open_turn_page(far_page, live_server, game_id)
    cross = far_page.locator(f'.hand-card[data-card="{card_id(state, 0, "cross")}"]')

    expect(cross.locator(".card-why")).to_have_text("Pick broken")
    expect(cross.locator(".card-why")).to_be_visible()
    cross.click()

    expect(far_page.locator("#hint")).to_have_text(
        "Your pick is broken: you can't build. You can discard it face down to pass.")
    assert wholly_on_first_screen(far_page, "#card-controls [data-action=pass]", scrolled=True) == []
    screenshots(far_page, f"base-{size}-greyed-card-chosen")


def test_a_tall_card_is_chosen_by_a_tap_on_its_lower_half_and_its_help_is_a_button_of_its_own(
    far_page: Page, live_server: LiveServer, size: str
) -> None:
    game_id, state = saboteur2_game(live_server)
    open_turn_page(far_page, live_server, game_id)
    swap = far_page.locator(f'.hand-card[data-card="{card_id(state, 0, "swap_hand")}"]')
    tile = swap.bounding_box()
    help_box = swap.locator(".card-help").bounding_box()
    assert tile is not None and help_box is not None

    swap.click(position={"x": tile["width"] / 2, "y": tile["height"] * 0.85})  # on its name, under the picture

    expect(swap).to_have_class("hand-card choosable selected")
    expect(far_page.locator(".card-help-text:visible")).to_have_count(0)
    assert help_box["width"] >= 24 and help_box["height"] >= 24  # the size WCAG 2.2 asks of a target
    assert tile["x"] <= help_box["x"] and help_box["x"] + help_box["width"] <= tile["x"] + tile["width"]
    assert tile["y"] <= help_box["y"] and help_box["y"] + help_box["height"] <= tile["y"] + tile["height"] / 3


@pytest.mark.parametrize("variant", sorted(GAMES))
def test_a_cards_help_is_solid_and_above_everything(
    far_page: Page, live_server: LiveServer, screenshots: Shoot, variant: str, size: str
) -> None:
    game_id, state = GAMES[variant](live_server)
    greyed = card_id(state, 0, "cross" if variant == "base" else "hands_off")
    open_turn_page(far_page, live_server, game_id)

    far_page.locator(f'.hand-card[data-card="{greyed}"] .card-help').click()

    text = far_page.locator(f"#card-help-{greyed}")
    expect(text).to_be_visible()
    expect(far_page.locator(f'.hand-card[data-card="{greyed}"]')).not_to_have_class("selected")
    shown = text.evaluate(
        """(element) => {
               let opacity = 1;
               for (let at = element; at; at = at.parentElement) { opacity *= Number(getComputedStyle(at).opacity); }
               const box = element.getBoundingClientRect();
               const points = [[0.1, 0.2], [0.5, 0.5], [0.9, 0.8]].map(([x, y]) =>
                   document.elementFromPoint(box.left + box.width * x, box.top + box.height * y));
               return { opacity, background: getComputedStyle(element).backgroundColor,
                        onTop: points.every((point) => element.contains(point)) };
           }"""
    )
    assert shown == {"opacity": 1, "background": "rgb(61, 43, 26)", "onTop": True}
    screenshots(far_page, f"{variant}-{size}-card-help")
