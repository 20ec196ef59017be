"""The board as SVG and as text, drawn from a seat's view alone."""

from __future__ import annotations

import random
import re

from flask.testing import FlaskClient

import engine
from pbem.drawing import STYLESHEET
from pbem.drawing.board_svg import board_svg, frame_of
from pbem.drawing.card_art import card_svg
from pbem.web.turn_page import board_listing

NAMES = ["Ann", "Ben", "Cat"]


def played(seed: int, moves: int) -> engine.Game:
    """A position after a number of random moves (the board then has cards, maybe a rockfall gap)."""
    rng = random.Random(seed)
    state = engine.new_game(NAMES, seed=seed)
    for _ in range(moves):
        seat = engine.to_act(state)
        assert seat is not None
        state, _ = engine.apply_move(state, seat, engine.bots.choose(state, seat, rng))
    return state


def test_every_card_on_the_table_is_drawn_at_its_cell_with_its_id() -> None:
    view = engine.view(played(3, 12), 0)

    svg = board_svg(view)

    for card in view["board"]:
        assert f'data-x="{card["x"]}" data-y="{card["y"]}" data-card="{card["id"]}"' in svg
    hidden = re.findall(r'<g class="cell goal hidden[^"]*" data-x="8" data-y="-?\d+"( data-card)?', svg)
    assert len(hidden) == sum(not goal["revealed"] for goal in view["goals"]) and not any(hidden)


def test_the_frame_holds_one_free_cell_around_the_cards_and_every_goal() -> None:
    view = engine.view(engine.new_game(NAMES, seed=1), 0)

    frame = frame_of(view)

    assert (frame.min_x, frame.max_x, frame.min_y, frame.max_y) == (-1, 8, -2, 2)


def test_the_last_card_played_is_marked() -> None:
    state = engine.new_game(NAMES, seed=1)
    build = next(m for m in engine.legal_moves(state, 0) if "rotated" in m)
    state, _ = engine.apply_move(state, 0, build)

    svg = board_svg(engine.view(state, 1))

    assert f'class="cell card last" data-x="{build["x"]}" data-y="{build["y"]}"' in svg
    assert 'class="last-marker"' in svg


def test_a_goal_seen_with_a_map_is_marked_for_that_seat_only() -> None:
    state = engine.new_game(NAMES, seed=1)
    look = next(m for m in engine.legal_moves(state, 0) if m.get("card") == 70 and "x" in m)
    state, _ = engine.apply_move(state, 0, look)
    gold = next(goal["gold"] for goal in engine.view(state, 0)["goals"]
                if (goal["x"], goal["y"]) == (look["x"], look["y"]))

    mine, theirs = board_svg(engine.view(state, 0)), board_svg(engine.view(state, 1))

    assert f'class="peek peek-{"gold" if gold else "stone"}"' in mine
    assert "peek" not in theirs
    assert any("you looked" in line for line in board_listing(engine.view(state, 0)))
    assert not any("you looked" in line for line in board_listing(engine.view(state, 1)))


def test_dead_ends_are_drawn_blocked_by_rock() -> None:
    dead_end = {"kind": "path", "segments": [{"edges": "N", "dead": True}, {"edges": "E", "dead": True}]}

    svg = card_svg(dead_end)

    assert svg.count('class="rock"') == 2 and 'class="hub"' not in svg


def test_saboteur_2_doors_ladders_and_crystals_are_drawn_from_the_segments() -> None:
    card = {"kind": "path", "segments": [{"edges": "EW", "door": "green"}, {"edges": "N", "ladder": True}],
            "crystals": 2}

    svg = card_svg(card)

    assert 'class="door door-green"' in svg and 'class="ladder"' in svg and svg.count('class="crystal"') == 2


def test_the_board_in_words_lists_every_card_and_goal() -> None:
    view = engine.view(played(3, 12), 0)

    lines = board_listing(view)

    assert len(lines) == len(view["board"]) + sum(not goal["revealed"] for goal in view["goals"])
    assert "(0, 0): the start" in lines
    assert sum("the last card played" in line for line in lines) == (1 if view["last_placed"] else 0)


def test_the_pages_link_the_drawings_stylesheet_which_is_served_as_css(client: FlaskClient) -> None:
    page = client.get("/rules").get_data(as_text=True)
    sheet = client.get("/static/drawing/board.css")

    assert '<link rel="stylesheet" href="/static/drawing/board.css">' in page
    assert (sheet.status_code, sheet.mimetype) == (200, "text/css")
    assert sheet.get_data(as_text=True) == STYLESHEET.read_text()
    assert ".card-earth" in sheet.get_data(as_text=True)


def test_only_the_stylesheet_of_the_drawing_is_served(client: FlaskClient) -> None:
    assert client.get("/static/drawing/card_art.py").status_code == 404
