"""The rules refuse with a code; every code the engine can raise has its sentence, with the params it is given."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import engine
from pbem.words.refusals import MOVES, SETUPS, refusal

ENGINE = Path(engine.__file__).parent
ERRORS = {"IllegalMove", "InvalidSetup", "NotYourTurn"}


def raised_codes() -> set[str]:
    """Every code written as the first argument of an engine error, anywhere in engine/."""
    codes = set()
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) in ERRORS and node.args
                    and isinstance(node.args[0], ast.Constant)):
                codes.add(node.args[0].value)
    return codes


def test_every_code_the_engine_raises_has_words() -> None:
    codes = raised_codes()

    assert len(codes) > 60
    assert codes <= set(MOVES) | set(SETUPS)


def test_a_refusal_is_data_and_its_words_are_the_applications() -> None:
    state = engine.new_game(["Ann", "Bo", "Cy"], seed=1)

    with pytest.raises(engine.NotYourTurn) as refused:
        engine.apply_move(state, 1, {"type": "pass", "cards": [0]})

    assert (refused.value.code, refused.value.params) == ("not_your_turn", {"seat": 0, "player": "Ann"})
    assert refusal(refused.value) == "It is not your turn: Ann is to play"


def test_a_host_decks_refusal_names_the_entry() -> None:
    deck = {"paths": [{"name": "bend", "label": "Bend", "count": 0, "segments": [{"edges": "NE"}]}],
            "actions": [{"name": "oops", "label": "Oops", "count": 1, "effect": "map"}]}

    with pytest.raises(engine.InvalidSetup) as refused:
        engine.new_game(["Ann", "Bo", "Cy"], seed=1, variant="saboteur2", options={"deck": deck})

    assert refused.value.params == {"section": "paths", "entry": 1, "name": "bend", "most": 20}
    assert refusal(refused.value) == "Deck paths entry 1 (bend): 'count' must be a whole number from 1 to 20"
