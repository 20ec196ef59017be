"""The declassified recap: once a round is over (and not a moment before), its private moves are told to the
whole table, each player named with the role they held at that moment."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

import engine
from pbem.errors import RoundNotOver
from pbem.runtime import Runtime
from pbem.words.roles import role_name
from tests.support.games import play, seat_token, store_game
from tests.support.mail import mailbox
from tests.support.tables import TO_THE_GOALS, arrange, card_in_hand
from tests.support.web import app_runtime

Arranged = Any



def recap_lines(runtime: Runtime, game_id: str, round_number: int = 1) -> list[str]:
    story = runtime.chronicle.round_story(game_id, round_number)
    assert story is not None
    return [line for entry in story.recap.entries for line in entry.lines]


def base_round(runtime: Runtime, arranged_game: Arranged) -> tuple[str, engine.Game]:
    """Ann looks at the top goal, Bo (the saboteur) breaks Cy's pick, Cy repairs it, Di passes; Ann then digs
    through to the gold in the middle."""
    state = arrange(4, board=TO_THE_GOALS, gold=(8, 0), turn=0, roles=["digger", "saboteur", "digger", "digger"],
                    hands={0: ["map", "straight_ew"], 1: ["break_pick"], 2: ["repair_pick"], 3: ["dead_n"]})
    game_id = arranged_game(state)
    play(runtime, game_id, 0, {"type": "play", "card": card_in_hand(state, 0, "map"), "x": 8, "y": 2})
    play(runtime, game_id, 1, {"type": "play", "card": card_in_hand(state, 1, "break_pick"), "target": 2})
    play(runtime, game_id, 2, {"type": "play", "card": card_in_hand(state, 2, "repair_pick"), "target": 2,
                               "tool": "pick"})
    play(runtime, game_id, 3, {"type": "pass", "cards": [card_in_hand(state, 3, "dead_n")]})
    return game_id, state


def test_the_recap_is_refused_while_the_round_is_played(runtime: Runtime, arranged_game: Arranged) -> None:
    game_id, _ = base_round(runtime, arranged_game)

    with pytest.raises(RoundNotOver):
        runtime.chronicle.round_story(game_id, 1)


def test_the_recap_tells_maps_discards_breaks_and_repairs_with_each_role(
    runtime: Runtime, arranged_game: Arranged
) -> None:
    game_id, state = base_round(runtime, arranged_game)
    play(runtime, game_id, 0, {"type": "play", "card": card_in_hand(state, 0, "straight_ew"), "x": 7, "y": 0,
                               "rotated": False})  # the gold: the round is over, the gold is being shared out

    assert recap_lines(runtime, game_id) == [
        "Ann (gold-digger) looked at the top goal with a Map: only stone.",
        "Bo (saboteur) broke Cy (gold-digger)'s pick.",
        "Cy (gold-digger) repaired their own pick.",
        "Di (gold-digger) discarded Dead end face down.",
    ]
    story = runtime.chronicle.round_story(game_id, 1)
    assert story is not None
    assert [seat.roles for seat in story.recap.seats] == [["gold-digger"], ["saboteur"], ["gold-digger"],
                                                          ["gold-digger"]]
    assert story.recap.spare_roles == ["gold-digger"]


def test_with_private_moves_off_the_recap_leaves_out_map_results_and_discards(
    runtime: Runtime, arranged_game: Arranged
) -> None:
    """The printed rules never reveal what a map showed or which card went face down; a host may keep it so."""
    state = arrange(4, board=TO_THE_GOALS, gold=(8, 0), turn=0, roles=["digger", "saboteur", "digger", "digger"],
                    hands={0: ["map", "straight_ew"], 1: ["break_pick"], 2: ["repair_pick"], 3: ["dead_n"]},
                    options={"recap_private_moves": False})
    game_id = arranged_game(state)
    play(runtime, game_id, 0, {"type": "play", "card": card_in_hand(state, 0, "map"), "x": 8, "y": 2})
    play(runtime, game_id, 1, {"type": "play", "card": card_in_hand(state, 1, "break_pick"), "target": 2})
    play(runtime, game_id, 2, {"type": "play", "card": card_in_hand(state, 2, "repair_pick"), "target": 2,
                               "tool": "pick"})
    play(runtime, game_id, 3, {"type": "pass", "cards": [card_in_hand(state, 3, "dead_n")]})
    play(runtime, game_id, 0, {"type": "play", "card": card_in_hand(state, 0, "straight_ew"), "x": 7, "y": 0,
                               "rotated": False})

    assert recap_lines(runtime, game_id) == [
        "Bo (saboteur) broke Cy (gold-digger)'s pick.",
        "Cy (gold-digger) repaired their own pick.",
    ]
    story = runtime.chronicle.round_story(game_id, 1)
    assert story is not None and not story.recap.private_moves


def test_the_round_page_and_the_digest_tell_the_same_story(app: Flask, arranged_game: Arranged) -> None:
    runtime = app_runtime(app)
    game_id, state = base_round(runtime, arranged_game)
    client = app.test_client()
    client.get(f"/play/{seat_token(runtime, game_id, 3)}")
    assert client.get(f"/table/{game_id}/rounds/1").status_code == 409
    play(runtime, game_id, 0, {"type": "play", "card": card_in_hand(state, 0, "straight_ew"), "x": 7, "y": 0,
                               "rotated": False})
    while (current := runtime.games.engine_state(game_id)[0]).round == 1:
        seat = engine.to_act(current)
        play(runtime, game_id, seat, {"type": "pick_gold", "value": max(current.offer)})

    page = client.get(f"/table/{game_id}/rounds/1").get_data(as_text=True)
    digest = mailbox(runtime, "round_digest", "di@example.org")[0]

    for line in recap_lines(runtime, game_id):
        assert f"<li>{line.replace(chr(39), '&#39;')}</li>" in page
        assert f"  - {line}" in digest.body_text
    assert "<li><strong>Bo</strong>: saboteur</li>" in page
    assert "Roles: Ann: gold-digger; Bo: saboteur; Cy: gold-digger; Di: gold-digger." in digest.body_text
    assert "Round 1: what really happened" in client.get(f"/table/{game_id}").get_data(as_text=True)


def test_a_round_without_secret_moves_says_so(runtime: Runtime, arranged_game: Arranged) -> None:
    state = arrange(3, board=TO_THE_GOALS, gold=(8, 0), turn=0, hands={0: ["straight_ew"]})
    game_id = arranged_game(state)
    play(runtime, game_id, 0, {"type": "play", "card": card_in_hand(state, 0, "straight_ew"), "x": 7, "y": 0,
                               "rotated": False})

    assert recap_lines(runtime, game_id) == []


def saboteur2_round(runtime: Runtime) -> tuple[str, engine.Game]:
    """Ann inspects Bo; Bo makes Cy swap hats; Cy swaps hands with Di (handing over a Trapped!); Di traps Ed; Ed
    passes. Computer seats, so the round runs without email."""
    state = arrange(5, variant="saboteur2", board=TO_THE_GOALS, gold=(8, 0), turn=0,
                    roles=["blue_digger", "saboteur", "geologist", "boss", "green_digger"],
                    hands={0: ["inspection", "straight_ew"], 1: ["swap_hats"], 2: ["swap_hand", "trapped"],
                           4: ["map"]})
    game_id = store_game(runtime, state, computers=range(5))
    play(runtime, game_id, 0, {"type": "play", "card": card_in_hand(state, 0, "inspection"), "target": 1})
    play(runtime, game_id, 1, {"type": "play", "card": card_in_hand(state, 1, "swap_hats"), "target": 2})
    play(runtime, game_id, 2, {"type": "play", "card": card_in_hand(state, 2, "swap_hand"), "target": 3})
    play(runtime, game_id, 3, {"type": "play", "card": card_in_hand(state, 2, "trapped"), "target": 4})
    play(runtime, game_id, 4, {"type": "pass", "cards": [card_in_hand(state, 4, "map")]})
    return game_id, state


def listed(names: list[str]) -> str:
    """Cards as a line lists them: "A", "A and B", "A, B and C"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def told(line: str) -> str:
    """A line that ends on a card name with "!" ("Trapped!") takes no full stop after it."""
    return line[:-1] if line.endswith("!.") else line


def test_saboteur2_recap_tells_inspections_hat_swaps_and_hand_swaps(runtime: Runtime) -> None:
    game_id, state = saboteur2_round(runtime)
    with pytest.raises(RoundNotOver):
        runtime.chronicle.round_story(game_id, 1)
    leftover = role_name(state.spare_roles[-1])  # Swap Your Hats takes the top leftover card
    labels = engine.get_variant("saboteur2").cards
    swapped = runtime.games.engine_state(game_id)[0]
    play(runtime, game_id, 0, {"type": "play", "card": card_in_hand(state, 0, "straight_ew"), "x": 7, "y": 0,
                               "rotated": False})

    story = runtime.chronicle.round_story(game_id, 1)

    assert story is not None
    assert recap_lines(runtime, game_id) == [
        "Ann (blue gold-digger) inspected Bo (saboteur)'s dwarf card: saboteur.",
        "Bo (saboteur) played Swap Your Hats on Cy (dwarf card given up).",
        f"Cy (dwarf card given up) took a leftover dwarf card: {leftover}.",
        f"Cy ({leftover}) played Swap Your Hand with Di (Boss), who draws a card.",
        told(f"Cy ({leftover}) now holds {listed([labels[c].label for c in state.hands[3]])}."),
        told(f"Di (Boss) now holds {listed([labels[c].label for c in state.hands[2][1:]])}."),
        "Di (Boss) played Trapped! on Ed (green gold-digger).",
        "Ed (green gold-digger) discarded Map face down.",
    ]
    # Rulebook, Swap Your Hats: the old card is discarded "without showing it to anyone"; only Cy held a Geologist
    assert story.recap.roles_of(2) == f"dwarf card given up, then {leftover}"
    assert "Geologist" not in " ".join(recap_lines(runtime, game_id)) and story.recap.spare_roles == []
    assert swapped.roles[2] == state.spare_roles[-1]
