"""Properties that hold at every step of any game, checked on random games."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.state import GOLD_PICK, Game
from engine.variants import get_variant

from .tables import NAMES, random_game_states

games = st.tuples(st.integers(min_value=3, max_value=10), st.integers(min_value=0, max_value=2**64))
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def all_cards(g: Game) -> Counter:
    return Counter(
        [c for c, _ in g.board.values()] + list(g.hidden_goals.values()) + sum(g.hands, []) + g.draw_pile
        + g.discard + sum(g.front, [])
    )


@SETTINGS
@given(games)
def test_random_games_always_end_after_three_rounds(game):
    players, seed = game
    states = list(random_game_states(players, seed, limit=5000))

    final = states[-1][0]
    assert engine.is_over(final) and len(final.results) == 3


@SETTINGS
@given(games)
def test_every_card_is_in_exactly_one_place_at_every_step(game):
    players, seed = game
    everything = Counter(range(len(get_variant("base").cards)))
    for g, _seat, _move in random_game_states(players, seed):
        assert all_cards(g) == everything


@SETTINGS
@given(games)
def test_gold_is_neither_made_nor_lost(game):
    players, seed = game
    gold = Counter(get_variant("base").gold_cards)
    for g, _seat, _move in random_game_states(players, seed):
        assert Counter(g.gold_pile + g.offer + sum(g.gold, [])) == gold


@SETTINGS
@given(games)
def test_snapshots_round_trip_exactly_through_json(game):
    players, seed = game
    for g, _seat, _move in random_game_states(players, seed):
        data = json.loads(json.dumps(g.to_dict()))
        again = Game.from_dict(data)
        assert again == g and again.to_dict() == g.to_dict()


@SETTINGS
@given(games)
def test_the_same_seed_and_moves_give_the_same_game_bit_for_bit(game):
    players, seed = game
    first = [(json.dumps(g.to_dict()), move) for g, _s, move in random_game_states(players, seed)]
    g = engine.new_game(NAMES[:players], seed=seed)
    for snapshot, move in first:
        assert json.dumps(g.to_dict()) == snapshot
        if move is not None:
            g, _ = engine.apply_move(g, engine.to_act(g), move)


def test_apply_move_never_changes_the_game_it_was_given():
    for g, seat, move in random_game_states(6, 5):
        if move is None:
            break
        before = json.dumps(g.to_dict())
        engine.apply_move(g, seat, move)
        assert json.dumps(g.to_dict()) == before


def near_misses(g: Game, move: dict, rnd: random.Random) -> list:
    """Moves close to a listed one: shifted, retargeted, re-typed, or garbled."""
    out: list = []
    for key in ("x", "y", "target", "value", "card"):
        if key in move:
            for delta in (-1, 1, 7):
                out.append({**move, key: move[key] + delta})
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
        out += [{**move, "cards": [c]} for c in range(-1, len(get_variant("base").cards) + 1)
                if c not in hand or rnd.random() < 0.3]
        out += [{**move, "cards": sorted(hand[:2])}, {**move, "cards": move["cards"] * 2},
                {**move, "cards": "all"}, {**move, "cards": []}]
    other_card = rnd.choice(g.hands[engine.to_act(g)] or [0])
    out += [{**move, "card": other_card}, {**move, "extra": 1}, {**move, "type": "build"}, {"type": move["type"]},
            {}, None, [], "pass", 42, {"type": None}]
    return out


@settings(max_examples=10, deadline=None)
@given(games)
def test_listed_moves_are_accepted_and_nearby_unlisted_ones_are_refused(game):
    players, seed = game
    rnd = random.Random(seed)
    for g, seat, move in random_game_states(players, seed):
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
                with pytest.raises(engine.IllegalMove):
                    engine.apply_move(g, seat, candidate)
        other = (seat + 1) % players
        with pytest.raises(engine.IllegalMove):
            engine.apply_move(g, other, move)
        for bad_seat in (-1, players, "0", None, True):
            with pytest.raises(engine.IllegalMove):
                engine.apply_move(g, bad_seat, move)


def scramble_hidden(g: Game, seat: int | None, rnd: random.Random) -> Game:
    """Another game that differs from `g` only in what `seat` cannot know."""
    s = g.clone()
    over = g.phase == "over"
    others = [t for t in range(g.seats) if t != seat]
    # hands of others, the draw pile and the discard pile are one pool of unseen cards
    pool = sum((s.hands[t] for t in others), []) + s.draw_pile + s.discard
    rnd.shuffle(pool)
    for t in others:
        s.hands[t], pool = pool[: len(s.hands[t])], pool[len(s.hands[t]):]
    s.draw_pile, s.discard = pool[: len(s.draw_pile)], pool[len(s.draw_pile):]
    # roles of others this round, before the round has ended
    if g.phase == "play":
        roles = [s.roles[t] for t in others] + s.spare_roles
        rnd.shuffle(roles)
        for t in others:
            s.roles[t] = roles.pop()
        s.spare_roles = roles
    # goals this seat has not looked at
    if not over:
        unseen = [c for c in s.hidden_goals if seat is None or c not in s.peeks[seat]]
        ids = [s.hidden_goals[c] for c in unseen]
        rnd.shuffle(ids)
        s.hidden_goals.update(zip(unseen, ids))
        # other seats' gold values (counts stay), and an offer this seat is not choosing from
        picking = g.phase == GOLD_PICK and g.turn == seat
        values = sum((s.gold[t] for t in others), []) + s.gold_pile + ([] if picking else s.offer)
        rnd.shuffle(values)
        for t in others:
            s.gold[t], values = values[: len(s.gold[t])], values[len(s.gold[t]):]
        if not picking:
            s.offer, values = values[: len(s.offer)], values[len(s.offer):]
        s.gold_pile = values
    s.rng = rnd.getrandbits(64)
    s.seed = rnd.getrandbits(32)
    s.reach = None
    return s


@settings(max_examples=12, deadline=None)
@given(games)
def test_no_view_changes_when_only_information_hidden_from_it_changes(game):
    players, seed = game
    rnd = random.Random(seed)
    for g, _seat, _move in random_game_states(players, seed):
        for seat in [None, *range(players)]:
            scrambled = scramble_hidden(g, seat, rnd)
            assert engine.view(scrambled, seat) == engine.view(g, seat)


def test_scrambling_does_change_the_hidden_state_so_the_leak_test_has_teeth():
    g = engine.new_game(NAMES[:5], seed=3)
    rnd = random.Random(1)

    scrambled = scramble_hidden(g, 0, rnd)

    assert scrambled.hands[0] == g.hands[0]
    assert scrambled.hands[1:] != g.hands[1:] and scrambled.draw_pile != g.draw_pile
    assert engine.view(scrambled, 1) != engine.view(g, 1)


def test_views_and_events_are_json_safe():
    for g, seat, move in random_game_states(5, 8, limit=120):
        for s in [None, *range(5)]:
            json.dumps(engine.view(g, s))
        if move is not None:
            _, events = engine.apply_move(g, seat, move)
            json.dumps(events)
            for e in events:
                assert e["audience"] == "public" or (isinstance(e["audience"], list) and e["audience"])


def test_private_card_facts_never_travel_in_public_events():
    hidden_fields = {"cards", "role", "values", "value", "gold"}
    for g, seat, move in random_game_states(5, 13):
        if move is None:
            break
        _, events = engine.apply_move(g, seat, move)
        for e in events:
            if e["audience"] == "public" and e["type"] not in ("round_ended", "goal_revealed", "game_over"):
                assert not hidden_fields & set(e), e
