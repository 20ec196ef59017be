"""Chance: a server deals from a secret source, a test from a seed, and the service draws every deal from it."""

from __future__ import annotations

import copy

import engine
from pbem.chance import SEED_BITS, SecretChance, SeededChance
from pbem.runtime import Runtime
from tests.support.games import PEOPLE, NewGame


def test_the_same_seed_gives_the_same_draws() -> None:
    first, second = SeededChance(42), SeededChance(42)

    assert [first.seed() for _ in range(3)] == [second.seed() for _ in range(3)]
    assert first.shuffled(range(10)) == second.shuffled(range(10))


def test_secret_chance_draws_seeds_the_engine_takes_and_shuffles_without_losing_anything() -> None:
    chance = SecretChance()

    seeds = {chance.seed() for _ in range(20)}
    order = chance.shuffled(list(range(10)))

    assert all(0 <= seed < 2**SEED_BITS for seed in seeds) and len(seeds) > 1
    assert sorted(order) == list(range(10))


def test_a_game_is_dealt_from_the_runtimes_chance(runtime: Runtime, new_game: NewGame, chance: SeededChance) -> None:
    upcoming = copy.deepcopy(chance)

    game_id = new_game()

    dealt, _ = runtime.games.engine_state(game_id)
    expected = engine.new_game([person.name for person in PEOPLE], seed=upcoming.seed())
    assert dealt.to_dict() == expected.to_dict()
