"""How a snapshot's state, move and events are stored: the one home of their encoding.

Each column holds a payload of its own that decodes alone (no payload refers to another row). Its first byte
names the format and the preset dictionary or vocabulary it was written with; a dictionary or vocabulary, once
released, never changes, so an old payload always decodes (new formats take new tag bytes).

Tag 8, a whole engine state (`engine.Game.to_dict()` of schema 2), written now: one mixed-radix integer and
nothing else. The facts that are numbers from small ranges (where each card lies, each card as its rank among
the cards not yet written, the boards' cells, roles, nuggets, the generator and the seed) take as many bits as
they need; the players' names are spelled (a capital first); options and round results' details are typed values
(below). A state of another shape is stored as tag 3, failing that as tag 2, so whatever JSON document the engine
gives is kept exactly.

Tag 9, a move or an event list as a typed value of vocabulary 4: each value its type, then its number, its word
or its parts; a word, and a dict's list of keys, by its place in the vocabulary if it is there (else spelled); a
value a template's key usually holds as one bit; a dict whose other values are of the kinds the vocabulary
expects for their keys, and a list of items of one kind, without their types. Values it cannot hold (floats) are
stored as tag 2.

Written until now, still read: tags 6 and 7 (tags 8 and 9 with vocabulary 3: no usual values, names spelled
in one alphabet), tags 5 and 4 (vocabulary 2: every type written, names looked up first); tag 3 (the card facts as
in tag 8, the rest compact JSON deflated with the state dictionary 1) and tag 1, the first release (tag 3 with
every count below WIDE).

Tag 2, compact JSON deflated with dictionary 1 of its column (state, move or events).

The dictionaries and vocabularies live in `pbem/snapshot_dictionaries/<version>/` and are built from bot games by
`bench/train_snapshot_dictionary.py`.
"""

from __future__ import annotations

import json
import zlib
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from math import perm
from pathlib import Path
from typing import Any

PACKED_STATE_V1 = 1
JSON_V1 = 2
PACKED_STATE = 3
TYPED_JSON_V1 = 4
WHOLE_STATE_V1 = 5
WHOLE_STATE_V2 = 6
TYPED_JSON_V2 = 7
WHOLE_STATE = 8  # what a state of the engine's shape is written as
TYPED_JSON = 9  # what a move or an event list is written as
WHOLE_STATES = (WHOLE_STATE, WHOLE_STATE_V2, WHOLE_STATE_V1)
TYPED_JSONS = (TYPED_JSON, TYPED_JSON_V2, TYPED_JSON_V1)
# The vocabulary each format of typed values names its words by.
VOCABULARIES = {TYPED_JSON_V1: 2, WHOLE_STATE_V1: 2, TYPED_JSON_V2: 3, WHOLE_STATE_V2: 3, TYPED_JSON: 4,
                WHOLE_STATE: 4}
DICTIONARY_VERSION = 1
KINDS = ("state", "move", "events")
DICTIONARIES = Path(__file__).with_name("snapshot_dictionaries")

STATE_SCHEMA = 2
STATE_KEYS = (
    "schema", "variant", "players", "options", "seed", "rng", "round", "phase", "turn", "board", "hidden_goals",
    "roles", "spare_roles", "hands", "draw_pile", "discard", "front", "peeks", "gold_pile", "gold", "offer",
    "last_actor", "last_placed", "results", "removed", "gold_pieces", "discarded_roles", "inspections",
    "theft_order", "stealers", "last_builder",
)
# Part of format 1: a role is written as its place in this tuple.
ROLES = ("digger", "saboteur", "blue_digger", "green_digger", "boss", "profiteer", "geologist")
ROLE_INDEX = {role: index for index, role in enumerate(ROLES)}
# A round result's keys whose values go into the integer (their places stay in the JSON, holding 0).
RESULT_PACKED = ("roles", "spare_roles", "board")
WIDE = 1 << 16  # bound of counts and of the largest card id (format 1)
SHORT = 8  # format 3: bit lengths below SHORT take one digit, longer ones two
SPAN = 128  # board coordinates lie in [-SPAN/2, SPAN/2), a board at most SPAN cells wide and high


class Unfit(ValueError):
    """The value is not of the shape format 1 packs (it is stored as JSON instead)."""


class CorruptPayload(ValueError):
    """A stored payload that no format reads."""


# ---- dictionaries -------------------------------------------------------------------------------------------

@cache
def dictionary(version: int, kind: str) -> bytes:
    """The preset dictionary `kind` of `version` (package data, never changed once released)."""
    return (DICTIONARIES / str(version) / f"{kind}.zdict").read_bytes()


@cache
def _compressor(version: int, kind: str) -> Any:
    """A raw-deflate compressor primed with the dictionary, copied for each payload (priming costs more)."""
    return zlib.compressobj(9, zlib.DEFLATED, -15, 8, zlib.Z_DEFAULT_STRATEGY, zdict=dictionary(version, kind))


def deflate(data: bytes, kind: str, version: int = DICTIONARY_VERSION) -> bytes:
    compressor = _compressor(version, kind).copy()
    return compressor.compress(data) + compressor.flush()


def inflate(data: bytes, kind: str, version: int = DICTIONARY_VERSION) -> bytes:
    inflater = zlib.decompressobj(-15, zdict=dictionary(version, kind))
    try:
        out = inflater.decompress(data) + inflater.flush()
    except zlib.error as error:
        raise CorruptPayload(f"the {kind} payload is not deflate: {error}") from error
    if not inflater.eof or inflater.unused_data:
        raise CorruptPayload(f"the {kind} payload does not end where its deflate stream does")
    return out


def _compact(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


# ---- the columns ---------------------------------------------------------------------------------------------

def encode(kind: str, value: Any) -> bytes:
    """The payload stored for `value` in column `kind` ("state", "move" or "events")."""
    forms = (WHOLE_STATE, PACKED_STATE) if kind == "state" else (TYPED_JSON,)
    for form in forms:
        try:
            if form == TYPED_JSON:
                return bytes((form,)) + pack_value(value, form)
            return bytes((form,)) + pack_state(value, form)
        except Unfit:
            pass
    return bytes((JSON_V1,)) + deflate(_compact(value), kind)


def decode(kind: str, payload: bytes | memoryview) -> Any:
    """The value `encode(kind, value)` was given, from its payload."""
    data = bytes(payload)
    if not data:
        raise CorruptPayload(f"an empty {kind} payload")
    tag = data[0]
    if tag == JSON_V1:
        return json.loads(inflate(data[1:], kind))
    try:
        if tag in (*WHOLE_STATES, PACKED_STATE, PACKED_STATE_V1) and kind == "state":
            return unpack_state(data[1:], tag)
        if tag in TYPED_JSONS and kind != "state":
            return unpack_value(data[1:], tag)
    except (IndexError, KeyError, ValueError, ZeroDivisionError, OverflowError) as error:
        if isinstance(error, CorruptPayload):
            raise
        raise CorruptPayload(f"the {kind} payload does not read: {error!r}") from error
    raise CorruptPayload(f"unknown {kind} payload tag {tag}")


# ---- typed values (formats 4 and 7) -------------------------------------------------------------------------------

NULL, FALSE, TRUE, INT, STR, LIST, DICT = range(7)
TYPES = 7
# What vocabulary 3 expects a template's values to be (a true or a false is a BOOL; the other kinds are types).
BOOL = TRUE
VALUE_KINDS = 7
MOST_ITEMS = 1 << 12  # values in one typed payload at most (a list of nulls at its end costs no bits)
DEEPEST = 32


@dataclass(frozen=True)
class Vocabulary:
    """Words (keys and strings) and templates (a dict's keys in order) a typed value names by their place."""

    words: tuple[str, ...]
    templates: tuple[tuple[str, ...], ...]
    # From vocabulary 3: the kind each template's values are expected to be; a list says whether its items are of
    # one kind; a value of the kind expected is written without its type.
    kinds: tuple[tuple[int, ...], ...] = ()
    # From vocabulary 4: for each template, the value each key usually holds (or NO_USUAL); a value that is its
    # key's usual one is written as one bit.
    usual: tuple[tuple[Any, ...], ...] = ()

    @property
    def typed(self) -> bool:
        return bool(self.kinds)

    @cached_property
    def word_places(self) -> dict[str, int]:
        return {word: place for place, word in enumerate(self.words)}

    @cached_property
    def template_places(self) -> dict[tuple[str, ...], int]:
        return {keys: place for place, keys in enumerate(self.templates)}


NO_WORDS = Vocabulary((), ())
NO_USUAL = object()


def _usual(stored: Any) -> Any:
    """A usual value as vocabulary.json holds it: [] for none, [value] for one."""
    return stored[0] if stored else NO_USUAL


def _fresh(usual: Any) -> Any:
    """A usual value to hand out: an empty list or dict of its own (the vocabulary's stays empty)."""
    return type(usual)() if isinstance(usual, list | dict) else usual


def _is_usual(value: Any, usual: Any) -> bool:
    """`value` is `usual` exactly (a usual value is a scalar or an empty list or dict: True is not 1)."""
    return usual is not NO_USUAL and type(value) is type(usual) and value == usual


@cache
def vocabulary(version: int) -> Vocabulary:
    """The frozen vocabulary `version` (package data, never changed once released)."""
    data = json.loads((DICTIONARIES / str(version) / "vocabulary.json").read_text("utf-8"))
    return Vocabulary(tuple(data["words"]), tuple(tuple(keys) for keys in data["templates"]),
                      tuple(tuple(kinds) for kinds in data.get("kinds", ())),
                      tuple(tuple(map(_usual, usual)) for usual in data.get("usual", ())))


def pack_value(value: Any, form: int = TYPED_JSON) -> bytes:
    """Format 7 (or 4) of a JSON value (without its tag byte): each value a type, then its number, word or
    parts; a word or a dict's keys in the vocabulary as their place, others spelled out. Unfit for floats."""
    digits = Digits(tight=True)
    budget = [MOST_ITEMS]
    _put_value(digits, value, vocabulary(VOCABULARIES[form]), budget, 0)
    return digits.to_bytes()


def unpack_value(data: bytes, form: int = TYPED_JSON) -> Any:
    reader = Reader(data, tight=True)
    value = _get_value(reader, vocabulary(VOCABULARIES[form]), [MOST_ITEMS], 0)
    reader.done()
    return value


def value_kind(value: Any) -> int:
    kind = type(value)
    if value is None:
        return NULL
    if kind is bool:
        return BOOL
    found = {int: INT, str: STR, list: LIST, dict: DICT}.get(kind)
    if found is None:
        raise Unfit(f"a {kind.__name__} is not written in formats 4 to 7")
    return found


def _spend(budget: list[int], depth: int, error: type[ValueError]) -> None:
    budget[0] -= 1
    if budget[0] < 0 or depth > DEEPEST:
        raise error("a value too large or too deep for format 4")


def _put_value(digits: Digits, value: Any, words: Vocabulary, budget: list[int], depth: int,
               known: int | None = None) -> None:
    """A value; its type first unless `known` (its kind, as the vocabulary expected it)."""
    _spend(budget, depth, Unfit)
    kind = value_kind(value)
    if known is None:
        digits.put((TRUE if value else FALSE) if kind == BOOL else kind, TYPES)
    elif known != kind:
        raise Unfit("a value of a kind other than known")
    elif kind == BOOL:
        digits.put(1 if value else 0, 2)
    if kind == INT:
        digits.count(_zigzag(value))
    elif kind == STR:
        _put_word(digits, value, words)
    elif kind == LIST:
        digits.count(len(value))
        kinds: list[int | None] = [None] * len(value)
        if value and words.typed:
            item_kinds = {value_kind(item) for item in value}
            digits.put(1 if len(item_kinds) == 1 else 0, 2)
            if len(item_kinds) == 1:
                item_kind = item_kinds.pop()
                digits.put(item_kind, VALUE_KINDS)
                kinds = [item_kind] * len(value)
        for item, each in zip(value, kinds, strict=True):
            _put_value(digits, item, words, budget, depth + 1, each)
    elif kind == DICT:
        keys = tuple(value)
        place = words.template_places.get(keys)
        digits.put(len(words.templates) if place is None else place, len(words.templates) + 1)
        expected: Sequence[int | None] = [None] * len(keys)
        if place is None:
            digits.count(len(keys))
            for key in keys:
                if type(key) is not str:
                    raise Unfit("a key that is not a string")
                _put_word(digits, key, words)
        items = list(value.values())
        if place is not None and words.usual:
            hits = [_is_usual(item, usual) for item, usual in zip(items, words.usual[place], strict=True)]
            for hit, usual in zip(hits, words.usual[place], strict=True):
                if usual is not NO_USUAL:
                    digits.put(1 if hit else 0, 2)
            left = [at for at, hit in enumerate(hits) if not hit]
            items = [items[at] for at in left]
            wanted_kinds: Sequence[int] = [words.kinds[place][at] for at in left]
            expected = _expected(digits, [value_kind(item) for item in items], wanted_kinds)
        elif place is not None and words.typed:
            expected = _expected(digits, [value_kind(item) for item in items], words.kinds[place])
        for item, wanted in zip(items, expected, strict=True):
            _put_value(digits, item, words, budget, depth + 1, wanted)


def _expected(digits: Digits, kinds: Sequence[int], expected: Sequence[int]) -> list[int | None]:
    """Whether every value is of the kind the template expects, else which are: the kinds known for each."""
    if list(kinds) == list(expected):
        digits.put(1, 2)
        return list(expected)
    digits.put(0, 2)
    for kind, wanted in zip(kinds, expected, strict=True):
        digits.put(1 if kind == wanted else 0, 2)
    return [wanted if kind == wanted else None for kind, wanted in zip(kinds, expected, strict=True)]


def _get_value(reader: Reader, words: Vocabulary, budget: list[int], depth: int, known: int | None = None) -> Any:
    _spend(budget, depth, CorruptPayload)
    if known is None:
        kind = reader.get(TYPES)
        if kind in (NULL, FALSE, TRUE):
            return (None, False, True)[kind]
    else:
        kind = known
        if kind == NULL:
            return None
        if kind == BOOL:
            return bool(reader.get(2))
    if kind == INT:
        return _unzigzag(reader.count())
    if kind == STR:
        return _get_word(reader, words)
    if kind == LIST:
        length = reader.count()
        if length > budget[0]:
            raise CorruptPayload("a list longer than formats 4 to 7 hold")
        kinds: list[int | None] = [None] * length
        if length and words.typed and reader.get(2):
            kinds = [reader.get(VALUE_KINDS)] * length
        return [_get_value(reader, words, budget, depth + 1, item_kind) for item_kind in kinds]
    if kind != DICT:
        raise CorruptPayload(f"unknown kind {kind}")
    place = reader.get(len(words.templates) + 1)
    expected: list[int | None]
    hits: list[Any] = []
    if place < len(words.templates):
        keys: Sequence[str] = words.templates[place]
        expected = [None] * len(keys)
        wanted: Sequence[int] = words.kinds[place] if words.typed else ()
        if words.usual:
            hits = [usual if usual is not NO_USUAL and reader.get(2) else NO_USUAL for usual in words.usual[place]]
            wanted = [kind for kind, hit in zip(wanted, hits, strict=True) if hit is NO_USUAL]
        if words.typed:
            expected = list(wanted) if reader.get(2) else [kind if reader.get(2) else None for kind in wanted]
        if hits:
            given = iter(expected)
            return {key: _fresh(hit) if hit is not NO_USUAL else _get_value(reader, words, budget, depth + 1,
                                                                            next(given))
                    for key, hit in zip(keys, hits, strict=True)}
    else:
        length = reader.count()
        if length > budget[0]:
            raise CorruptPayload("a dict larger than formats 4 to 7 hold")
        keys = [_get_word(reader, words) for _ in range(length)]
        expected = [None] * length
    return {key: _get_value(reader, words, budget, depth + 1, item_kind)
            for key, item_kind in zip(keys, expected, strict=True)}


# A word the vocabulary does not hold is spelled: each character its place here, or past them and its code point.
ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_.'"
LETTER_PLACES = {letter: place for place, letter in enumerate(ALPHABET)}


def _put_word(digits: Digits, word: str, words: Vocabulary) -> None:
    place = words.word_places.get(word)
    digits.put(len(words.words) if place is None else place, len(words.words) + 1)
    if place is None:
        _put_spelled(digits, word)


def _put_spelled(digits: Digits, word: str) -> None:
    if len(word) > WIDE:
        raise Unfit("a string longer than WIDE characters")
    digits.count(len(word))
    for letter in word:
        at = LETTER_PLACES.get(letter)
        digits.put(len(ALPHABET) if at is None else at, len(ALPHABET) + 1)
        if at is None:
            digits.count(ord(letter))


def _get_word(reader: Reader, words: Vocabulary) -> str:
    place = reader.get(len(words.words) + 1)
    if place < len(words.words):
        return words.words[place]
    return _get_spelled(reader)


# A player's name (tag 8): a word's first letter from CAPITALS, the others from SMALL, else from the alphabet.
CAPITALS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SMALL = "abcdefghijklmnopqrstuvwxyz "
CAPITAL_PLACES = {letter: place for place, letter in enumerate(CAPITALS)}
SMALL_PLACES = {letter: place for place, letter in enumerate(SMALL)}


def _put_name(digits: Digits, name: str) -> None:
    if len(name) > WIDE:
        raise Unfit("a name longer than WIDE characters")
    digits.count(len(name))
    first = True
    for letter in name:
        table, places = (CAPITALS, CAPITAL_PLACES) if first else (SMALL, SMALL_PLACES)
        at = places.get(letter)
        digits.put(len(table) if at is None else at, len(table) + 1)
        if at is None:
            _put_letter(digits, letter)
        first = letter in " -"


def _get_name(reader: Reader) -> str:
    length = reader.count()
    if length > WIDE:
        raise CorruptPayload("a name longer than WIDE characters")
    letters: list[str] = []
    first = True
    for _ in range(length):
        table = CAPITALS if first else SMALL
        at = reader.get(len(table) + 1)
        letter = table[at] if at < len(table) else _get_letter(reader)
        letters.append(letter)
        first = letter in " -"
    return "".join(letters)


def _put_letter(digits: Digits, letter: str) -> None:
    at = LETTER_PLACES.get(letter)
    digits.put(len(ALPHABET) if at is None else at, len(ALPHABET) + 1)
    if at is None:
        digits.count(ord(letter))


def _get_letter(reader: Reader) -> str:
    at = reader.get(len(ALPHABET) + 1)
    if at < len(ALPHABET):
        return ALPHABET[at]
    point = reader.count()
    if point > 0x10FFFF:
        raise CorruptPayload("not a character")
    return chr(point)


def _get_spelled(reader: Reader) -> str:
    length = reader.count()
    if length > WIDE:
        raise CorruptPayload("a string longer than formats 4 and 5 hold")
    letters = []
    for _ in range(length):
        at = reader.get(len(ALPHABET) + 1)
        if at < len(ALPHABET):
            letters.append(ALPHABET[at])
            continue
        point = reader.count()
        if point > 0x10FFFF:
            raise CorruptPayload("not a character")
        letters.append(chr(point))
    return "".join(letters)


# ---- mixed-radix digits ----------------------------------------------------------------------------------------

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


def _put_many(digits: Digits, values: Sequence[int], radix: int) -> None:
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


def _ints(value: Any) -> list[int]:
    if type(value) is not list or any(type(item) is not int for item in value):
        raise Unfit("not a list of integers")
    return value


def _put_small(digits: Digits, values: Sequence[int]) -> None:
    """A list of small non-negative integers: its length, its largest value, then each value below it."""
    digits.count(len(values))
    if values or not digits.tight:
        _put_lists(digits, [values], counted=False)


def _get_small(reader: Reader) -> list[int]:
    count = reader.count()
    if not count and reader.tight:
        return []
    return _get_lists(reader, [count])[0]


def _put_lengths(digits: Digits, lengths: Sequence[int]) -> None:
    """A known number of lengths: the longest, then each below it."""
    longest = max(lengths, default=0)
    digits.count(longest)
    _put_many(digits, lengths, longest + 1)


def _put_lists(digits: Digits, lists: Sequence[Sequence[int]], *, counted: bool = True) -> None:
    """Several lists of small integers: (their lengths,) the largest value, the values."""
    if counted:
        _put_lengths(digits, [len(values) for values in lists])
    flat = [value for values in lists for value in values]
    top = max(flat, default=0)
    digits.count(top)
    _put_many(digits, flat, top + 1)


def _get_lengths(reader: Reader, count: int) -> list[int]:
    longest = reader.count()
    return reader.many(count, longest + 1)


def _get_lists(reader: Reader, lengths: Sequence[int]) -> list[list[int]]:
    top = reader.count()
    flat = reader.many(sum(lengths), top + 1)
    out, start = [], 0
    for length in lengths:
        out.append(flat[start:start + length])
        start += length
    return out


def _put_cards(digits: Digits, cards: Sequence[int], universe: int) -> None:
    """Distinct card ids below `universe`, each as its rank among the ids not yet written (one digit for all:
    the same integer as a digit per card)."""
    left = list(range(universe))
    ranks = []
    for card in cards:
        index = bisect_left(left, card)
        if index == len(left) or left[index] != card:
            raise Unfit("card ids repeat or lie outside the deck")
        ranks.append(index)
        del left[index]
    number = 0
    for count, index in zip(range(universe - len(ranks) + 1, universe + 1), reversed(ranks), strict=True):
        number = number * count + index
    if ranks:
        digits.put(number, perm(universe, len(ranks)))


def _get_cards(reader: Reader, count: int, left: list[int]) -> list[int]:
    """`count` cards written by `_put_cards`; `left` (the ids not yet read, sorted) loses them."""
    if count == 0:
        return []
    chunk = reader.get(perm(len(left), count))
    cards = []
    for _ in range(count):
        chunk, index = divmod(chunk, len(left))
        cards.append(left.pop(index))
    return cards


def _put_roles(digits: Digits, roles: Any) -> None:
    if type(roles) is not list or any(type(role) is not str or role not in ROLE_INDEX for role in roles):
        raise Unfit("unknown role")
    digits.count(len(roles))
    _put_many(digits, [ROLE_INDEX[role] for role in roles], len(ROLES))


def _get_roles(reader: Reader) -> list[str]:
    return [ROLES[index] for index in reader.many(reader.count(), len(ROLES))]


# ---- boards ---------------------------------------------------------------------------------------------------

def _board(value: Any) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """A board as the engine writes it (`[x, y, card, rot]` sorted by cell): cells, cards, rotations."""
    if type(value) is not list:
        raise Unfit("a board is a list")
    cells: list[tuple[int, int]] = []
    cards: list[int] = []
    rotations: list[int] = []
    for entry in value:
        if type(entry) is not list or len(entry) != 4 or any(type(item) is not int for item in entry):
            raise Unfit("a board entry is [x, y, card, rot]")
        x, y, card, rot = entry
        if rot not in (0, 1) or (cells and (x, y) <= cells[-1]):
            raise Unfit("a board is sorted by cell, its rotations 0 or 1")
        cells.append((x, y))
        cards.append(card)
        rotations.append(rot)
    return cells, cards, rotations


def _put_cells(digits: Digits, cells: Sequence[tuple[int, int]]) -> None:
    """Sorted distinct cells: their bounding box, then which of its cells are taken (one bit each)."""
    if not cells:
        return
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    left, bottom = xs[0], min(ys)
    width, height = xs[-1] - left + 1, max(ys) - bottom + 1
    if digits.tight:
        if not (-SPAN // 2 <= left < SPAN // 2 and -SPAN // 2 <= bottom < SPAN // 2 and width <= SPAN >= height):
            raise Unfit("a board wider or higher than SPAN")
        for value in (_zigzag(left), _zigzag(bottom), width - 1, height - 1):
            digits.count(value)
    else:
        digits.put(left + SPAN // 2, SPAN)
        digits.put(bottom + SPAN // 2, SPAN)
        digits.put(width - 1, SPAN)
        digits.put(height - 1, SPAN)
    bits = 0
    for x, y in cells:
        bits |= 1 << ((x - left) * height + (y - bottom))
    digits.put(bits, 1 << (width * height))


def _get_cells(reader: Reader, count: int) -> list[tuple[int, int]]:
    if count == 0:
        return []
    if reader.tight:
        left, bottom = _unzigzag(reader.count()), _unzigzag(reader.count())
        width, height = reader.count() + 1, reader.count() + 1
        if width > SPAN or height > SPAN:
            raise CorruptPayload("a board wider or higher than SPAN")
    else:
        left = reader.get(SPAN) - SPAN // 2
        bottom = reader.get(SPAN) - SPAN // 2
        width = reader.get(SPAN) + 1
        height = reader.get(SPAN) + 1
    bits = reader.get(1 << (width * height))
    cells = []
    index = 0
    while bits:
        if bits & 1:
            column, row = divmod(index, height)
            cells.append((left + column, bottom + row))
        bits >>= 1
        index += 1
    if len(cells) != count:
        raise CorruptPayload("a board's cells do not match its cards")
    return cells


def _zigzag(value: int) -> int:
    return 2 * value if value >= 0 else -2 * value - 1


def _unzigzag(value: int) -> int:
    return value // 2 if value % 2 == 0 else -(value + 1) // 2


def _entries(cells: Sequence[tuple[int, int]], cards: Sequence[int], rotations: Sequence[int]) -> list[list[int]]:
    return [[x, y, card, rot] for (x, y), card, rot in zip(cells, cards, rotations, strict=True)]


# ---- the engine state -----------------------------------------------------------------------------------------

def _card_lists(state: dict[str, Any], board_cards: list[int]) -> list[list[int]]:
    """Every list of cards of the round in play, in the order they are packed: hands, draw pile, discard pile,
    cards set aside, cards in front of each seat, the board's cards."""
    hands = state["hands"]
    front = state["front"]
    if type(hands) is not list or type(front) is not list:
        raise Unfit("hands and fronts are lists")
    return [*(_ints(hand) for hand in hands), _ints(state["draw_pile"]), _ints(state["discard"]),
            _ints(state["removed"]), *(_ints(cards) for cards in front), board_cards]


def pack_state(state: Any, form: int = PACKED_STATE) -> bytes:
    """Format `form` (5, 3 or 1) of an engine state (without its tag byte); Unfit when it is of another shape."""
    text, number = _state_parts(state, form)
    if form in WHOLE_STATES:
        return number
    packed = deflate(text, "state")
    return _varint(len(packed)) + packed + number


def _state_parts(state: Any, form: int = PACKED_STATE) -> tuple[bytes, bytes]:
    """A state's JSON part (before deflating; none in format 5) and its integer part, in format `form`."""
    if type(state) is not dict or set(state) != set(STATE_KEYS) or state["schema"] != STATE_SCHEMA:
        raise Unfit("not an engine state of schema 2")
    players = state["players"]
    if type(players) is not list:
        raise Unfit("players are a list")
    seats = len(players)
    if any(type(state[key]) is not list or len(state[key]) != seats for key in ("hands", "front", "gold")):
        raise Unfit("one entry a seat")
    results = state["results"]
    if type(results) is not list or any(type(result) is not dict for result in results):
        raise Unfit("results are a list of objects")
    rng = state["rng"]
    if type(rng) is not str or len(rng) != 16 or rng.strip("0123456789abcdef"):
        raise Unfit("the generator is 16 hex digits")

    cells, board_cards, rotations = _board(state["board"])
    lists = _card_lists(state, board_cards)
    result_boards = []
    rest = []
    for result in results:
        if not set(RESULT_PACKED) <= set(result):
            raise Unfit("a result without roles or board")
        result_boards.append(_board(result["board"]))
        rest.append({key: (0 if key in RESULT_PACKED else value) for key, value in result.items()})
    every_card = [card for cards in lists for card in cards]
    every_card += [card for _, cards, _ in result_boards for card in cards]
    universe = max(every_card, default=-1) + 1
    if universe > WIDE:
        raise Unfit("a card id of WIDE or more")

    tight = form != PACKED_STATE_V1
    whole = form in WHOLE_STATES
    words = vocabulary(VOCABULARIES[form]) if whole else NO_WORDS
    digits = Digits(tight=tight)
    if whole:
        digits.count(seats)
        for name in players:
            if type(name) is not str:
                raise Unfit("a player's name is a string")
            if form == WHOLE_STATE:
                _put_name(digits, name)
            elif form == WHOLE_STATE_V2:
                _put_spelled(digits, name)
            else:
                _put_word(digits, name, words)
    digits.count(universe)
    digits.put(int(rng, 16), 1 << 64)
    if tight:  # hands alike, then the piles one by one, then the fronts alike
        _put_lengths(digits, [len(cards) for cards in lists[:seats]])
        for cards in lists[seats:seats + 3]:
            digits.count(len(cards))
        _put_lengths(digits, [len(cards) for cards in lists[seats + 3:-1]])
    else:
        _put_lengths(digits, [len(cards) for cards in lists[:-1]])
    digits.count(len(board_cards))
    # every card of the round in play once: lengths first, then the cards as ranks
    _put_cards(digits, every_card[:sum(len(cards) for cards in lists)], universe)
    _put_cells(digits, cells)
    _put_many(digits, rotations, 2)
    _put_roles(digits, state["roles"])
    _put_roles(digits, state["spare_roles"])
    _put_roles(digits, state["discarded_roles"])
    _put_small(digits, _ints(state["gold_pile"]))
    _put_lists(digits, [_ints(nuggets) for nuggets in state["gold"]])
    for key in ("offer", "gold_pieces", "theft_order", "stealers"):
        _put_small(digits, _ints(state[key]))
    if whole:
        digits.count(len(results))
    for result, (result_cells, result_cards, result_rotations) in zip(results, result_boards, strict=True):
        _put_roles(digits, result["roles"])
        _put_roles(digits, result["spare_roles"])
        digits.count(len(result_cards))
        _put_cards(digits, result_cards, universe)
        _put_cells(digits, result_cells)
        _put_many(digits, result_rotations, 2)
        if whole:
            _put_result(digits, result, seats, words)
    if whole:
        _put_fields(digits, state, seats, words)
        return b"", digits.to_bytes()

    skeleton = [state[key] for key in SKELETON_KEYS]
    skeleton.append(rest)
    try:
        text = _compact(skeleton)
    except (TypeError, ValueError) as error:
        raise Unfit(str(error)) from error
    if json.loads(text) != skeleton:
        raise Unfit("the rest does not survive JSON")
    return text, digits.to_bytes()


SKELETON_KEYS = ("variant", "players", "options", "seed", "round", "phase", "turn", "hidden_goals", "peeks",
                 "last_actor", "last_placed", "inspections", "last_builder")


def unpack_state(data: bytes, form: int = PACKED_STATE) -> dict[str, Any]:
    """The engine state `pack_state` wrote in format `form`."""
    tight = form != PACKED_STATE_V1
    whole = form in WHOLE_STATES
    words = vocabulary(VOCABULARIES[form]) if whole else NO_WORDS
    known: dict[str, Any]
    rest: list[dict[str, Any]]
    if whole:
        reader = Reader(data, tight=True)
        seats = reader.count()
        if seats > WIDE:
            raise CorruptPayload("more seats than WIDE")
        spell = {WHOLE_STATE: _get_name, WHOLE_STATE_V2: _get_spelled}.get(form, lambda read: _get_word(read, words))
        known = {"players": [spell(reader) for _ in range(seats)]}
    else:
        length, start = _read_varint(data, 0)
        skeleton = json.loads(inflate(data[start:start + length], "state"))
        rest = skeleton.pop()
        known = dict(zip(SKELETON_KEYS, skeleton, strict=True))
        seats = len(known["players"])
        reader = Reader(data[start + length:], tight=tight)
    universe = reader.count()
    if universe > WIDE:
        raise CorruptPayload("a deck larger than WIDE")
    known["rng"] = format(reader.get(1 << 64), "016x")
    if tight:
        lengths = _get_lengths(reader, seats)
        lengths += [reader.count() for _ in range(3)]
        lengths += _get_lengths(reader, seats)
    else:
        lengths = _get_lengths(reader, 2 * seats + 3)
    lengths.append(reader.count())
    if sum(lengths) > universe:
        raise CorruptPayload("more cards than the deck holds")
    left = list(range(universe))
    lists = [_get_cards(reader, count, left) for count in lengths]
    known["hands"] = lists[:seats]
    known["draw_pile"], known["discard"], known["removed"] = lists[seats:seats + 3]
    known["front"] = lists[seats + 3:2 * seats + 3]
    board_cards = lists[-1]
    cells = _get_cells(reader, len(board_cards))
    known["board"] = _entries(cells, board_cards, reader.many(len(board_cards), 2))
    known["roles"] = _get_roles(reader)
    known["spare_roles"] = _get_roles(reader)
    known["discarded_roles"] = _get_roles(reader)
    known["gold_pile"] = _get_small(reader)
    known["gold"] = _get_lists(reader, _get_lengths(reader, seats))
    for key in ("offer", "gold_pieces", "theft_order", "stealers"):
        known[key] = _get_small(reader)
    if whole:
        played = reader.count()
        if played > WIDE:
            raise CorruptPayload("more rounds than WIDE")
        rest = [{} for _ in range(played)]
    for result in rest:
        roles = _get_roles(reader)
        spare_roles = _get_roles(reader)
        count = reader.count()
        if count > universe:
            raise CorruptPayload("more cards than the deck holds")
        cards = _get_cards(reader, count, list(range(universe)))
        result_cells = _get_cells(reader, count)
        board = _entries(result_cells, cards, reader.many(count, 2))
        if whole:
            result.update(_get_result(reader, seats, words))
        result.update(roles=roles, spare_roles=spare_roles, board=board)
    known["results"] = rest
    if whole:
        known.update(_get_fields(reader, seats, words))
    known["schema"] = STATE_SCHEMA
    if whole:
        reader.done()
    return {key: known[key] for key in STATE_KEYS}


def _put_fields(digits: Digits, state: dict[str, Any], seats: int, words: Vocabulary) -> None:
    """Format 5: the fields of the JSON part of formats 1 and 3 but the players, each by its own coder."""
    budget = [MOST_ITEMS]
    for key in ("variant", "options", "phase", "round", "turn"):
        _put_value(digits, state[key], words, budget, 0)
    digits.put(_below(state["seed"], 1 << 64), 1 << 64)
    goals = state["hidden_goals"]
    if type(goals) is not list or any(type(goal) is not list or len(goal) != 3 for goal in goals):
        raise Unfit("hidden goals are [x, y, card]")
    digits.count(len(goals))
    _put_lists(digits, [[_zigzag(number) for number in _ints(goal)] for goal in goals], counted=False)
    _put_seat_lists(digits, state["peeks"], seats, lambda cell: [_zigzag(number) for number in _ints(cell)], 2)
    _put_seat_lists(digits, state["inspections"], seats, lambda seen: _inspection(seen, seats), 2)
    for key in ("last_actor", "last_builder"):
        value = state[key]
        digits.put(0 if value is None else _below(value, seats) + 1, seats + 1)
    placed = state["last_placed"]
    digits.put(0 if placed is None else 1, 2)
    if placed is not None:
        if len(_ints(placed)) != 2:
            raise Unfit("the last cell placed is [x, y]")
        digits.count(_zigzag(placed[0]))
        digits.count(_zigzag(placed[1]))


def _get_fields(reader: Reader, seats: int, words: Vocabulary) -> dict[str, Any]:
    budget = [MOST_ITEMS]
    known = {key: _get_value(reader, words, budget, 0) for key in ("variant", "options", "phase", "round", "turn")}
    known["seed"] = reader.get(1 << 64)
    goals = reader.count()
    if goals > WIDE:
        raise CorruptPayload("more goals than WIDE")
    known["hidden_goals"] = [[_unzigzag(number) for number in goal] for goal in _get_lists(reader, [3] * goals)]
    known["peeks"] = _get_seat_lists(reader, seats, lambda cell: [_unzigzag(number) for number in cell], 2)
    known["inspections"] = _get_seat_lists(reader, seats, lambda seen: [seen[0], ROLES[seen[1]]], 2)
    for key in ("last_actor", "last_builder"):
        value = reader.get(seats + 1)
        known[key] = None if value == 0 else value - 1
    known["last_placed"] = [_unzigzag(reader.count()), _unzigzag(reader.count())] if reader.get(2) else None
    return known


def _inspection(seen: Any, seats: int) -> list[int]:
    if type(seen) is not list or len(seen) != 2 or type(seen[1]) is not str or seen[1] not in ROLE_INDEX:
        raise Unfit("an inspection is [seat, role]")
    return [_below(seen[0], seats), ROLE_INDEX[seen[1]]]


def _put_seat_lists(digits: Digits, value: Any, seats: int, numbers: Callable[[Any], list[int]], width: int
                    ) -> None:
    """One list a seat of entries that are `width` small numbers each (`numbers` of an entry)."""
    if type(value) is not list or len(value) != seats or any(type(entries) is not list for entries in value):
        raise Unfit("one list a seat")
    _put_lengths(digits, [len(entries) for entries in value])
    flat = []
    for entries in value:
        for entry in entries:
            entry_numbers = numbers(entry)
            if len(entry_numbers) != width:
                raise Unfit(f"an entry of other than {width} numbers")
            flat.extend(entry_numbers)
    _put_lists(digits, [flat], counted=False)


def _get_seat_lists(reader: Reader, seats: int, entry: Callable[[list[int]], list[Any]], width: int
                    ) -> list[list[Any]]:
    lengths = _get_lengths(reader, seats)
    if sum(lengths) > WIDE:
        raise CorruptPayload("more entries than WIDE")
    flat = _get_lists(reader, [width * sum(lengths)])[0]
    out, start = [], 0
    for length in lengths:
        out.append([entry(flat[at:at + width]) for at in range(start, start + width * length, width)])
        start += width * length
    return out


PAYOUT_KEYS = ("seat", "amount", "base", "reason")


def _put_result(digits: Digits, result: dict[str, Any], seats: int, words: Vocabulary) -> None:
    """A round result's keys (a template of the vocabulary) and its values but the packed ones; its payouts, the
    list of {seat, amount, base, reason}, one number each."""
    keys = tuple(result)
    place = words.template_places.get(keys)
    if place is None:
        raise Unfit("a round result of keys the vocabulary does not know")
    digits.put(place, len(words.templates))
    budget = [MOST_ITEMS]
    usual = words.usual[place] if words.usual else (NO_USUAL,) * len(keys)
    for (key, value), usual_value in zip(result.items(), usual, strict=True):
        if key in RESULT_PACKED:
            continue
        if usual_value is not NO_USUAL:
            digits.put(1 if _is_usual(value, usual_value) else 0, 2)
            if _is_usual(value, usual_value):
                continue
        if key == "payouts" and type(value) is list:
            digits.put(1, 2)
            digits.count(len(value))
            for payout in value:
                if type(payout) is not dict or tuple(payout) != PAYOUT_KEYS:
                    raise Unfit("a payout of other keys")
                digits.put(_below(payout["seat"], seats), seats)
                if words.usual:  # vocabulary 4: the base, then whether the amount is the base
                    digits.count(_natural(payout["base"]))
                    digits.put(1 if _natural(payout["amount"]) == payout["base"] else 0, 2)
                    if payout["amount"] != payout["base"]:
                        digits.count(payout["amount"])
                else:
                    digits.count(_natural(payout["amount"]))
                    digits.count(_natural(payout["base"]))
                if type(payout["reason"]) is not str:
                    raise Unfit("a payout's reason is a string")
                _put_word(digits, payout["reason"], words)
            continue
        if key == "payouts":
            digits.put(0, 2)
        _put_value(digits, value, words, budget, 0)


def _get_result(reader: Reader, seats: int, words: Vocabulary) -> dict[str, Any]:
    """A result `_put_result` wrote, its packed keys holding 0 for now."""
    place = reader.get(len(words.templates))
    keys = words.templates[place]
    budget = [MOST_ITEMS]
    usual = words.usual[place] if words.usual else (NO_USUAL,) * len(keys)
    result: dict[str, Any] = {}
    for key, usual_value in zip(keys, usual, strict=True):
        if key in RESULT_PACKED:
            result[key] = 0
        elif usual_value is not NO_USUAL and reader.get(2):
            result[key] = _fresh(usual_value)
        elif key == "payouts" and reader.get(2):
            count = reader.count()
            if count > seats * 4:
                raise CorruptPayload("more payouts than a round holds")
            result[key] = [_get_payout(reader, seats, words) for _ in range(count)]
        else:
            result[key] = _get_value(reader, words, budget, 0)
    return result


def _get_payout(reader: Reader, seats: int, words: Vocabulary) -> dict[str, Any]:
    seat = reader.get(seats)
    if words.usual:
        base = reader.count()
        amount = base if reader.get(2) else reader.count()
    else:
        amount = reader.count()
        base = reader.count()
    return {"seat": seat, "amount": amount, "base": base, "reason": _get_word(reader, words)}


def _below(value: Any, bound: int) -> int:
    if type(value) is not int or not 0 <= value < bound:
        raise Unfit(f"{value!r} is not below {bound}")
    return value


def _natural(value: Any) -> int:
    if type(value) is not int or value < 0:
        raise Unfit(f"{value!r} is not a natural number")
    return value


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        low = value & 0x7F
        value >>= 7
        if value:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def _read_varint(data: bytes, start: int) -> tuple[int, int]:
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


def skeleton_text(state: dict[str, Any]) -> bytes | None:
    """The JSON part of a packed state before deflating (what the state dictionary is trained on), or None."""
    try:
        return _state_parts(state)[0]
    except Unfit:
        return None


def training_texts(kind: str, values: Iterator[Any] | Sequence[Any]) -> list[bytes]:
    """What a dictionary of `kind` is trained on: the bytes that column deflates."""
    pick: Callable[[Any], bytes | None] = skeleton_text if kind == "state" else _compact
    return [text for text in map(pick, values) if text is not None]
