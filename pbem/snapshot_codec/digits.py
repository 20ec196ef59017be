"""Mixed-radix digits: many small numbers written as one integer, and read back; varints."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.snapshot_codec.tags import SHORT, WIDE, CorruptPayload, Unfit


class Digits:
    """Digits written one by one, each below its own radix, folded into one integer (the first is the lowest).

    `tight` (format 3): a count is written in as many bits as it needs (`count`); else below WIDE (format 1)."""

    def __init__(self, *, tight: bool = False) -> None:
        self.digits: list[int] = []
        self.radices: list[int] = []
        self.tight = tight

    def count(self, value: int) -> None:
        """A non-negative integer below 2**64: in format 3 its bit length, then its bits below the top one."""
        if not self.tight:
            self.put(value, WIDE)
            return
        if type(value) is not int or not 0 <= value < 1 << 64:
            raise Unfit(f"{value!r} is not a count")
        length = value.bit_length()
        self.put(min(length, SHORT), SHORT + 1)
        if length >= SHORT:
            self.put(length - SHORT, 65 - SHORT)
        if length > 1:
            self.put(value - (1 << (length - 1)), 1 << (length - 1))

    def put(self, value: int, radix: int) -> None:
        if type(value) is not int or not 0 <= value < radix:
            raise Unfit(f"{value!r} is not below {radix}")
        self.digits.append(value)
        self.radices.append(radix)

    def extend(self, part: tuple[Sequence[int], Sequence[int]]) -> None:
        """Digits another `Digits` of the same tightness wrote, given as (its digits, their radices)."""
        values, radices = part
        self.digits.extend(values)
        self.radices.extend(radices)

    def to_bytes(self) -> bytes:
        number = 0
        for value, radix in zip(reversed(self.digits), reversed(self.radices), strict=True):
            number = number * radix + value
        return number.to_bytes((number.bit_length() + 7) // 8, "little")


class Reader:
    """Digits read back in the order they were written."""

    def __init__(self, data: bytes, *, tight: bool = False) -> None:
        self.number = int.from_bytes(data, "little")
        self.tight = tight

    def get(self, radix: int) -> int:
        self.number, value = divmod(self.number, radix)
        return value

    def done(self) -> None:
        """Every digit has been read (a payload longer than what it says is corrupt)."""
        if self.number:
            raise CorruptPayload("digits left over")

    def count(self) -> int:
        if not self.tight:
            return self.get(WIDE)
        length = self.get(SHORT + 1)
        if length == SHORT:
            length += self.get(65 - SHORT)
        if length <= 1:
            return length
        return (1 << (length - 1)) + self.get(1 << (length - 1))

    def many(self, count: int, radix: int) -> list[int]:
        """`count` digits of one radix, read as one."""
        if count == 0 or radix == 1:
            return [0] * count
        self.number, chunk = divmod(self.number, radix**count)
        values = []
        for _ in range(count):
            chunk, value = divmod(chunk, radix)
            values.append(value)
        return values


def put_many(digits: Digits, values: Sequence[int], radix: int) -> None:
    """`values` as one digit of radix `radix ** len(values)` (read by `Reader.many`)."""
    for value in values:
        if type(value) is not int or not 0 <= value < radix:
            raise Unfit(f"{value!r} is not below {radix}")
    if not values or radix == 1:
        return
    number = 0
    for value in reversed(values):
        number = number * radix + value
    digits.put(number, radix ** len(values))


def ints(value: Any) -> list[int]:
    if type(value) is not list or any(type(item) is not int for item in value):
        raise Unfit("not a list of integers")
    return value


def put_small(digits: Digits, values: Sequence[int]) -> None:
    """A list of small non-negative integers: its length, its largest value, then each value below it."""
    digits.count(len(values))
    if values or not digits.tight:
        put_lists(digits, [values], counted=False)


def get_small(reader: Reader) -> list[int]:
    count = reader.count()
    if not count and reader.tight:
        return []
    return get_lists(reader, [count])[0]


def put_lengths(digits: Digits, lengths: Sequence[int]) -> None:
    """A known number of lengths: the longest, then each below it."""
    longest = max(lengths, default=0)
    digits.count(longest)
    put_many(digits, lengths, longest + 1)


def put_lists(digits: Digits, lists: Sequence[Sequence[int]], *, counted: bool = True) -> None:
    """Several lists of small integers: (their lengths,) the largest value, the values."""
    if counted:
        put_lengths(digits, [len(values) for values in lists])
    flat = [value for values in lists for value in values]
    top = max(flat, default=0)
    digits.count(top)
    put_many(digits, flat, top + 1)


def get_lengths(reader: Reader, count: int) -> list[int]:
    longest = reader.count()
    return reader.many(count, longest + 1)


def get_lists(reader: Reader, lengths: Sequence[int]) -> list[list[int]]:
    top = reader.count()
    flat = reader.many(sum(lengths), top + 1)
    out, start = [], 0
    for length in lengths:
        out.append(flat[start:start + length])
        start += length
    return out


def varint(value: int) -> bytes:
    out = bytearray()
    while True:
        low = value & 0x7F
        value >>= 7
        if value:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def read_varint(data: bytes, start: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if start >= len(data):
            raise CorruptPayload("a payload cut short")
        byte = data[start]
        start += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, start
