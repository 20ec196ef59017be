"""Typed values (tags 4, 7 and 9): a move or an event list as one mixed-radix integer of types and words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.snapshot_codec.boards import unzigzag, zigzag
from pbem.snapshot_codec.digits import Digits, Reader
from pbem.snapshot_codec.spelling import get_word, put_word
from pbem.snapshot_codec.tags import TYPED_JSON, VOCABULARIES, CorruptPayload, Unfit
from pbem.snapshot_codec.vocabulary import (
    BOOL,
    DEEPEST,
    DICT,
    FALSE,
    INT,
    LIST,
    MOST_ITEMS,
    NO_USUAL,
    NULL,
    STR,
    TRUE,
    TYPES,
    VALUE_KINDS,
    Vocabulary,
    fresh,
    is_usual,
    vocabulary,
)


def pack_value(value: Any, form: int = TYPED_JSON) -> bytes:
    """Format 7 (or 4) of a JSON value (without its tag byte): each value a type, then its number, word or
    parts; a word or a dict's keys in the vocabulary as their place, others spelled out. Unfit for floats."""
    digits = Digits(tight=True)
    budget = [MOST_ITEMS]
    put_value(digits, value, vocabulary(VOCABULARIES[form]), budget, 0)
    return digits.to_bytes()


def unpack_value(data: bytes, form: int = TYPED_JSON) -> Any:
    reader = Reader(data, tight=True)
    value = get_value(reader, vocabulary(VOCABULARIES[form]), [MOST_ITEMS], 0)
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


def put_value(digits: Digits, value: Any, words: Vocabulary, budget: list[int], depth: int,
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
        digits.count(zigzag(value))
    elif kind == STR:
        put_word(digits, value, words)
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
            put_value(digits, item, words, budget, depth + 1, each)
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
                put_word(digits, key, words)
        items = list(value.values())
        if place is not None and words.usual:
            hits = [is_usual(item, usual) for item, usual in zip(items, words.usual[place], strict=True)]
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
            put_value(digits, item, words, budget, depth + 1, wanted)


def _expected(digits: Digits, kinds: Sequence[int], expected: Sequence[int]) -> list[int | None]:
    """Whether every value is of the kind the template expects, else which are: the kinds known for each."""
    if list(kinds) == list(expected):
        digits.put(1, 2)
        return list(expected)
    digits.put(0, 2)
    for kind, wanted in zip(kinds, expected, strict=True):
        digits.put(1 if kind == wanted else 0, 2)
    return [wanted if kind == wanted else None for kind, wanted in zip(kinds, expected, strict=True)]


def get_value(reader: Reader, words: Vocabulary, budget: list[int], depth: int, known: int | None = None) -> Any:
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
        return unzigzag(reader.count())
    if kind == STR:
        return get_word(reader, words)
    if kind == LIST:
        length = reader.count()
        if length > budget[0]:
            raise CorruptPayload("a list longer than formats 4 to 7 hold")
        kinds: list[int | None] = [None] * length
        if length and words.typed and reader.get(2):
            kinds = [reader.get(VALUE_KINDS)] * length
        return [get_value(reader, words, budget, depth + 1, item_kind) for item_kind in kinds]
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
            return {key: fresh(hit) if hit is not NO_USUAL else get_value(reader, words, budget, depth + 1,
                                                                            next(given))
                    for key, hit in zip(keys, hits, strict=True)}
    else:
        length = reader.count()
        if length > budget[0]:
            raise CorruptPayload("a dict larger than formats 4 to 7 hold")
        keys = [get_word(reader, words) for _ in range(length)]
        expected = [None] * length
    return {key: get_value(reader, words, budget, depth + 1, item_kind)
            for key, item_kind in zip(keys, expected, strict=True)}
