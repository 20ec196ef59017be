"""The one source of chance for the application.

Deals, computer players' choices, timed-out turns and shuffled seatings draw from an injectable
source, as time comes from the clock: the server draws secretly, a test draws from a fixed seed.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Protocol, TypeVar

SEED_BITS = 63
T = TypeVar("T")


class Chance(Protocol):
    def seed(self) -> int:
        """A fresh seed for the engine's own randomness (a deal, a computer player's choice)."""
        ...

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """The items in a random order."""
        ...


class SecretChance:
    """Chance nobody can predict, used everywhere outside tests."""

    def __init__(self) -> None:
        self._random = random.SystemRandom()

    def seed(self) -> int:
        return secrets.randbits(SEED_BITS)

    def shuffled(self, items: Sequence[T]) -> list[T]:
        return self._random.sample(items, len(items))


class SeededChance:
    """Chance that repeats from a given seed, so a test sees the same deal on every run."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def seed(self) -> int:
        return self._random.getrandbits(SEED_BITS)

    def shuffled(self, items: Sequence[T]) -> list[T]:
        return self._random.sample(items, len(items))
