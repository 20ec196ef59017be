"""Saboteur 2 on the turn page, through the Flask test client: the expansion's board, cards, roles and gold, and
one form post for each new kind of move (a door, Theft, Hands Off, Swap Your Hand, Inspection, Swap Your Hats,
Trapped!, Free at last!, a pass of several cards, two discards to remove a card, a steal and letting it go).

Positions are laid out with the engine's table notation (tests/engine/tables.py) and stored with
`store_game`; the moves are read from the page's own buttons and small forms, as a browser without JavaScript
posts them, and the engine behind the service judges each one.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

import engine
from engine.variants import variant_of
from pbem.runtime import Runtime
from tests.conftest import app_runtime, store_game
from tests.engine.tables import arrange
from tests.engine.test_engine_building import TO_THE_GOALS
from tests.test_player import current, form_fields, open_table, page_moves, table_path

# Every kind of Saboteur 2 path card on one table, joined to the start along row 0.
EXPANSION_BOARD = {
    (1, 0): "door_blue_ew",
    (2, 0): "bridge",
    (2, 1): "crystal_tee_nse",
    (3, 0): "double_curve",
    (3, -1): "ladder_n",
    (2, -1): "door_green_ns",
}
ACTIONS = ["theft", "hands_off", "swap_hand", "inspection", "swap_hats", "free"]
CHECKBOX = re.compile(r'<input type="(checkbox|radio)" name="(\w+)" value="(\d+)"')


@pytest.fixture
def runtime_of(app: Flask) -> Runtime:
    return app_runtime(app)


def expansion_table(**overrides: Any) -> engine.Game:
    """Four seats of Saboteur 2: Ann (seat 0) to play with every new action card in hand but Trapped!; Ben has
    a Theft in front of him, Ann is trapped (so Free at last! has a target) and holds a gold piece."""
    layout: dict[str, Any] = {
        "variant": "saboteur2",
        "board": EXPANSION_BOARD,
        "hands": {0: ACTIONS},
        "front": {0: ["trapped"], 1: ["theft"]},
        "roles": ["blue_digger", "green_digger", "boss", "saboteur"],
        "pieces": {0: 1, 2: 3},
    }
    layout.update(overrides)
    return arrange(4, **layout)


def card_id(state: engine.Game, seat: int, name: str) -> int:
    variant = variant_of(state)
    return next(c for c in state.hands[seat] if variant.cards[c].name == name)


def moves_of(page: str, **fields: Any) -> list[dict[str, Any]]:
    return [move for move in page_moves(page) if all(move.get(k) == v for k, v in fields.items())]


def post(client: FlaskClient, game_id: str, page: str, data: dict[str, Any]) -> Any:
    return client.post(f"{table_path(game_id)}/move", data={**form_fields(page), "confirmed": "yes", **data})


def play_listed(client: FlaskClient, game_id: str, page: str, move: dict[str, Any]) -> str:
    """Post one of the page's own move buttons and return the table it redirects to."""
    assert move in page_moves(page), f"{move} is not offered on the page"
    response = post(client, game_id, page, {"move": json.dumps(move)})
    assert response.status_code == 303, response.get_data(as_text=True)
    return client.get(table_path(game_id)).get_data(as_text=True)


def text_of(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def test_the_page_shows_the_dwarf_card_its_goal_the_gold_pieces_and_who_has_gold(client, runtime_of) -> None:
    game_id = store_game(runtime_of, expansion_table())

    page = text_of(open_table(client, runtime_of, game_id, 0))

    assert "Your dwarf card this round: Blue gold-digger" in " ".join(page.split())
    assert "a green door in the tunnel bars your team" in page
    assert "Your gold: 1 gold piece" in " ".join(page.split())
    # others: whether they have gold, never how much (Cat holds 3)
    assert page.count("has gold") == 2 and "3 gold pieces" not in page
    assert "Theft" in page and "Trapped!" in page


@pytest.mark.parametrize("role, words", [
    ("boss", "Win with whichever team reaches the gold"),
    ("profiteer", "Win with every side"),
    ("geologist", "share the crystals"),
    ("saboteur", "Keep the gold from being reached"),
    ("green_digger", "a blue door in the tunnel bars your team"),
])
def test_each_dwarf_card_has_a_one_line_goal(client, runtime_of, role, words) -> None:
    game_id = store_game(runtime_of, expansion_table(roles=[role, "blue_digger", "green_digger", "green_digger"]))

    page = text_of(open_table(client, runtime_of, game_id, 0))

    assert words in page


def test_the_board_draws_doors_with_letters_ladders_bridges_double_curves_and_crystals(client, runtime_of) -> None:
    game_id = store_game(runtime_of, expansion_table())

    page = open_table(client, runtime_of, game_id, 0)
    board = page[page.index('<svg class="board'):page.index("</svg>", page.index('<svg class="board'))]

    assert 'class="door door-blue"' in board and 'class="door door-green"' in board
    assert ">B</text>" in board and ">G</text>" in board  # told apart without colour
    assert 'class="ladder"' in board
    assert 'class="crystal"' in board
    assert board.count('class="tunnel bridge-over"') == 1  # the bridge's upper tunnel, drawn over the lower
    assert 'class="tunnel curve-apart"' in board  # the double curve's tunnels keep to their corners
    listing = text_of(page)
    assert "two separate tunnels" in listing and "with a blue door" in listing and "1 crystal" in listing
