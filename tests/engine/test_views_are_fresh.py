"""A view, and every card in it, belongs to its caller: changing it changes neither the game nor the next view.

Views draw cards from a table of printed cards kept per variant, and copy each finished round's result; these
tests scribble over every dict and list a view holds and check nothing else moved, and that a variant with its
own cards never gets another variant's printed cards.
"""
from __future__ import annotations

import copy
import dataclasses
import json
import marshal
from typing import Any

import pytest

import engine
from engine.state import json_copy
from engine.variants import SABOTEUR2, get_variant
from tests.support.tables import random_game_states


def scribble(value: Any) -> int:
    """Empties every dict and list inside `value`, innermost first; how many it emptied."""
    emptied = 0
    if isinstance(value, dict | list):
        for item in list(value.values() if isinstance(value, dict) else value):
            emptied += scribble(item)
        value.clear()
        emptied += 1
    return emptied


def some_states(variant: str, players: int, seed: int, every: int = 12) -> list[engine.Game]:
    """Every `every`-th state of a random game, and its last (the game over)."""
    states = [g for g, _seat, _move in random_game_states(players, seed, variant=variant)]
    return states[::every] + [states[-1]]


@pytest.mark.parametrize(("variant", "players", "seed"), [("base", 10, 4), ("base", 5, 9), ("saboteur2", 12, 4),
                                                           ("saboteur2", 4, 9)])
def test_scribbling_over_a_view_changes_neither_the_game_nor_the_next_view(variant, players, seed):
    finished_rounds_seen = 0
    for g in some_states(variant, players, seed):
        game_before = json.dumps(g.to_dict())
        for seat in [None, *range(players)]:
            first = engine.view(g, seat)
            expected = copy.deepcopy(first)

            scribble(first)

            assert engine.view(g, seat) == expected
            finished_rounds_seen += sum(1 for result in expected["results"] if result["final_board"]["board"])
        assert json.dumps(g.to_dict()) == game_before
    assert finished_rounds_seen > 0


def test_the_parts_a_caller_may_change_are_scribbled_over_too():
    g = some_states("saboteur2", 6, 2)[-1]
    view = engine.view(g, 1)
    cell = next(c for c in view["results"][0]["final_board"]["board"] if c["kind"] == "path")
    held = [cell, cell["segments"], cell["segments"][0], view["results"][0]["roles"], view["board"][0],
            view["seats"][0], view["you"]]

    scribble(view)

    assert all(part == {} or part == [] for part in held)


def test_a_card_is_printed_afresh_for_each_caller():
    v = get_variant("saboteur2")
    tool_card = next(i for i, card in enumerate(v.cards) if card.tools)
    path_card = next(i for i, card in enumerate(v.cards) if len(card.segments) > 1)
    expected = [copy.deepcopy(engine.card_info(v, c, rotated)) for c in (tool_card, path_card)
                for rotated in (False, True)]

    for c in (tool_card, path_card):
        for rotated in (False, True):
            info = engine.card_info(v, c, rotated)
            info["label"] = "changed"
            for segment in info.get("segments", []):
                segment["edges"] = "X"
            info.get("segments", []).append({})
            info.get("tools", []).append("spoon")

    assert [engine.card_info(v, c, rotated) for c in (tool_card, path_card) for rotated in (False, True)] == expected


def test_each_variant_object_prints_its_own_cards_however_many_there_are():
    """Variants that differ only in their cards (as a host's own deck makes) never share printed cards,
    even past the number of variants kept."""
    cross = next(i for i, card in enumerate(SABOTEUR2.cards) if card.name == "crystal_cross")
    relabelled = []
    for n in range(40):
        cards = list(SABOTEUR2.cards)
        cards[cross] = dataclasses.replace(cards[cross], label=f"Crossing number {n}", crystals=n % 3 + 1)
        relabelled.append(dataclasses.replace(SABOTEUR2, cards=tuple(cards)))

    for _ in range(2):
        for n, v in enumerate(relabelled):
            info = engine.card_info(v, cross, rotated=n % 2 == 1)
            assert (info["label"], info["crystals"]) == (f"Crossing number {n}", n % 3 + 1)
    assert engine.card_info(SABOTEUR2, cross)["label"] == "Crossing with a crystal"


@pytest.mark.parametrize(("variant", "players", "seed"), [("base", 10, 4), ("saboteur2", 6, 2)])
def test_a_game_and_its_json_form_share_nothing_either_way(variant, players, seed):
    """`to_dict` gives the caller its own dicts and lists, and `from_dict` keeps none of the caller's (a finished
    round's result with its final board included)."""
    for g in some_states(variant, players, seed):
        written = json.dumps(g.to_dict())
        given = g.to_dict()
        read = engine.Game.from_dict(given)

        scribble(given)
        scribble(g.to_dict())

        assert json.dumps(g.to_dict()) == written
        assert json.dumps(read.to_dict()) == written
        assert json.loads(written)["results"] or not g.results
        marshal.dumps((g.results, g.options))  # copied in C, not by the slow way


def test_json_copy_copies_what_marshal_cannot_write_the_slow_way():
    class Note(dict):  # a dict subclass: marshal refuses it
        pass

    original = {"note": Note(a=[1, 2]), "cells": [[0, 1, "start", 0]], "done": (True, None, 1.5)}

    copied = json_copy(original)

    assert copied == original and copied is not original
    assert copied["note"] is not original["note"] and copied["note"]["a"] is not original["note"]["a"]
    assert copied["cells"][0] is not original["cells"][0] and copied["done"] == (True, None, 1.5)
