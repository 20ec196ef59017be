"""A small seeded generator whose whole state is one 64-bit integer.

The game keeps this integer inside its snapshot, so replaying the same seed and moves gives the
same game bit for bit on any Python, and the snapshot stays tiny (Python's Mersenne Twister
state would be 2.5 KB). SplitMix64 is plenty for shuffling cards.
"""
from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15

T = TypeVar("T")


def seed_state(seed: int) -> int:
    """Any integer (negative, huge) becomes a 64-bit starting state."""
    state = 0
    remaining = abs(int(seed))
    while True:
        state = _mix((state ^ (remaining & MASK64)) + GOLDEN)
        remaining >>= 64
        if not remaining:
            break
    return _mix(state ^ (GOLDEN if seed < 0 else 0))


def _mix(z: int) -> int:
    z &= MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


class Rng:
    """Draws from the state and hands the advanced state back through `.state`."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & MASK64

    def next64(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        return _mix(self.state)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        threshold = (1 << 64) % n
        while True:
            r = self.next64()
            if r >= threshold:
                return r % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
