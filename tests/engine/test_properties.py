"""Properties that hold at every step of any game, checked on random games of every variant."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.state import Game
from engine.variants import SABOTEUR2_ROLES, get_variant, variant_of
from tests.support.tables import SEATS, builder_bot, random_game_states, scramble_hidden

VARIANTS = ["base", "saboteur2"]
PLAYERS = {"base": (3, 10), "saboteur2": (2, 12)}
# Saboteur 2 games are driven by a bot that mostly builds, so rounds also end with the gold reached.
BOTS = {"base": None, "saboteur2": builder_bot}
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def a_game(data: st.DataObject, variant: str) -> tuple[int, int]:
    """Players and seed of a random game of this variant."""
    low, high = PLAYERS[variant]
    return data.draw(st.integers(min_value=low, max_value=high)), data.draw(st.integers(min_value=0, max_value=2**64))


def states(variant: str, players: int, seed: int, limit: int | None = None):
    return random_game_states(players, seed, limit=limit, variant=variant, bot=BOTS[variant])


def all_cards(g: Game) -> Counter:
    return Counter(
        [c for c, _ in g.board.values()] + list(g.hidden_goals.values()) + sum(g.hands, []) + g.draw_pile
        + g.discard + sum(g.front, []) + g.removed
    )


@pytest.mark.parametrize("variant", VARIANTS)
@SETTINGS
@given(st.data())
def test_random_games_always_end_after_three_rounds(variant, data):
    players, seed = a_game(data, variant)
    final = list(states(variant, players, seed, limit=5000))[-1][0]

    assert engine.is_over(final) and len(final.results) == 3


@pytest.mark.parametrize("variant", VARIANTS)
@SETTINGS
@given(st.data())
def test_every_card_is_in_exactly_one_place_at_every_step(variant, data):
    players, seed = a_game(data, variant)
    everything = Counter(range(len(get_variant(variant).cards)))
    for g, _seat, _move in states(variant, players, seed):
        assert all_cards(g) == everything


@SETTINGS
@given(st.data())
def test_gold_is_neither_made_nor_lost(data):
    players, seed = a_game(data, "base")
    gold = Counter(get_variant("base").gold_cards)
    for g, _seat, _move in states("base", players, seed):
        assert Counter(g.gold_pile + g.offer + sum(g.gold, [])) == gold


@SETTINGS
@given(st.data())
def test_gold_pieces_are_only_paid_by_the_round_results_and_thefts_only_move_them(data):
    players, seed = a_game(data, "saboteur2")
    for g, _seat, _move in states("saboteur2", players, seed):
        expected = [0] * players
        for result in g.results:
            for payout in result["payouts"]:
                expected[payout["seat"]] += payout["amount"]
            for theft in result["thefts"]:
                if theft["outcome"] == "stole":
                    expected[theft["seat"]] += 1
                    expected[theft["target"]] -= 1
        assert g.gold_pieces == expected and min(g.gold_pieces) >= 0
        assert engine.scores(g) == g.gold_pieces


@SETTINGS
@given(st.data())
def test_the_fifteen_dwarf_cards_are_dealt_left_over_or_discarded_at_every_step(data):
    players, seed = a_game(data, "saboteur2")
    for g, _seat, _move in states("saboteur2", players, seed):
        assert Counter(g.roles + g.spare_roles + g.discarded_roles) == Counter(SABOTEUR2_ROLES)
        assert len(g.roles) == players


@pytest.mark.parametrize("variant", VARIANTS)
@SETTINGS
@given(st.data())
def test_snapshots_round_trip_exactly_through_json_and_replaying_the_moves_gives_them_bit_for_bit(variant, data):
    players, seed = a_game(data, variant)
    played = []
    for g, _seat, move in states(variant, players, seed):
        snapshot = g.to_dict()
        text = json.dumps(snapshot)
        again = Game.from_dict(json.loads(text))
        assert again == g and again.to_dict() == snapshot
        played.append((text, move))
    # the same seed and moves give the same game, bit for bit
    g = engine.new_game(SEATS[:players], seed=seed, variant=variant)
    for text, move in played:
        assert json.dumps(g.to_dict()) == text
        if move is not None:
            g, _ = engine.apply_move(g, engine.to_act(g), move)


@pytest.mark.parametrize("variant", VARIANTS)
def test_apply_move_never_changes_the_game_it_was_given(variant):
    for g, seat, move in states(variant, 6, 5):
        if move is None:
            break
        before = json.dumps(g.to_dict())
        engine.apply_move(g, seat, move)
        assert json.dumps(g.to_dict()) == before


def near_misses(g: Game, move: dict, rnd: random.Random) -> list:
    """Moves close to a listed one: shifted, retargeted, re-typed, or garbled."""
    out: list = []
    for key in ("x", "y", "target", "value", "card", "remove"):
        if key in move:
            for delta in (-1, 1, 7):
                out.append({**move, key: (move[key] if move[key] is not None else 0) + delta})
            out.append({**move, key: str(move[key])})
            out.append({**move, key: True})
            out.append({**move, key: None})
            out.append({k: v for k, v in move.items() if k != key})
    if "rotated" in move:
        out.append({**move, "rotated": not move["rotated"]})
        out.append({**move, "rotated": 1})
    if "tool" in move:
        out += [{**move, "tool": t} for t in ("pick", "lantern", "cart", "wheel", 3)]
    if "cards" in move:
        hand = g.hands[engine.to_act(g)]
        out += [{**move, "cards": [c]} for c in range(-1, len(variant_of(g).cards) + 1)
                if c not in hand or rnd.random() < 0.3]
        out += [{**move, "cards": sorted(hand[:n])} for n in (2, 3, 4)]
        out += [{**move, "cards": move["cards"] * 2}, {**move, "cards": list(reversed(move["cards"]))},
                {**move, "cards": "all"}, {**move, "cards": []}]
    if move["type"] == "play" and "target" not in move and "x" not in move:
        out += [{**move, "target": t} for t in range(g.seats)]
    if move["type"] == "clear":
        out += [{**move, "remove": c} for c in sum(g.front, [])]
        out.append({"type": "pass", "cards": move["cards"], "remove": move["remove"]})
    other_card = rnd.choice(g.hands[engine.to_act(g)] or [0])
    out += [{**move, "card": other_card}, {**move, "extra": 1}, {**move, "type": "build"}, {"type": move["type"]},
            {**move, "type": "clear"}, {**move, "type": "steal"}, {"type": "steal", "target": None},
            {}, None, [], "pass", 42, {"type": None}]
    return out


def refused(g: Game, seat, move) -> bool:
    """Whether `apply_move` refuses this move as illegal (any other error fails the test)."""
    try:
        engine.apply_move(g, seat, move)
    except engine.IllegalMove:
        return True
    return False


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=10, deadline=None)
@given(st.data())
def test_listed_moves_are_accepted_and_nearby_unlisted_ones_are_refused(variant, data):
    players, seed = a_game(data, variant)
    rnd = random.Random(seed)
    for g, seat, move in states(variant, players, seed):
        if move is None:
            break
        listed = engine.legal_moves(g, seat)
        exact = {json.dumps(m, sort_keys=True) for m in listed}  # strict: true is not 1
        assert len(exact) == len(listed), "duplicates listed"
        for m in rnd.sample(listed, min(4, len(listed))):
            engine.apply_move(g, seat, m)
        for candidate in near_misses(g, move, rnd):
            if json.dumps(candidate, sort_keys=True) in exact:
                engine.apply_move(g, seat, candidate)
            else:
                assert refused(g, seat, candidate), candidate
        for other_seat in ((seat + 1) % players, -1, players, "0", None, True):
            assert refused(g, other_seat, move), other_seat


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=12, deadline=None)
@given(st.data())
def test_no_view_changes_when_only_information_hidden_from_it_changes(variant, data):
    players, seed = a_game(data, variant)
    rnd = random.Random(seed)
    for g, _seat, _move in states(variant, players, seed):
        for seat in [None, *range(players)]:
            scrambled = scramble_hidden(g, seat, rnd)
            assert engine.view(scrambled, seat) == engine.view(g, seat)


def test_scrambling_does_change_the_hidden_state_so_the_leak_test_has_teeth():
    g = engine.new_game(SEATS[:5], seed=3)
    rnd = random.Random(1)

    scrambled = scramble_hidden(g, 0, rnd)

    assert scrambled.hands[0] == g.hands[0]
    assert scrambled.hands[1:] != g.hands[1:] and scrambled.draw_pile != g.draw_pile
    assert engine.view(scrambled, 1) != engine.view(g, 1)


def test_scrambling_a_saboteur2_game_changes_its_new_secrets_too():
    g = engine.new_game(SEATS[:5], seed=3, variant="saboteur2")
    g.gold_pieces = [0, 4, 0, 7, 2]
    g.inspections[2] = [(0, g.roles[0])]
    g.discarded_roles = [g.spare_roles.pop()]
    rnd = random.Random(1)

    scrambled = scramble_hidden(g, 0, rnd)

    assert scrambled.roles[0] == g.roles[0] and scrambled.roles[1:] != g.roles[1:]
    assert scrambled.removed != g.removed and scrambled.spare_roles + scrambled.discarded_roles != (
        g.spare_roles + g.discarded_roles)
    assert [bool(p) for p in scrambled.gold_pieces] == [bool(p) for p in g.gold_pieces]
    assert scrambled.gold_pieces != g.gold_pieces
    assert engine.view(scrambled, 1) != engine.view(g, 1)


@pytest.mark.parametrize("variant", VARIANTS)
def test_views_and_events_are_json_safe(variant):
    for g, seat, move in states(variant, 5, 8, limit=400):
        for s in [None, *range(5)]:
            json.dumps(engine.view(g, s))
        if move is not None:
            _, events = engine.apply_move(g, seat, move)
            json.dumps(events)
            for e in events:
                assert e["audience"] == "public" or (isinstance(e["audience"], list) and e["audience"])


@pytest.mark.parametrize("variant", VARIANTS)
def test_private_card_facts_never_travel_in_public_events(variant):
    hidden_fields = {"cards", "role", "values", "value", "gold"}
    for g, seat, move in states(variant, 5, 13):
        if move is None:
            break
        _, events = engine.apply_move(g, seat, move)
        for e in events:
            if e["audience"] == "public" and e["type"] not in ("round_ended", "goal_revealed", "game_over"):
                assert not hidden_fields & set(e), e
