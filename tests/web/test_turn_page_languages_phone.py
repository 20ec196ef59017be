"""The turn page in German and in Korean on a 390x844 phone, in real headless Chromium: the role, whose turn, the
board and the whole hand are still on the first screen, though the words are longer or wrap differently; a greyed
card says why in the reader's words, on the card.

With PBEM_SCREENSHOTS=1 the first screens are saved under artifacts/screenshots/ (and are looked at)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.support.browser import FIRST_SCREEN, LiveServer, open_context, open_turn_page, wholly_on_first_screen
from tests.support.games import store_game
from tests.support.tables import arrange, card_id, expansion_table

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("compiled_catalogues")]

LOCALES = {"de": "de-DE", "ko": "ko-KR"}
WHY = {"de": "Hacke kaputt", "ko": "곡괭이 부서짐"}
HEADLINE = {"de": "Du bist am Zug: spiel oder passe.", "ko": "내 차례: 카드를 내거나 패스하세요."}


def base_game(live_server: LiveServer) -> tuple[str, Any]:
    """Ann (seat 0) to play with a broken pick: her path cards can only be discarded."""
    state = arrange(3, broken={0: ["pick"]}, hands={0: ["cross", "straight_ew", "break_lantern", "map",
                                                        "repair_cart", "curve_nw"]})
    return store_game(live_server.runtime, state, title="Freitagsmine"), state


def saboteur2_game(live_server: LiveServer) -> tuple[str, Any]:
    """Ann to play the expansion's long-named cards."""
    state = expansion_table(hands={0: ["door_blue_ns", "theft", "swap_hand", "hands_off", "swap_hats",
                                       "crystal_cross"]}, front={0: ["trapped"], 2: ["trapped"]})
    return store_game(live_server.runtime, state, title="Saboteur 2"), state


GAMES: dict[str, Callable[[LiveServer], tuple[str, Any]]] = {"base": base_game, "saboteur2": saboteur2_game}


@pytest.mark.parametrize("variant", sorted(GAMES))
@pytest.mark.parametrize("language", sorted(LOCALES))
def test_the_first_screen_of_a_german_or_korean_phone_shows_role_board_hand_and_whose_turn(
    browser: Browser, live_server: LiveServer, screenshots: Callable[[Any, str], Path | None], language: str,
    variant: str,
) -> None:
    game_id, state = GAMES[variant](live_server)
    context = open_context(browser, "phone", locale=LOCALES[language], timezone_id="UTC")
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        open_turn_page(page, live_server, game_id)

        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("#headline")).to_have_text(HEADLINE[language])
        outside = [miss for selector in FIRST_SCREEN for miss in wholly_on_first_screen(page, selector)]
        wide = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
        if variant == "base":
            cross = page.locator(f'.hand-card[data-card="{card_id(state, 0, "cross")}"] .card-why')
            expect(cross).to_have_text(WHY[language])
        screenshots(page, f"{variant}-{language}-phone-first-screen")
        page.locator('#table[data-script="ready"]').wait_for()
    finally:
        context.close()

    assert outside == []
    assert not wide  # nothing pushes the page sideways
    assert errors == []
