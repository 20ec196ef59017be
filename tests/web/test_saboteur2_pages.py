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
from flask.testing import FlaskClient

from pbem.runtime import Runtime
from tests.support.games import store_game
from tests.support.tables import card_id, expansion_table, rulebook_example
from tests.support.web import current, form_fields, open_table, page_moves, table_path

CHECKBOX = re.compile(r'<input type="(checkbox|radio)" name="(\w+)" value="(\d+)"')


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
    # others: whether they have gold, never how much (Cy holds 3)
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


# -- one form post per new kind of move ---------------------------------------------------------------------


def test_a_door_card_is_built_from_the_page_and_drawn_with_its_letter(client, runtime_of) -> None:
    state = expansion_table(board={}, hands={0: ["door_green_ew"]}, front={})
    game_id = store_game(runtime_of, state)
    door = card_id(state, 0, "door_green_ew")
    page = open_table(client, runtime_of, game_id, 0)

    after = play_listed(client, game_id, page, {"type": "play", "card": door, "x": 1, "y": 0, "rotated": False})

    assert current(runtime_of, game_id).board[(1, 0)] == (door, False)
    assert "You built a Green door at (1, 0)" in text_of(after)
    assert 'class="door door-green"' in after and ">G</text>" in after


@pytest.mark.parametrize("effect, target, words", [
    ("hands_off", 1, "Hands Off: remove Bo's Theft"),
    ("swap_hand", 1, "Swap hands with Bo (they then draw a card)"),
    ("inspection", 2, "Look at Cy's dwarf card"),
    ("swap_hats", 0, "Swap your own dwarf card for a leftover one"),
    ("free", 0, "Free yourself: remove your Trapped!"),
])
def test_each_action_on_a_player_is_offered_in_words_and_played_by_a_form_post(
    client, runtime_of, effect, target, words
) -> None:
    state = expansion_table()
    game_id = store_game(runtime_of, state)
    card = card_id(state, 0, effect)
    page = open_table(client, runtime_of, game_id, 0)
    move = {"type": "play", "card": card, "target": target}

    assert words in text_of(page)
    play_listed(client, game_id, page, move)

    after = current(runtime_of, game_id)
    assert card not in after.hands[0] and after.turn == 1


def test_a_theft_is_laid_in_front_of_its_player(client, runtime_of) -> None:
    state = expansion_table()
    game_id = store_game(runtime_of, state)
    theft = card_id(state, 0, "theft")
    page = open_table(client, runtime_of, game_id, 0)

    after = play_listed(client, game_id, page, {"type": "play", "card": theft})

    assert theft in current(runtime_of, game_id).front[0]
    ann = after[after.index('data-seat="0"'):after.index('data-seat="1"')]
    assert f'data-front-card="{theft}"' in ann and "Theft" in ann


def test_trapped_is_played_on_another_player_who_is_then_marked_trapped(client, runtime_of) -> None:
    state = expansion_table(hands={0: ["trapped"]}, front={})
    game_id = store_game(runtime_of, state)
    page = open_table(client, runtime_of, game_id, 0)
    trap = card_id(state, 0, "trapped")

    assert "Trap Bo: no path cards, no share of the gold" in text_of(page)
    after = play_listed(client, game_id, page, {"type": "play", "card": trap, "target": 1})

    ben = after[after.index('data-seat="1"'):after.index('data-seat="2"')]
    assert "trapped" in ben and f'data-front-card="{trap}"' in ben


def test_an_inspection_shows_the_dwarf_card_to_the_inspector_alone(client, runtime_of) -> None:
    state = expansion_table()
    game_id = store_game(runtime_of, state)
    page = open_table(client, runtime_of, game_id, 0)

    after = play_listed(client, game_id, page, {"type": "play", "card": card_id(state, 0, "inspection"), "target": 2})

    assert "What your Inspections showed" in after and "Cy: Boss" in text_of(after)
    ben = text_of(open_table(client, runtime_of, game_id, 1))
    assert "Cy: Boss" not in ben
    assert "Boss" not in ben
    assert "Ann played Inspection on Cy, looked at their dwarf card" in ben


def test_swap_your_hand_gives_the_page_the_other_hand(client, runtime_of) -> None:
    state = expansion_table()
    game_id = store_game(runtime_of, state)
    bens_hand = list(state.hands[1])
    page = open_table(client, runtime_of, game_id, 0)

    after = play_listed(client, game_id, page, {"type": "play", "card": card_id(state, 0, "swap_hand"), "target": 1})

    hand = [int(card) for card in re.findall(r'<li class="hand-card[^"]*" data-card="(\d+)"', after)]
    assert sorted(hand) == sorted(bens_hand)


def test_a_pass_of_three_cards_is_ticked_in_a_small_form(client, runtime_of) -> None:
    state = expansion_table()
    game_id = store_game(runtime_of, state)
    page = open_table(client, runtime_of, game_id, 0)
    ticks = [int(value) for kind, name, value in CHECKBOX.findall(page) if name == "pass_cards"]
    chosen = sorted(ticks)[:3]

    assert "Pass: discard 1 to 3 cards, face down" in page and sorted(ticks) == sorted(state.hands[0])
    confirm = post(client, game_id, page, {"compose": "pass", "pass_cards": chosen, "confirmed": ""})
    assert confirm.status_code == 200 and "Pass: discard your" in confirm.get_data(as_text=True)
    response = post(client, game_id, page, {"compose": "pass", "pass_cards": chosen})

    assert response.status_code == 303
    after = current(runtime_of, game_id)
    assert not set(chosen) & set(after.hands[0]) and len(after.hands[0]) == 6


def test_two_discards_remove_a_card_lying_in_front_of_you(client, runtime_of) -> None:
    state = expansion_table()
    game_id = store_game(runtime_of, state)
    trapped = state.front[0][0]
    page = open_table(client, runtime_of, game_id, 0)
    removable = [int(value) for kind, name, value in CHECKBOX.findall(page) if name == "clear_remove"]
    two = sorted(state.hands[0])[:2]

    assert removable == [trapped]
    response = post(client, game_id, page, {"compose": "clear", "clear_cards": two, "clear_remove": str(trapped)})

    assert response.status_code == 303
    after = current(runtime_of, game_id)
    assert after.front[0] == [] and not set(two) & set(after.hands[0])
    assert "You discarded 2 cards to remove the Trapped! lying in front of you" in text_of(
        client.get(table_path(game_id)).get_data(as_text=True)
    )


def test_a_pass_without_a_ticked_card_is_refused_and_changes_nothing(client, runtime_of) -> None:
    game_id = store_game(runtime_of, expansion_table())
    page = open_table(client, runtime_of, game_id, 0)

    response = post(client, game_id, page, {"compose": "pass"})

    assert response.status_code == 400 and "Tick the cards you want to discard" in response.get_data(as_text=True)
    assert current(runtime_of, game_id).turn == 0


# -- the rulebook's example: payouts, a steal decision, the digest ------------------------------------------


def reach_the_gold(client: FlaskClient, runtime: Runtime, game_id: str) -> None:
    state = current(runtime, game_id)
    page = open_table(client, runtime, game_id, 1)
    straight = card_id(state, 1, "straight_ew")
    play_listed(client, game_id, page, {"type": "play", "card": straight, "x": 7, "y": 0, "rotated": False})


def test_the_steal_decision_lights_up_who_has_gold_and_lets_the_theft_go(client, runtime_of) -> None:
    game_id = store_game(runtime_of, rulebook_example())
    reach_the_gold(client, runtime_of, game_id)

    page = open_table(client, runtime_of, game_id, 5)

    assert "Your Theft: steal 1 gold piece, or let it go." in page
    assert {m["target"] for m in moves_of(page, type="steal")} == {0, 3, 4, None}
    assert 'data-seat-target="0"' in page and "Let the Theft go: steal nothing" in page
    play_listed(client, game_id, page, {"type": "steal", "target": None})
    assert current(runtime_of, game_id).gold_pieces == [3, 0, 0, 2, 1, 0, 0]


def test_a_steal_takes_a_gold_piece_from_the_chosen_player(client, runtime_of) -> None:
    game_id = store_game(runtime_of, rulebook_example())
    reach_the_gold(client, runtime_of, game_id)
    page = open_table(client, runtime_of, game_id, 5)

    after = play_listed(client, game_id, page, {"type": "steal", "target": 0})

    assert current(runtime_of, game_id).gold_pieces == [2, 0, 0, 2, 1, 1, 0]
    assert "You stole a gold piece from Ann." in text_of(after)
