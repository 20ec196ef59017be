"""Words a vocabulary does not hold, and players' names, spelled letter by letter."""

from __future__ import annotations

from pbem.snapshot_codec.digits import Digits, Reader
from pbem.snapshot_codec.tags import WIDE, CorruptPayload, Unfit
from pbem.snapshot_codec.vocabulary import Vocabulary

# A word the vocabulary does not hold is spelled: each character its place here, or past them and its code point.
ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_.'"
LETTER_PLACES = {letter: place for place, letter in enumerate(ALPHABET)}


def put_word(digits: Digits, word: str, words: Vocabulary) -> None:
    place = words.word_places.get(word)
    digits.put(len(words.words) if place is None else place, len(words.words) + 1)
    if place is None:
        put_spelled(digits, word)


def put_spelled(digits: Digits, word: str) -> None:
    if len(word) > WIDE:
        raise Unfit("a string longer than WIDE characters")
    digits.count(len(word))
    for letter in word:
        at = LETTER_PLACES.get(letter)
        digits.put(len(ALPHABET) if at is None else at, len(ALPHABET) + 1)
        if at is None:
            digits.count(ord(letter))


def get_word(reader: Reader, words: Vocabulary) -> str:
    place = reader.get(len(words.words) + 1)
    if place < len(words.words):
        return words.words[place]
    return get_spelled(reader)


# A player's name (tag 8): a word's first letter from CAPITALS, the others from SMALL, else from the alphabet.
CAPITALS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SMALL = "abcdefghijklmnopqrstuvwxyz "
CAPITAL_PLACES = {letter: place for place, letter in enumerate(CAPITALS)}
SMALL_PLACES = {letter: place for place, letter in enumerate(SMALL)}


def put_name(digits: Digits, name: str) -> None:
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


def get_name(reader: Reader) -> str:
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


def get_spelled(reader: Reader) -> str:
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
