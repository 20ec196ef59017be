"""A greyed card in the hand says on the card itself why it can only be discarded: a broken tool or a trap that
bars building, no place on the board that fits, no one to play it on. The reasons come from the seat's own view,
so they say nothing the table does not already show. Pages are read through the Flask test client."""

from __future__ import annotations

import html
import re

import engine
from engine.variants import variant_of
from engine.views import card_info
from pbem.runtime import Runtime
from pbem.web.hand_reasons import Unplayable, unplayable_reason
from tests.support.games import store_game
from tests.support.tables import arrange, card_id, expansion_table
from tests.support.web import open_table

# Cards laid around the start: every side ends in a dead end, so no path card has a place.
WALLED_IN = {(1, 0): "dead_cross", (-1, 0): "dead_tee_ews", (0, 1): "dead_tee_nse", (0, -1): "dead_straight_ns"}


def card_tiles(page: str) -> dict[int, str]:
    """Each card of the hand, by id, as the words on its tile."""
    tiles = re.findall(r'<li class="hand-card[^"]*" data-card="(\d+)".*?</li>', page, re.S)
    bodies = re.findall(r'(<li class="hand-card[^"]*" data-card="\d+".*?</li>)', page, re.S)
    return {int(card): " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())
            for card, body in zip(tiles, bodies, strict=True)}


def tile_of(page: str, state: engine.Game, name: str, seat: int = 0) -> str:
    return card_tiles(page)[card_id(state, seat, name)]


def test_a_path_card_greyed_by_a_broken_pick_says_the_pick_is_broken(client, runtime_of: Runtime) -> None:
    state = arrange(3, broken={0: ["pick"]}, hands={0: ["cross", "straight_ew", "break_lantern", "map",
                                                        "repair_cart", "curve_nw"]})
    game_id = store_game(runtime_of, state)

    page = open_table(client, runtime_of, game_id, 0)

    for name in ("cross", "straight_ew", "curve_nw"):
        assert "Pick broken" in tile_of(page, state, name)
        assert "Your pick is broken: you can't build." in tile_of(page, state, name)
    assert "broken" not in tile_of(page, state, "break_lantern")  # it has players to be played on
    assert "broken" not in tile_of(page, state, "map")


def test_two_broken_tools_are_both_named(client, runtime_of: Runtime) -> None:
    state = arrange(3, broken={0: ["pick", "cart"]}, hands={0: ["cross"]})
    game_id = store_game(runtime_of, state)

    tile = tile_of(open_table(client, runtime_of, game_id, 0), state, "cross")

    assert "Tools broken" in tile and "Your pick and cart are broken: you can't build." in tile


def test_a_path_card_with_no_place_on_the_board_says_no_place_fits(client, runtime_of: Runtime) -> None:
    state = arrange(3, board=WALLED_IN, hands={0: ["cross", "straight_ns", "map"]})
    game_id = store_game(runtime_of, state)

    page = open_table(client, runtime_of, game_id, 0)

    assert "No place on the board fits this card." in tile_of(page, state, "cross")
    assert "No place on the board fits this card." in tile_of(page, state, "straight_ns")


def test_a_repair_with_nothing_broken_says_there_is_nothing_to_repair(client, runtime_of: Runtime) -> None:
    state = arrange(3, broken={1: ["lantern"]}, hands={0: ["repair_pick_cart", "repair_lantern"]})
    game_id = store_game(runtime_of, state)

    page = open_table(client, runtime_of, game_id, 0)

    assert "No one has a broken pick or cart." in tile_of(page, state, "repair_pick_cart")
    assert "nothing to repair" not in tile_of(page, state, "repair_lantern")  # Bo's lantern is broken


def test_a_break_when_that_tool_is_broken_for_everyone_has_no_one_to_target() -> None:
    # The deck holds three broken lanterns: all of them lie in front of the players, so one is drawn as it prints.
    state = arrange(3, broken={0: ["lantern"], 1: ["lantern"], 2: ["lantern"]})
    lantern = state.front[1][0]

    reason = unplayable_reason(card_info(variant_of(state), lantern), engine.view(state, 0))

    assert reason == Unplayable("No one to target", "Every lantern at the table is broken already.")


def test_saboteur2_cards_without_a_target_say_why(client, runtime_of: Runtime) -> None:
    state = expansion_table(hands={0: ["theft", "hands_off", "free", "swap_hand"]}, front={})  # nothing in front
    game_id = store_game(runtime_of, state)

    page = open_table(client, runtime_of, game_id, 0)

    assert "No one has a Theft in front of them." in tile_of(page, state, "hands_off")
    assert "No one is trapped." in tile_of(page, state, "free")
    assert "no one" not in tile_of(page, state, "theft").lower()
    assert "no one" not in tile_of(page, state, "swap_hand").lower()


def test_a_second_theft_says_one_is_already_in_front_of_you(client, runtime_of: Runtime) -> None:
    state = expansion_table(hands={0: ["theft", "swap_hand"]}, front={0: ["theft"]})
    game_id = store_game(runtime_of, state)

    tile = tile_of(open_table(client, runtime_of, game_id, 0), state, "theft")

    assert "You already have a Theft in front of you" in tile


def test_a_trapped_player_is_told_that_the_trap_stops_building(client, runtime_of: Runtime) -> None:
    state = expansion_table(hands={0: ["cross", "free"]})  # Ann is trapped

    game_id = store_game(runtime_of, state)
    tile = tile_of(open_table(client, runtime_of, game_id, 0), state, "cross")

    assert "You are trapped: you can't build." in tile


def test_no_reason_is_shown_when_it_is_not_the_seats_turn(client, runtime_of: Runtime) -> None:
    state = arrange(3, broken={1: ["pick"]}, hands={1: ["cross"]})
    game_id = store_game(runtime_of, state)

    page = open_table(client, runtime_of, game_id, 1)

    assert "can't build" not in tile_of(page, state, "cross", seat=1)  # the hand is asleep as a whole
